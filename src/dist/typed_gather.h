// Figures between ranks as their own types: each rank's T goes as the JSON its to_json writes
// and comes back through its from_json, so no rank reads another's figures by key. The same
// collectives as Communicator's Gather and AllGather: every rank calls them, in one order.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "dist/communicator.h"

namespace trainbench::dist {

// Every rank's `mine` on rank 0, in rank order; empty on the other ranks.
template <class T>
std::vector<T> GatherAs(Communicator& ranks, const T& mine) {
  std::vector<T> all;
  for (const auto& text : ranks.Gather(nlohmann::json(mine).dump()))
    all.push_back(nlohmann::json::parse(text).get<T>());
  return all;
}

// Every rank's `mine` on every rank, in rank order.
template <class T>
std::vector<T> AllGatherAs(Communicator& ranks, const T& mine) {
  std::vector<T> all;
  for (const auto& text : ranks.AllGather(nlohmann::json(mine).dump()))
    all.push_back(nlohmann::json::parse(text).get<T>());
  return all;
}

}  // namespace trainbench::dist
