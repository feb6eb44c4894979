// edn-transpose: the schedule and registration of the plan in
// transpose_plan.cpp. Memory convention of direct-transpose: [0, M) the
// node's own block, [M, 2M) the block of its mirror (y, x) at the end
// (diagonal nodes copy locally). A node that relays or gathers keeps the
// blocks passing through it in scratch beyond 2M, one slot per block, never
// reused; the oracle leaves scratch unchecked.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "algorithms/families/edn/edn.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg::edn {

namespace {

Word block_word(int owner, uint32_t offset, uint32_t m) { return 0x40000000u + uint32_t(owner) * m + offset; }

void append(std::vector<Range>& rs, uint32_t addr, uint32_t m) {
  if (!rs.empty() && rs.back().stride == 1 && rs.back().end() == addr)
    rs.back().count += m;
  else
    rs.push_back({addr, m});
}

// The plan's moves as messages: one per (step, sender, receiver), blocks in plan order.
using Messages = std::map<std::tuple<int, int, int>, std::vector<int>>;
Messages messages(const Topology& topo, const std::vector<Transfer>& plan) {
  Messages out;
  for (const Transfer& t : plan) {
    auto& items = out[{t.step, topo.node_at({t.from.first, t.from.second}), topo.node_at({t.to.first, t.to.second})}];
    items.insert(items.end(), t.items.begin(), t.items.end());
  }
  return out;
}

}  // namespace

uint64_t transpose_memory_words(int k, uint32_t words) {
  const int n = 1 << k;
  // Blocks a node keeps in scratch: everything it receives that is not its own result.
  std::vector<uint64_t> scratch(size_t(n) * size_t(n), 0);
  for (const Transfer& t : transpose_plan(k))
    for (int item : t.items)
      if (Node{item / n, item % n} != t.to) ++scratch[size_t(t.to.first + n * t.to.second)];
  return (2 + *std::max_element(scratch.begin(), scratch.end())) * uint64_t(words);
}

Schedule build_edn_transpose(const Topology& topo, const AlgorithmArgs& args) {
  const int k = mesh_k(topo), n = 1 << k, nodes = topo.nodes();
  const uint32_t m = args.words;
  auto node_of = [&topo, n](int item) { return topo.node_at({item % n, item / n}); };
  auto mirror = [&topo](int q) {
    const auto c = topo.coords(q);
    return topo.node_at({c[1], c[0]});
  };
  Schedule s;
  s.algorithm = "edn-transpose";
  s.nodes = nodes;
  s.steps = k;
  s.programs.resize(size_t(nodes));
  std::vector<std::vector<Step>> by_step(static_cast<size_t>(nodes), std::vector<Step>(static_cast<size_t>(k)));
  std::vector<std::map<int, uint32_t>> where(static_cast<size_t>(nodes));  // block owner -> address
  std::vector<uint32_t> next(static_cast<size_t>(nodes), 2 * m);
  for (int q = 0; q < nodes; ++q) {
    where[size_t(q)][q] = 0;
    if (mirror(q) == q) by_step[size_t(q)][0].locals.push_back({{{0, m}}, {{m, m}}, {}});
  }
  for (const auto& [key, items] : messages(topo, transpose_plan(k))) {
    const auto [step, from, to] = key;
    std::vector<Range> src, dst;
    for (int item : items) {
      const int owner = node_of(item);
      append(src, where[size_t(from)].at(owner), m);
      uint32_t& addr = where[size_t(to)][owner];
      if (mirror(owner) == to) {
        addr = m;
      } else {
        addr = next[size_t(to)];
        next[size_t(to)] += m;
      }
      append(dst, addr, m);
    }
    by_step[size_t(from)][size_t(step)].sends.push_back({to, src, uint32_t(step), -1});
    by_step[size_t(to)][size_t(step)].recvs.push_back({from, dst, uint32_t(step), {}});
  }
  for (int q = 0; q < nodes; ++q)
    for (int t = 0; t < k; ++t) {
      Step& st = by_step[size_t(q)][size_t(t)];
      if (st.locals.empty() && st.sends.empty() && st.recvs.empty()) continue;
      st.tag = uint32_t(t);
      s.programs[size_t(q)].push_back(std::move(st));
    }
  s.memory_words = *std::max_element(next.begin(), next.end());
  s.initial = [m](int q, uint32_t a) {
    return a < m ? block_word(q, a, m) : Word(0xc0000000u ^ (uint32_t(q) << 20) ^ a);
  };
  s.expected = [m, mirror](int q, uint32_t a) -> std::optional<Word> {
    if (a < m) return block_word(q, a, m);
    if (a < 2 * m) return block_word(mirror(q), a - m, m);
    return std::nullopt;
  };
  return s;
}

AlgorithmInfo transpose_info() {
  AlgorithmInfo t;
  t.name = "edn-transpose";
  t.summary =
      "matrix transpose, (block,block) distribution: off-diagonal 4x4 blocks gather into their EDNs, the "
      "EDN classes exchange recursively, the mirror block scatters; diagonal blocks relay (k steps)";
  t.params = "--bytes (per block) --ports (3 ports per node suffice)";
  t.supports = [](const Topology& topo) {
    return mesh_k(topo) ? std::string()
                        : fmt::format(
                              "edn-transpose runs on square meshes of side 2^k, k >= 2, not {}; allowed: "
                              "mesh:4x4, mesh:8x8, mesh:16x16, mesh:32x32",
                              topo.name());
  };
  t.check = [](const Topology& topo, const AlgorithmArgs& args) {
    edn::check_message(topo, args, transpose_memory_words(mesh_k(topo), args.words));
  };
  t.max_messages = [](const Topology& topo, const AlgorithmArgs&) { return 3 * uint64_t(topo.nodes()); };
  t.build = build_edn_transpose;
  t.cost = [](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    return step_model_prediction(
        s, topo, c,
        fmt::format("k = {} steps (gather to the EDNs, {} recursive EDN exchange steps, scatter), stepwise "
                    "contention-free; step model with alpha={} gamma={}, F={} flits per block, largest message {} "
                    "blocks, h <= {}",
                    s.steps, s.steps - 2, c.alpha, c.gamma, c.flits(args.words),
                    max_message_words(s) / std::max<uint32_t>(args.words, 1), max_hops(s, topo)));
  };
  return t;
}

}  // namespace wn::alg::edn
