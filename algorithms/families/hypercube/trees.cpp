// The alternatives of Mathur & Johnsson (their Section 5) on the binary cube:
//  butterfly      rotated spanning binomial trees (alt 4): part i (elements
//                 s mod d == i) crosses dimension (u+i) mod d in stage u,
//                 carrying everything of that part gathered so far; d stages.
//  reduce-spread  butterfly all-reduce of the full N*M' vector (variable i
//                 along dimension (u+i) mod d), then each node keeps its block.
//  nesbt          one source at a time over d directed-edge-disjoint spanning
//                 binomial trees (alt 1): part k of source s goes down tree k
//                 translated by s; steps overlap (no barrier) = pipelining.
//  send-spread    gather all blocks to node 0 through the router, then a
//                 binomial-tree broadcast of the whole array (alt 3).
// Broadcast memory: the array in global order, N blocks of M' (block of node
// PA = PA, or G^-1(PA) in Gray order). reduce-spread: ACC [0, N*M') input and
// full sums, RESULT [N*M', +M') the node's block.
#include <fmt/format.h>

#include <cmath>

#include <algorithm>
#include <set>
#include <utility>

#include "algorithms/families/hypercube/gray_code.h"
#include "algorithms/families/hypercube/hypercube.h"

namespace wn::alg {

using gray::inverse;

namespace {

Word scratch(int node, uint32_t a) { return 0xc0000000u ^ (uint32_t(node) << 20) ^ a; }

Schedule gathered_array(const char* name, uint32_t n, uint32_t m, bool g) {
  Schedule s;
  s.algorithm = name;
  s.nodes = int(n);
  s.memory_words = n * m;
  s.programs.resize(n);
  s.initial = [m, g](int pa, uint32_t a) -> Word {
    const uint32_t own = g ? inverse(uint32_t(pa)) : uint32_t(pa);
    return a / m == own ? a : scratch(pa, a);
  };
  s.expected = [](int, uint32_t a) -> std::optional<Word> { return a; };
  return s;
}

// The sub-cube of `x` spanned by dimensions (i + v) mod d, v < u (sorted).
std::vector<uint32_t> subcube(uint32_t x, int i, int u, int d) {
  std::vector<uint32_t> out{x};
  for (int v = 0; v < u; ++v) {
    const uint32_t bit = 1u << ((i + v) % d);
    const size_t k = out.size();
    for (size_t j = 0; j < k; ++j) out.push_back(out[j] ^ bit);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Step& step_for(std::vector<Step>& prog, uint32_t tag) {
  for (Step& s : prog)
    if (s.tag == tag) return s;
  prog.push_back(Step{});
  prog.back().tag = tag;
  return prog.back();
}

void sort_steps(Schedule& s) {
  for (auto& p : s.programs)
    std::stable_sort(p.begin(), p.end(), [](const Step& a, const Step& b) { return a.tag < b.tag; });
}

}  // namespace

Schedule build_hc_butterfly(const Topology& topo, const AlgorithmArgs& a) {
  const int d = topo.dims();
  const uint32_t n = uint32_t(topo.nodes()), m = a.words;
  const bool g = gray_order(a);
  auto blk = [g](uint32_t q) { return g ? inverse(q) : q; };
  Schedule s = gathered_array("butterfly", n, m, g);
  s.steps = d;
  for (uint32_t pa = 0; pa < n; ++pa)
    for (int u = 0; u < d; ++u) {
      Step st;
      st.tag = uint32_t(u);
      st.multiport_send = true;  // all d parts in one CM-200 exchange
      for (int i = 0; i < d && uint32_t(i) < m; ++i) {
        const uint32_t partner = pa ^ (1u << ((u + i) % d));
        std::vector<Range> out, in;
        for (uint32_t q : subcube(pa, i, u, d)) {
          const auto r = slot_ranges(blk(q) * m, m, d, i), w = slot_ranges(blk(q ^ pa ^ partner) * m, m, d, i);
          out.insert(out.end(), r.begin(), r.end());
          in.insert(in.end(), w.begin(), w.end());
        }
        st.sends.push_back({int(partner), out, uint32_t(u), -1});
        st.recvs.push_back({int(partner), in, uint32_t(u), {}});
      }
      s.programs[pa].push_back(std::move(st));
    }
  return s;
}

Schedule build_hc_reduce_spread(const Topology& topo, const AlgorithmArgs& a) {
  const int d = topo.dims();
  const uint32_t n = uint32_t(topo.nodes()), m = a.words, len = n * m;
  const bool g = gray_order(a);
  const OpId op = a.op;
  Schedule s;
  s.algorithm = "reduce-spread";
  s.nodes = int(n);
  s.steps = d;
  s.memory_words = len + m;
  s.programs.resize(n);
  for (uint32_t pa = 0; pa < n; ++pa) {
    for (int u = 0; u < d; ++u) {
      Step st;
      st.tag = uint32_t(u);
      st.multiport_send = true;                           // all d variables in one CM-200 exchange
      for (int i = 0; i < d && uint32_t(i) < len; ++i) {  // variable i: elements a mod d == i of the vector
        const int partner = int(pa ^ (1u << ((u + i) % d)));
        st.sends.push_back({partner, slot_ranges(0, len, d, i), uint32_t(u), -1});
        st.recvs.push_back({partner, slot_ranges(0, len, d, i), uint32_t(u), Combine{op, false}});
      }
      s.programs[pa].push_back(std::move(st));
    }
    const uint32_t own = g ? inverse(pa) : pa;  // subselection: the node's block of the full sums
    s.programs[pa].back().after.push_back({{{own * m, m}}, {{len, m}}, {}});
  }
  s.initial = [m, len](int pa, uint32_t addr) -> Word {
    return addr < len ? reduce_input(pa, addr / m, addr % m, m) : scratch(pa, addr);
  };
  s.expected = [n, m, len, op, g](int pa, uint32_t addr) -> std::optional<Word> {
    const uint32_t b = addr < len ? addr / m : (g ? inverse(uint32_t(pa)) : uint32_t(pa)), off = addr % m;
    std::vector<Word> xs;
    for (uint32_t q = 0; q < n; ++q) xs.push_back(reduce_input(int(q), b, off, m));
    return fold(op, xs);  // every node ends with every full sum; RESULT = its block
  };
  return s;
}

// Parent of x in edge-disjoint spanning binomial tree k rooted at 0 (Mathur & Johnsson;
// verified directed-edge-disjoint, height d+1).
uint32_t esbt_parent(uint32_t x, int k, int d) {
  const uint32_t ek = 1u << k;
  if (x == ek) return 0;
  if (x & ek) {
    const uint32_t r = x ^ ek;
    int m = -1;
    for (int j = 1; j < d; ++j)
      if (r & (1u << ((k + j) % d))) m = (k + j) % d;  // the set bit that comes last in the rotated order
    return x ^ (1u << m);
  }
  return x ^ ek;
}

int esbt_depth(uint32_t x, int k, int d) {
  int depth = 0;
  while (x != 0) {
    x = esbt_parent(x, k, d);
    ++depth;
  }
  return depth;
}

SpreadChunks spread_chunks(uint32_t n, uint32_t m, int d) {
  // About sqrt(part) chunks of about sqrt(part) words balance the pipeline's fill (one chunk
  // per tree level) against the per-message overhead of many small chunks.
  const uint32_t part = (n * m + uint32_t(d) - 1) / uint32_t(d);
  SpreadChunks c;
  c.words = std::max(1u, uint32_t(std::ceil(std::sqrt(double(part)))));
  c.count = (part + c.words - 1) / c.words;
  return c;
}

uint32_t esbt_height(int d) {
  uint32_t h = 0;
  for (int k = 0; k < d; ++k)
    for (uint32_t x = 1; x < (1u << d); ++x) h = std::max(h, uint32_t(esbt_depth(x, k, d)));
  return h;
}

// Every edge parent(x) -> x of ESBT k (translated by `src`) carries `part`, tagged
// first_tag + depth(x) - 1: a node forwards what it received one step later.
static void esbt_broadcast(Schedule& s, uint32_t src, int k, int d, const std::vector<Range>& part,
                           uint32_t first_tag) {
  for (uint32_t x = 1; x < uint32_t(s.nodes); ++x) {
    const uint32_t child = x ^ src, parent = esbt_parent(x, k, d) ^ src;
    const uint32_t tag = first_tag + uint32_t(esbt_depth(x, k, d) - 1);
    step_for(s.programs[parent], tag).sends.push_back({int(child), part, tag, -1});
    step_for(s.programs[child], tag).recvs.push_back({int(parent), part, tag, {}});
  }
}

Schedule build_hc_nesbt(const Topology& topo, const AlgorithmArgs& a) {
  const int d = topo.dims();
  const uint32_t n = uint32_t(topo.nodes()), m = a.words;
  const bool g = gray_order(a);
  Schedule s = gathered_array("nesbt", n, m, g);
  const uint32_t per_source = esbt_height(d);
  s.steps = int(n * per_source);
  for (uint32_t src = 0; src < n; ++src) {
    const uint32_t block = g ? inverse(src) : src;
    for (int k = 0; k < d && uint32_t(k) < m; ++k)
      esbt_broadcast(s, src, k, d, slot_ranges(block * m, m, d, k), src * per_source);
  }
  sort_steps(s);
  return s;
}

Schedule build_hc_send_spread(const Topology& topo, const AlgorithmArgs& a) {
  const int d = topo.dims();
  const uint32_t n = uint32_t(topo.nodes()), m = a.words;
  const bool g = gray_order(a);
  Schedule s = gathered_array("send-spread", n, m, g);
  const uint32_t height = esbt_height(d);
  const SpreadChunks ch = spread_chunks(n, m, d);
  s.steps = int(height + ch.count);
  for (uint32_t q = 1; q < n; ++q) {  // "send": everyone to node 0 through the router
    const uint32_t b = g ? inverse(q) : q;
    step_for(s.programs[q], 0).sends.push_back({0, {{b * m, m}}, 0, -1});
    step_for(s.programs[0], 0).recvs.push_back({int(q), {{b * m, m}}, 0, {}});
  }
  // "spread": the CM-200 broadcast uses all d channels of the cube (Table 2: gather and
  // spread each cost the data term plus a latency of d): part k of the whole array (every d-th
  // word from k) goes down edge-disjoint spanning binomial tree k, pipelined in chunks: chunk c
  // leaves a node at depth t - 1 in step t + c.
  for (int k = 0; k < d && uint32_t(k) < n * m; ++k) {
    const Range part = slot_ranges(0, n * m, d, k).front();
    for (uint32_t c = 0; c * ch.words < part.count; ++c) {
      const Range chunk{part.at(c * ch.words), std::min(ch.words, part.count - c * ch.words), part.stride};
      esbt_broadcast(s, 0, k, d, {chunk}, 1 + c);
    }
  }
  sort_steps(s);
  return s;
}

}  // namespace wn::alg
