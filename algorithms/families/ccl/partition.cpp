// `--partition row|col|even-odd`: the network split into disjoint groups that
// all run the same operation at once (the paper's row and column groups and
// Example 1's even and odd groups, §II), each group's schedule remapped onto
// its nodes and merged.
#include <fmt/format.h>

#include <map>

#include "algorithms/families/ccl/partition.h"
#include "systemc/core/config_error.h"

namespace wn::alg::ccl {

std::vector<std::vector<int>> partition_nodes(const Topology& topo, const std::string& how) {
  std::map<std::vector<int>, std::vector<int>> parts;  // key -> members in node order
  const bool grid = topo.kind() != TopoKind::Cube;
  if ((how == "row" || how == "col") && !grid)
    throw ConfigError("--partition",
                      fmt::format("{} needs a mesh or torus, not {}; allowed: even-odd", how, topo.name()));
  for (int v = 0; v < topo.nodes(); ++v) {
    std::vector<int> key;
    if (how == "even-odd") {
      key = {v % 2};
    } else {
      key = topo.coords(v);
      key.erase(key.begin() + (how == "row" ? 0 : 1));  // a row varies x, a column y
    }
    parts[key].push_back(v);
  }
  std::vector<std::vector<int>> out;
  for (auto& [k, members] : parts) {
    if (how == "col")
      std::sort(members.begin(), members.end(), [&](int a, int b) { return topo.coords(a) < topo.coords(b); });
    if (members.size() < 2)
      throw ConfigError("--partition", fmt::format("{} on {} leaves a group of {} node; allowed: groups of at least 2",
                                                   how, topo.name(), members.size()));
    out.push_back(members);
  }
  return out;
}

Schedule merge_parts(const std::vector<std::vector<int>>& parts, const std::function<Schedule(int n)>& build_for,
                     int nodes) {
  std::vector<Schedule> each;
  std::vector<int> part_of(size_t(nodes), -1);
  Schedule s;
  s.nodes = nodes;
  s.programs.resize(size_t(nodes));
  for (size_t p = 0; p < parts.size(); ++p) {
    each.push_back(remap_group(build_for(int(parts[p].size())), parts[p], nodes));
    const Schedule& e = each.back();
    s.algorithm = e.algorithm;
    s.steps = std::max(s.steps, e.steps);
    s.memory_words = std::max(s.memory_words, e.memory_words);
    for (int v : parts[p]) {
      part_of[size_t(v)] = int(p);
      s.programs[size_t(v)] = e.programs[size_t(v)];
    }
  }
  auto shared = std::make_shared<std::vector<Schedule>>(std::move(each));
  s.initial = [shared, part_of](int v, uint32_t a) {
    const Schedule& e = (*shared)[size_t(part_of[size_t(v)])];
    return a < e.memory_words ? e.initial(v, a) : 0xc0000000u ^ (uint32_t(v) << 20) ^ a;
  };
  s.expected = [shared, part_of](int v, uint32_t a) -> std::optional<Word> {
    const Schedule& e = (*shared)[size_t(part_of[size_t(v)])];
    return a < e.memory_words ? e.expected(v, a) : std::nullopt;
  };
  return s;
}

}  // namespace wn::alg::ccl
