// The sources (roots) a multi-source experiment runs from: the thesis's
// latency figures average over many sources (all of them, or 100 drawn at
// random), so `compare --sources` and sweep specs take a list.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace wn {

// "N,M,..." | "all" | "random:N" over `nodes` nodes -> node ids, ascending
// and distinct; random draws come from `seed` (stream 0x51) without
// replacement. Bad text -> ConfigError(field) naming the allowed forms.
std::vector<int> parse_sources(const std::string& text, int nodes, uint64_t seed, const std::string& field);

}  // namespace wn
