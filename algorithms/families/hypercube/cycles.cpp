// Single and d Hamiltonian cycles on the binary cube (Mathur & Johnsson; golden tables: Figures 5-19).
#include <fmt/format.h>

#include <utility>

#include "algorithms/families/hypercube/gray_code.h"
#include "algorithms/families/hypercube/hypercube.h"

namespace wn::alg {

using gray::code;
using gray::inverse;
using gray::rotl;
using gray::transition;

std::vector<Range> slot_ranges(uint32_t base, uint32_t mprime, int d, int i) {
  if (d == 1) return mprime ? std::vector<Range>{{base, mprime}} : std::vector<Range>{};
  if (uint32_t(i) >= mprime) return {};
  // In 64 bits: mprime + d - 1 wraps for mprime near 2^32.
  return {Range{base + uint32_t(i), uint32_t((uint64_t(mprime) - uint64_t(i) + uint64_t(d) - 1) / uint64_t(d)),
                uint32_t(d)}};
}

Word reduce_input(int node, uint32_t block, uint32_t s, uint32_t mprime) {
  // Distinct per (node, block, element); small enough to read in a snapshot.
  return 0x10000000u + (uint32_t(node) << 20) + block * mprime + s;
}

namespace {

struct Shape {
  int d;
  uint32_t n, m;  // nodes, M'
};
Shape shape(const Topology& topo, const AlgorithmArgs& a) { return {topo.dims(), uint32_t(topo.nodes()), a.words}; }

Word scratch(int node, uint32_t a) { return 0xc0000000u ^ (uint32_t(node) << 20) ^ a; }

// Moved indices: one 32-bit index per 64-bit element (two words), as the CM-200 moved them (§4.4,
// the index exchange's ceil(M'/2d) against the data's ceil(M'S/2d)); index k of a block travels
// in slot k mod d.
uint32_t index_words(uint32_t m) { return uint32_t((uint64_t(m) + 1) / 2); }

// One step of a cycle algorithm; `all_dims`: the d slot exchanges form one
// machine exchange (one startup).
Step exchange_step(uint32_t tag, bool all_dims = false) {
  Step s;
  s.tag = tag;
  s.multiport_send = all_dims;
  return s;
}

// Broadcast oracle shared by both cycle methods: OUT block j element s came
// from global block src(pa, j, s); FINAL is the array in order; IDX block j (index_words(M')
// words) index k likewise from src(pa, j, k).
Schedule broadcast_frame(const char* name, const Shape& sh, bool with_idx,
                         std::function<uint32_t(uint32_t pa, uint32_t j, uint32_t s)> src) {
  Schedule s;
  s.algorithm = name;
  s.nodes = int(sh.n);
  s.steps = int(sh.n) - 1;
  const uint32_t nm = sh.n * sh.m, m = sh.m, mi = index_words(sh.m);
  s.memory_words = 2 * nm + (with_idx ? sh.n * mi : 0);
  s.programs.resize(sh.n);
  s.initial = [src, nm, m, mi](int pa, uint32_t a) -> Word {
    const uint32_t region = a / nm, off = a % nm;
    if (region == 0 && off < m) return src(uint32_t(pa), 0, off) * m + off;
    if (region == 2 && off < mi) return src(uint32_t(pa), 0, off) * m + off;
    return scratch(pa, a);
  };
  s.expected = [src, nm, m, mi](int pa, uint32_t a) -> std::optional<Word> {
    const uint32_t region = a / nm, off = a % nm;
    if (region == 1) return off;  // FINAL: global order
    if (region == 2) return src(uint32_t(pa), off / mi, off % mi) * m + off % mi;
    return src(uint32_t(pa), off / m, off % m) * m + off % m;
  };
  return s;
}

// The last step's reorder: OUT block j, slot of s -> FINAL at its global block.
// `indexed`: the processor computes each destination address (the
// d-cycles without moved indices); the single cycle's reorder is a block copy.
void add_reorder(Step& last, const Shape& sh, const std::function<uint32_t(uint32_t, uint32_t, uint32_t)>& src,
                 uint32_t pa, bool indexed = false) {
  const uint32_t nm = sh.n * sh.m;
  for (uint32_t j = 0; j < sh.n; ++j)
    for (int i = 0; i < sh.d && uint32_t(i) < sh.m; ++i)
      last.after.push_back({slot_ranges(j * sh.m, sh.m, sh.d, i),
                            slot_ranges(nm + src(pa, j, uint32_t(i)) * sh.m, sh.m, sh.d, i),
                            {},
                            indexed});
}

}  // namespace

Schedule build_hc_single_broadcast(const Topology& topo, const AlgorithmArgs& a) {
  const Shape sh = shape(topo, a);
  const bool g = gray_order(a);
  const uint32_t n = sh.n;
  // Ring position r = G^-1(PA); after step t-1, OUT block t holds ring position (r+t)'s data.
  auto src = [g, n](uint32_t pa, uint32_t j, uint32_t) {
    const uint32_t pos = (inverse(pa) + j) % n;
    return g ? pos : code(pos);
  };
  Schedule s = broadcast_frame("hc-single", sh, false, src);
  for (uint32_t pa = 0; pa < n; ++pa) {
    const uint32_t r = inverse(pa);
    for (uint32_t t = 1; t < n; ++t) {
      Step st = exchange_step(t - 1);
      st.sends.push_back({int(code((r + n - 1) % n)), {{(t - 1) * sh.m, sh.m}}, t - 1, -1});
      st.recvs.push_back({int(code((r + 1) % n)), {{t * sh.m, sh.m}}, t - 1, {}});
      s.programs[pa].push_back(std::move(st));
    }
    add_reorder(s.programs[pa].back(), Shape{1, n, sh.m}, src, pa);
  }
  return s;
}

Schedule build_hc_dcycles_broadcast(const Topology& topo, const AlgorithmArgs& a) {
  const Shape sh = shape(topo, a);
  const bool g = gray_order(a), idx = moved_indices(a);
  const int d = sh.d;
  // Slot i of OUT block j at node PA came from PA ^ sh^i(G(j)) (binary), or
  // G^-1(PA) ^ G^-1(sh^i(G(j))) in Gray order (the paper's final layout).
  auto src = [g, d](uint32_t pa, uint32_t j, uint32_t s) {
    const uint32_t r = rotl(code(j), int(s % uint32_t(d)), d);
    return g ? (inverse(pa) ^ inverse(r)) : (pa ^ r);
  };
  Schedule s = broadcast_frame(idx ? "hc-dcycles (moved indices)" : "hc-dcycles", sh, idx, src);
  const uint32_t nm = sh.n * sh.m, mi = index_words(sh.m);
  for (uint32_t pa = 0; pa < sh.n; ++pa) {
    for (uint32_t u = 0; u + 1 < sh.n; ++u) {
      Step st = exchange_step(u, true);
      for (int i = 0; i < d && uint32_t(i) < sh.m; ++i) {  // an empty slot leaves its channel idle
        const int partner = int(pa ^ (1u << ((transition(u) + i) % d)));
        std::vector<Range> out = slot_ranges(u * sh.m, sh.m, d, i), in = slot_ranges((u + 1) * sh.m, sh.m, d, i);
        if (idx) {
          const auto oi = slot_ranges(2 * nm + u * mi, mi, d, i), ii = slot_ranges(2 * nm + (u + 1) * mi, mi, d, i);
          out.insert(out.end(), oi.begin(), oi.end());
          in.insert(in.end(), ii.begin(), ii.end());
        }
        st.sends.push_back({partner, out, u, -1});
        st.recvs.push_back({partner, in, u, {}});
      }
      s.programs[pa].push_back(std::move(st));
    }
    add_reorder(s.programs[pa].back(), sh, src, pa, !idx);
  }
  return s;
}

Schedule build_hc_single_reduce(const Topology& topo, const AlgorithmArgs& a) {
  const Shape sh = shape(topo, a);
  const bool g = gray_order(a);
  const uint32_t n = sh.n, m = sh.m;
  const OpId op = a.op;
  // Block index of ring position r: the block node G(r) must end with.
  auto blk = [g](uint32_t r) { return g ? r : code(r); };
  Schedule s;
  s.algorithm = "hc-single-reduce";
  s.nodes = int(n);
  s.steps = int(n) - 1;
  s.memory_words = n * m;
  s.programs.resize(n);
  for (uint32_t pa = 0; pa < n; ++pa) {
    const uint32_t r = inverse(pa);
    for (uint32_t t = 1; t < n; ++t) {
      Step st = exchange_step(t - 1);
      st.sends.push_back({int(code((r + 1) % n)), {{blk((r + n - t) % n) * m, m}}, t - 1, -1});
      // The partial arriving from upstream goes first: the chain's order is kept.
      st.recvs.push_back(
          {int(code((r + n - 1) % n)), {{blk((r + 2 * n - t - 1) % n) * m, m}}, t - 1, Combine{op, true}});
      s.programs[pa].push_back(std::move(st));
    }
  }
  s.initial = [m](int pa, uint32_t addr) { return reduce_input(pa, addr / m, addr % m, m); };
  // Block of ring position r is complete at r: the ordered fold over ring
  // positions r+1, r+2, ..., r+N (the order the partial sum travels).
  s.expected = [g, n, m, op, blk](int pa, uint32_t addr) -> std::optional<Word> {
    const uint32_t r = inverse(uint32_t(pa)), b = addr / m;
    if (b != blk(r)) return std::nullopt;
    std::vector<Word> xs;
    for (uint32_t k = 1; k <= n; ++k) xs.push_back(reduce_input(int(code((r + k) % n)), b, addr % m, m));
    (void)g;
    return fold(op, xs);
  };
  return s;
}

// Block sizes of the CM-200's consecutive allocation (as the paper describes it): M elements
// per node in blocks of c = ceil(M/N); the first floor(M/c) are full, one
// holds the rest, the others are empty. Without --elements every block is M'.
struct BlockLayout {
  uint32_t c = 0, total = 0;
  std::vector<uint32_t> size;
};
// In 64 bits: M + N - 1 exceeds 32 bits for M near 2^32 (it wrapped to a block size of 0 before).
// The family's check (family.cpp) keeps M x N words within host memory, so c, the sizes and every
// address j * c <= M fit in 32 bits here.
BlockLayout block_layout(uint32_t n, uint32_t mprime, uint32_t total_elements) {
  BlockLayout l;
  if (total_elements == 0) {
    l.c = mprime;
    l.total = uint32_t(uint64_t(n) * mprime);
    l.size.assign(n, mprime);
    return l;
  }
  const uint64_t m = total_elements, c = (m + n - 1) / n, full = m / c;
  l.total = total_elements;
  l.c = uint32_t(c);
  l.size.assign(n, 0);
  for (uint64_t j = 0; j < n && j < full; ++j) l.size[j] = l.c;
  if (full < n) l.size[full] = uint32_t(m - full * c);
  return l;
}

Schedule build_hc_dcycles_reduce(const Topology& topo, const AlgorithmArgs& a) {
  const Shape sh = shape(topo, a);
  const bool g = gray_order(a);
  const int d = sh.d;
  const uint32_t n = sh.n;
  const BlockLayout lay = block_layout(n, sh.m, total_elements(a));
  const uint32_t c = lay.c;
  const OpId op = a.op;
  // Block index of the XOR offset x relative to node pa (Gray: through G^-1).
  auto block_at = [g](uint32_t pa, uint32_t x) { return g ? (inverse(pa) ^ inverse(x)) : (pa ^ x); };
  Schedule s;
  s.algorithm = "hc-dcycles-reduce";
  s.nodes = int(n);
  s.steps = int(n) - 1;
  s.memory_words = lay.total;
  s.programs.resize(n);
  for (uint32_t pa = 0; pa < n; ++pa)
    for (uint32_t u = 0; u + 1 < n; ++u) {
      Step st = exchange_step(u, true);
      for (int i = 0; i < d; ++i) {
        const int partner = int(pa ^ (1u << ((transition(u) + i) % d)));
        const uint32_t js = block_at(pa, rotl(code(n - 1 - u), i, d)), jr = block_at(pa, rotl(code(n - 2 - u), i, d));
        // An exhausted subblock leaves its channel idle (both ends see the same block sizes).
        if (lay.size[js] > uint32_t(i)) st.sends.push_back({partner, slot_ranges(js * c, lay.size[js], d, i), u, -1});
        if (lay.size[jr] > uint32_t(i))
          st.recvs.push_back({partner, slot_ranges(jr * c, lay.size[jr], d, i), u, Combine{op, true}});
      }
      s.programs[pa].push_back(std::move(st));
    }
  s.initial = [c](int pa, uint32_t addr) { return reduce_input(pa, addr / c, addr % c, c); };
  // Node PA's block b (b = PA, or G^-1(PA) in Gray order), slot i: the ordered
  // fold along its chain: nodes owner ^ sh^i(G(m)) for m = N-1 down to 0.
  s.expected = [g, d, n, c, op](int pa, uint32_t addr) -> std::optional<Word> {
    const uint32_t b = addr / c, off = addr % c;
    if (b != (g ? inverse(uint32_t(pa)) : uint32_t(pa))) return std::nullopt;
    const int i = int(off % uint32_t(d));
    std::vector<Word> xs;
    for (uint32_t k = n; k-- > 0;) xs.push_back(reduce_input(int(uint32_t(pa) ^ rotl(code(k), i, d)), b, off, c));
    return fold(op, xs);
  };
  return s;
}

}  // namespace wn::alg
