// TB_JSON_FIELDS(Type, field, ...): a struct as a JSON object and back, its fields' names as
// the keys, in the order listed. nlohmann's own NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE (3.11.2)
// writes nlohmann::json only, whose keys come out sorted; the final lines (and the records
// and journals a reader takes in by eye) are nlohmann::ordered_json, which keeps them in the
// order listed. These are templates over any basic_json, so one declaration serves both.
//   - A std::optional field is written only when it holds a value (a figure that applies to
//     some jobs only) and read back only where present.
//   - A Nullable field is written as null when it holds none (a figure a reader looks for,
//     unknown here).
//   - Reading keeps the struct's default for a key that is absent (an older journal's row).
// Header only; the macro goes in the struct's namespace (found by argument-dependent lookup).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace trainbench {

// A value that may be unknown: null in JSON (see above), as a field or as an element of an
// array (a series with gaps).
template <class T>
struct Nullable : std::optional<T> {
  using std::optional<T>::optional;
};

template <class Json, class T>
void to_json(Json& j, const Nullable<T>& value) {
  if (value)
    j = *value;
  else
    j = nullptr;
}

template <class Json, class T>
void from_json(const Json& j, Nullable<T>& value) {
  if (j.is_null())
    value.reset();
  else
    value = j.template get<T>();
}

namespace json_fields {

template <class Json, class T>
void Put(Json& j, const char* key, const T& value) {
  j[key] = value;
}

template <class Json, class T>
void Put(Json& j, const char* key, const std::optional<T>& value) {
  if (value) j[key] = *value;
}

template <class Json, class T>
void Put(Json& j, const char* key, const Nullable<T>& value) {
  if (value)
    j[key] = *value;
  else
    j[key] = nullptr;
}

template <class Json, class T>
void Take(const Json& j, const char* key, T& value) {
  if (const auto it = j.find(key); it != j.end()) it->get_to(value);
}

template <class Json, class T>
void Take(const Json& j, const char* key, std::optional<T>& value) {
  if (const auto it = j.find(key); it != j.end() && !it->is_null())
    value = it->template get<T>();
  else
    value.reset();
}

template <class Json, class T>
void Take(const Json& j, const char* key, Nullable<T>& value) {
  Take(j, key, static_cast<std::optional<T>&>(value));
}

}  // namespace json_fields
}  // namespace trainbench

#define TB_JSON_PUT_FIELD(field) ::trainbench::json_fields::Put(tb_json, #field, tb_value.field);
#define TB_JSON_TAKE_FIELD(field) ::trainbench::json_fields::Take(tb_json, #field, tb_value.field);

#define TB_JSON_FIELDS(Type, ...)                                              \
  template <class TbJson>                                                      \
  void to_json(TbJson& tb_json, const Type& tb_value) {                        \
    tb_json = TbJson::object();                                                \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(TB_JSON_PUT_FIELD, __VA_ARGS__))  \
  }                                                                            \
  template <class TbJson>                                                      \
  void from_json(const TbJson& tb_json, Type& tb_value) {                      \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(TB_JSON_TAKE_FIELD, __VA_ARGS__)) \
  }
