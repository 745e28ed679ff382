// TB_JSON_FIELDS: the fields written in the order listed into an ordered_json (summary.json's
// order) and under nlohmann::json alike; an empty std::optional left out, an empty Nullable
// written as null; read back, an absent key keeps the struct's default (an older journal's
// row) and a present one is read, nested structs too.
#include "common/json_fields.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace trainbench {
namespace {

struct Inner {
  int a = 1;
};
TB_JSON_FIELDS(Inner, a)

struct Outer {
  std::string zebra = "z";
  double apple = 0.5;
  std::optional<int> maybe;
  Nullable<double> unknown;
  std::vector<Inner> inners;
  int kept = 7;
};
TB_JSON_FIELDS(Outer, zebra, apple, maybe, unknown, inners, kept)

TEST(JsonFields, OrderedAsListed) {
  const nlohmann::ordered_json j = Outer{};
  EXPECT_EQ(j.dump(), R"({"zebra":"z","apple":0.5,"unknown":null,"inners":[],"kept":7})");
  const nlohmann::json sorted = Outer{};
  EXPECT_EQ(sorted.dump(), R"({"apple":0.5,"inners":[],"kept":7,"unknown":null,"zebra":"z"})");
}

TEST(JsonFields, OptionalsWhenSet) {
  Outer o;
  o.maybe = 3;
  o.unknown = 2.5;
  o.inners = {Inner{4}};
  const nlohmann::ordered_json j = o;
  EXPECT_EQ(j.at("maybe"), 3);
  EXPECT_EQ(j.at("unknown"), 2.5);
  EXPECT_EQ(j.at("inners").at(0).at("a"), 4);
}

TEST(JsonFields, ReadBackKeepsDefaultsForAbsentKeys) {
  const auto o =
      nlohmann::json::parse(R"({"zebra":"q","maybe":9,"unknown":null,"inners":[{"a":5},{}]})")
          .get<Outer>();
  EXPECT_EQ(o.zebra, "q");
  EXPECT_EQ(o.apple, 0.5);
  EXPECT_EQ(o.maybe, 9);
  EXPECT_FALSE(o.unknown.has_value());
  ASSERT_EQ(o.inners.size(), 2u);
  EXPECT_EQ(o.inners[0].a, 5);
  EXPECT_EQ(o.inners[1].a, 1);
  EXPECT_EQ(o.kept, 7);
  EXPECT_THROW(nlohmann::json::parse(R"({"kept":"seven"})").get<Outer>(),
               nlohmann::json::exception);
}

}  // namespace
}  // namespace trainbench
