#include "experiments/source_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "systemc/core/config_error.h"
#include "systemc/core/rng.h"

namespace wn {

namespace {

// A decimal integer in [lo, hi], or -1.
long parse_int(const std::string& t, long lo, long hi) {
  if (t.empty() || t.size() > 9 || !std::all_of(t.begin(), t.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return -1;
  const long v = std::stol(t);
  return v >= lo && v <= hi ? v : -1;
}

}  // namespace

std::vector<int> parse_sources(const std::string& text, int nodes, uint64_t seed, const std::string& field) {
  const std::string allowed =
      fmt::format("allowed: node ids 0..{} comma-separated, all, or random:N with N in 1..{}", nodes - 1, nodes);
  std::vector<int> out;
  if (text == "all") {
    out.resize(size_t(nodes));
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  if (text.rfind("random:", 0) == 0) {
    const long n = parse_int(text.substr(7), 1, nodes);
    if (n < 0) throw ConfigError(field, fmt::format("'{}' is not a count of sources; {}", text, allowed));
    std::vector<int> all(static_cast<size_t>(nodes));
    std::iota(all.begin(), all.end(), 0);
    Rng rng(derive_seed(seed, 0x51u));  // stream 0x51: the random sources
    // A partial Fisher-Yates shuffle with our own index draws, so the choice
    // does not depend on the standard library's distribution algorithms.
    for (long i = 0; i < n; ++i) {
      const uint64_t j = uint64_t(i) + rng() % uint64_t(nodes - i);
      std::swap(all[size_t(i)], all[size_t(j)]);
    }
    out.assign(all.begin(), all.begin() + n);
    std::sort(out.begin(), out.end());
    return out;
  }
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const long v = parse_int(item, 0, nodes - 1);
    if (v < 0) throw ConfigError(field, fmt::format("'{}' is not a node of the network; {}", item, allowed));
    out.push_back(int(v));
    pos = comma + 1;
  }
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end())
    throw ConfigError(field, fmt::format("'{}' names a node twice; {}", text, allowed));
  return out;
}

}  // namespace wn
