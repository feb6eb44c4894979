// Suh, Shin & An complete exchange on 2^d x 2^d tori (spec seed-002): the §6
// oracle table. Every number below is the digest's, and every measured value
// is counted from the generated schedule (a symbolic run that decodes which
// blocks each message carries from its payload words), from the static checker
// or from a cycle-accurate run, never from the family's own formulas.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>
#include <map>
#include <tuple>
#include <set>
#include <sstream>

#include "algorithms/families/torus_exchange/torus_exchange.h"
#include "algorithms/reference_run.h"
#include "algorithms/schedule_checker.h"
#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"
#include "systemc/core/config_error.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::fw {
namespace {

using alg::Word;

struct Msg {
  int src = 0, dst = 0;
  std::vector<uint32_t> blocks;  // s * N + t
};
// holder[s * N + t]: the node that holds B[s -> t] after the step.
using StepHook = std::function<void(uint32_t tag, const std::vector<Msg>&, const std::vector<int>& holder)>;

// A timing-free run of the schedule that decodes every message's blocks from
// its words (0x40000000 + (s N + t) m + o) and checks that a node only sends
// blocks it holds (no stale copies).
void trace(const alg::Schedule& s, uint32_t m, const StepHook& hook) {
  const int n = s.nodes;
  const uint32_t N = uint32_t(n);
  std::vector<std::vector<Word>> mem(size_t(n), std::vector<Word>(s.memory_words));
  for (int u = 0; u < n; ++u)
    for (uint32_t a = 0; a < s.memory_words; ++a) mem[size_t(u)][a] = s.initial(u, a);
  std::vector<int> holder(size_t(N) * N);
  for (uint32_t i = 0; i < N * N; ++i) holder[i] = int(i / N);
  std::vector<size_t> next(size_t(n), 0);
  auto gather = [](const std::vector<Word>& mm, const std::vector<alg::Range>& rs) {
    std::vector<Word> w;
    for (const auto& r : rs)
      for (uint32_t k = 0; k < r.count; ++k) w.push_back(mm[r.at(k)]);
    return w;
  };
  auto scatter = [](std::vector<Word>& mm, const std::vector<alg::Range>& rs, const std::vector<Word>& w) {
    size_t i = 0;
    for (const auto& r : rs)
      for (uint32_t k = 0; k < r.count; ++k) mm[r.at(k)] = w[i++];
  };
  for (uint32_t tag = 0; tag < uint32_t(s.steps); ++tag) {
    std::vector<const alg::Step*> st(size_t(n), nullptr);
    for (int u = 0; u < n; ++u) {
      const auto& p = s.programs[size_t(u)];
      if (next[size_t(u)] < p.size() && p[next[size_t(u)]].tag == tag) st[size_t(u)] = &p[next[size_t(u)]++];
    }
    for (int u = 0; u < n; ++u)
      if (st[size_t(u)])
        for (const auto& l : st[size_t(u)]->locals) scatter(mem[size_t(u)], l.dst, gather(mem[size_t(u)], l.src));
    std::vector<Msg> msgs;
    std::vector<std::vector<Word>> payload;
    for (int u = 0; u < n; ++u)
      if (st[size_t(u)])
        for (const auto& snd : st[size_t(u)]->sends) {
          Msg msg{u, snd.dst, {}};
          const auto w = gather(mem[size_t(u)], snd.src);
          for (size_t i = 0; i < w.size(); i += m) {
            const uint32_t idx = (w[i] - 0x40000000u) / m;
            for (uint32_t o = 0; o < m; ++o) ASSERT_EQ(w[i + o], 0x40000000u + idx * m + o) << "torn block";
            ASSERT_EQ(holder[idx], u) << "tag " << tag << ": node " << u << " sends a block it does not hold";
            msg.blocks.push_back(idx);
          }
          msgs.push_back(msg);
          payload.push_back(w);
        }
    for (int v = 0; v < n; ++v)
      if (st[size_t(v)])
        for (const auto& rc : st[size_t(v)]->recvs)
          for (size_t i = 0; i < msgs.size(); ++i)
            if (msgs[i].src == rc.src && msgs[i].dst == v) {
              scatter(mem[size_t(v)], rc.dst, payload[i]);
              for (uint32_t b : msgs[i].blocks) holder[b] = v;
            }
    hook(tag, msgs, holder);
  }
}

alg::Schedule build(const std::string& topo, const std::string& algo, uint32_t words, const std::string& mode = "ideal") {
  alg::AlgorithmArgs a;
  a.words = words;
  return alg::make_schedule(algo, Topology::parse(topo), a, {{"--mode", mode}});
}

// §6 rows 1-12: S, per-step message size (blocks; every non-empty message of
// a step has it in ideal mode), non-empty messages per step, max hops per step.
struct Row {
  const char* topo;
  const char* algo;
  int S;
  std::vector<uint64_t> sizes;
  uint64_t B;
  uint64_t H;
  std::vector<int> messages;  // empty: not given by the digest
  std::vector<int> hops;      // empty: not given
};

std::vector<uint64_t> rep(uint64_t v, int k) { return std::vector<uint64_t>(size_t(k), v); }
template <class T>
std::vector<T> cat(std::vector<T> a, const std::vector<T>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void expect_row(const Row& row) {
  SCOPED_TRACE(std::string(row.topo) + " " + row.algo);
  const Topology topo = Topology::parse(row.topo);
  const alg::Schedule s = build(row.topo, row.algo, 1);
  ASSERT_EQ(alg::validate(s), "");
  EXPECT_EQ(s.steps, row.S);
  std::vector<uint64_t> lo, hi;
  std::vector<int> count;
  trace(s, 1, [&](uint32_t, const std::vector<Msg>& msgs, const std::vector<int>&) {
    uint64_t a = UINT64_MAX, b = 0;
    for (const auto& m : msgs) {
      a = std::min<uint64_t>(a, m.blocks.size());
      b = std::max<uint64_t>(b, m.blocks.size());
    }
    lo.push_back(a);
    hi.push_back(b);
    count.push_back(int(msgs.size()));
  });
  EXPECT_EQ(hi, row.sizes);
  EXPECT_EQ(lo, row.sizes) << "ideal mode: every message of a step has the same size";
  uint64_t B = 0;
  for (uint64_t v : hi) B += v;
  EXPECT_EQ(B, row.B);
  if (!row.messages.empty()) EXPECT_EQ(count, row.messages);
  const alg::ScheduleCheck c = alg::check_schedule(s, topo, 1, false);
  std::vector<int> hops;
  uint64_t H = 0;
  for (const auto& st : c.steps) {
    hops.push_back(st.max_hops);
    H += uint64_t(st.max_hops);
  }
  EXPECT_EQ(H, row.H);
  if (!row.hops.empty()) EXPECT_EQ(hops, row.hops);
  EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
  // The family's own counts (what `run` prints) agree with the counted ones.
  const alg::ExchangeCounts k = alg::exchange_counts(s, topo, 1);
  EXPECT_EQ(k.blocks, row.B);
  EXPECT_EQ(k.hops, row.H);
}

TEST(TorusExchangeOracle, Rows1To2SmallTori) {
  expect_row({"torus:4x4", "torus-exchange", 4, rep(8, 4), 32, 4, {16, 16, 16, 16}, {1, 1, 1, 1}});
  expect_row({"torus:4x4", "torus-t1", 4, rep(8, 4), 32, 4, {}, {}});
  expect_row({"torus:8x8", "torus-t2", 6, rep(32, 6), 192, 14, std::vector<int>(6, 64), {1, 1, 3, 3, 3, 3}});
}

TEST(TorusExchangeOracle, Rows3To4SixteenBySixteen) {
  expect_row({"torus:16x16", "torus-t1", 9, cat({128}, rep(256, 8)), 2176, 37,
              {256, 128, 128, 128, 128, 128, 128, 128, 128}, {1, 1, 3, 3, 7, 7, 7, 7, 1}});
  expect_row({"torus:16x16", "torus-t2", 12, rep(128, 12), 1536, 64, cat(std::vector<int>(4, 256), std::vector<int>(8, 128)),
              {1, 1, 3, 3, 7, 7, 7, 7, 7, 7, 7, 7}});
}

TEST(TorusExchangeOracle, Rows5To7ThirtyTwoByThirtyTwo) {
  expect_row({"torus:32x32", "torus-t1", 12, cat(cat({512, 1024, 1024}, rep(2048, 8)), {1024}), 19968, 86,
              {1024, 512, 512, 256, 256, 256, 256, 256, 256, 256, 256, 512}, {1, 1, 3, 3, 7, 7, 15, 15, 15, 15, 3, 1}});
  expect_row({"torus:32x32", "torus-t1.1", 15, cat({512}, rep(1024, 14)), 14848, 143,
              cat(cat({1024, 512, 512, 512, 512, 512}, std::vector<int>(8, 256)), {512}),
              cat(cat({1, 1, 3, 3, 7, 7}, std::vector<int>(8, 15)), {1})});
  expect_row({"torus:32x32", "torus-t2", 24, rep(512, 24), 12288, 276,
              cat(cat(std::vector<int>(4, 1024), std::vector<int>(4, 512)), std::vector<int>(16, 256)),
              cat(cat({1, 1, 3, 3}, std::vector<int>(4, 7)), std::vector<int>(16, 15))});
  // --x and --variant name the same schedules as the fixed-x entries.
  alg::AlgorithmArgs a;
  a.words = 1;
  const Topology t = Topology::parse("torus:32x32");
  EXPECT_EQ(alg::make_schedule("torus-exchange", t, a, {{"--x", "2"}}).steps, 12);
  EXPECT_EQ(alg::make_schedule("torus-exchange", t, a, {{"--variant", "T1"}}).steps, 12);
  EXPECT_EQ(alg::make_schedule("torus-exchange", t, a, {{"--variant", "T1.1"}, {"--x", "1"}}).steps, 15);
  EXPECT_EQ(alg::make_schedule("torus-exchange", t, a, {{"--variant", "T2"}}).steps, 24);
  EXPECT_EQ(alg::make_schedule("torus-t1.2", t, a).steps, 12);
}

// d = 6 (64x64, 12-bit addresses): rows 8-11 and the d = 6 keep totals, counted
// from the schedule's send ranges (the payload trace would need ~1 GB here).
struct Sizes {
  std::vector<uint64_t> lo, hi;
  uint64_t B = 0;
};
Sizes range_sizes(const alg::Schedule& s, uint32_t m) {
  Sizes z;
  z.lo.assign(size_t(s.steps), UINT64_MAX);
  z.hi.assign(size_t(s.steps), 0);
  for (const auto& p : s.programs)
    for (const auto& st : p)
      for (const auto& snd : st.sends) {
        const uint64_t b = alg::total_words(snd.src) / m;
        z.lo[st.tag] = std::min(z.lo[st.tag], b);
        z.hi[st.tag] = std::max(z.hi[st.tag], b);
      }
  for (auto v : z.hi) z.B += v;
  return z;
}

void expect_row6(const char* algo, int S, const std::vector<uint64_t>& sizes, uint64_t B, uint64_t H) {
  SCOPED_TRACE(algo);
  const Topology t = Topology::parse("torus:64x64");
  const alg::Schedule s = build("torus:64x64", algo, 1);
  EXPECT_EQ(s.steps, S);
  const Sizes z = range_sizes(s, 1);
  EXPECT_EQ(z.hi, sizes);
  EXPECT_EQ(z.lo, sizes);
  EXPECT_EQ(z.B, B);
  const alg::ScheduleCheck c = alg::check_schedule(s, t, 1, false);
  EXPECT_TRUE(c.contention_free());
  EXPECT_TRUE(c.port_overuse.empty());
  uint64_t h = 0;
  for (const auto& st : c.steps) {
    h += uint64_t(st.max_hops);
    EXPECT_EQ(st.max_channel_load, 1);
  }
  EXPECT_EQ(h, H);
}

TEST(TorusExchangeOracle, Rows8And9SixtyFour) {
  // Row 8: T1, B = 169984 (the paper prints 165888: erratum E1).
  expect_row6("torus-t1", 15, cat(cat({2048, 4096, 4096, 8192, 8192}, rep(16384, 8)), {8192, 4096}), 169984, 187);
  expect_row6("torus-t1.1", 27, cat({2048}, rep(4096, 26)), 108544, 579);
}

TEST(TorusExchangeOracle, Rows10And11SixtyFour) {
  // Row 10: T1.2, S = 18 and B = 129024 (the paper prints 28 and 225280: erratum E2).
  expect_row6("torus-t1.2", 18, cat(cat({2048, 4096, 4096}, rep(8192, 14)), {4096}), 129024, 304);
  expect_row6("torus-t2", 48, rep(2048, 48), 98304, 1148);
  // Final placement at d = 6 (timing-free run of the whole exchange).
  const alg::Schedule s = build("torus:64x64", "torus-t1.2", 1);
  EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
}

// §3.4 keep totals at d = 6; literal T1's 168196 exceeds even the paper's printed 165888 (E1).
TEST(TorusExchangeOracle, Row16KeepModeSixtyFour) {
  EXPECT_EQ(range_sizes(build("torus:64x64", "torus-t1.2", 1, "keep"), 1).B, 128988u);
  EXPECT_EQ(range_sizes(build("torus:64x64", "torus-t1-literal", 1, "keep"), 1).B, 168196u);
  EXPECT_EQ(range_sizes(build("torus:64x64", "torus-t1.1", 1, "keep"), 1).B, 108540u);
}

// Row 13: T1.x in general, d = 2..5 and every x: S = 3*2^{d-2-x} + 3x (2d for
// d <= 3), B = 3*2^{3d-3} + 5(2^x - 1) 2^{2d-1} (d*2^{2d} for d <= 3), H by the
// §3.3 sum, written out here from the digest.
uint64_t digest_h(int d, int x) {
  if (d == 2) return 4;
  uint64_t h = 0;
  for (int p = 1; p <= x + 1; ++p) h += 2 * ((1u << p) - 1);
  for (int p = x + 2; p <= d - 1; ++p) h += (1u << (p - 1 - x)) * ((1u << p) - 1);
  h += (1u << (d - 2 - x)) * ((1u << (d - 1)) - 1);
  for (int s = 1; s <= x; ++s) h += (1u << (x + 1 - s)) - 1;
  return h;
}

TEST(TorusExchangeOracle, Row13GeneralFormulasAndHopTable) {
  EXPECT_EQ(digest_h(3, 0), 14u);  // §3.3 table
  EXPECT_EQ(digest_h(4, 1), 37u);
  EXPECT_EQ(digest_h(6, 2), 304u);
  EXPECT_EQ(digest_h(7, 4), 392u);
  for (int d = 2; d <= 5; ++d)
    for (int x = 0; x <= std::max(0, d - 3); ++x) {
      const std::string topo = fmt::format("torus:{0}x{0}", 1 << d);
      alg::AlgorithmArgs a;
      a.words = 1;
      const alg::Schedule s = alg::make_schedule("torus-exchange", Topology::parse(topo), a, {{"--x", std::to_string(x)}});
      const int S = d <= 3 ? 2 * d : 3 * (1 << (d - 2 - x)) + 3 * x;
      const uint64_t B = d <= 3 ? uint64_t(d) << (2 * d) : 3ull * (1ull << (3 * d - 3)) + 5ull * ((1ull << x) - 1) * (1ull << (2 * d - 1));
      uint64_t b = 0;
      trace(s, 1, [&](uint32_t, const std::vector<Msg>& msgs, const std::vector<int>&) {
        size_t mx = 0;
        for (const auto& m : msgs) mx = std::max(mx, m.blocks.size());
        b += mx;
      });
      EXPECT_EQ(s.steps, S) << "d " << d << " x " << x;
      EXPECT_EQ(b, B) << "d " << d << " x " << x;
      const auto c = alg::check_schedule(s, Topology::parse(topo), 1, false);
      uint64_t h = 0;
      for (const auto& st : c.steps) h += uint64_t(st.max_hops);
      EXPECT_EQ(h, digest_h(d, x)) << "d " << d << " x " << x;
    }
}

std::vector<std::string> words(const std::string& row) {
  std::istringstream ss(row);
  std::vector<std::string> v;
  std::string w;
  while (ss >> w) v.push_back(w);
  return v;
}

// §4.3 group maps (row y = 0 on top): SG_2, SG_3 and G_3 on 8x8, G_4 on 16x16
// (rows 8..15 mirror rows 7..0); and the groups partition every window.
TEST(TorusExchangeGroups, GoldMapsOfSection43) {
  const char* sg2[] = {"1 2 2 1 1 2 2 1", "2 1 1 2 2 1 1 2", "2 1 1 2 2 1 1 2", "1 2 2 1 1 2 2 1",
                       "1 2 2 1 1 2 2 1", "2 1 1 2 2 1 1 2", "2 1 1 2 2 1 1 2", "1 2 2 1 1 2 2 1"};
  const char* sg3[] = {"1 . . 2 2 . . 1", ". 1 2 . . 2 1 .", ". 2 1 . . 1 2 .", "2 . . 1 1 . . 2",
                       "2 . . 1 1 . . 2", ". 2 1 . . 1 2 .", ". 1 2 . . 2 1 .", "1 . . 2 2 . . 1"};
  const char* g3[] = {"1 4 3 2 2 3 4 1", "3 1 2 4 4 2 1 3", "4 2 1 3 3 1 2 4", "2 3 4 1 1 4 3 2",
                      "2 3 4 1 1 4 3 2", "4 2 1 3 3 1 2 4", "3 1 2 4 4 2 1 3", "1 4 3 2 2 3 4 1"};
  const char* g4[] = {"1 4 3 6 5 8 7 2 2 7 8 5 6 3 4 1", "3 1 5 4 7 6 2 8 8 2 6 7 4 5 1 3",
                      "4 6 1 8 3 2 5 7 7 5 2 3 8 1 6 4", "5 3 7 1 2 4 8 6 6 8 4 2 1 7 3 5",
                      "6 8 4 2 1 7 3 5 5 3 7 1 2 4 8 6", "7 5 2 3 8 1 6 4 4 6 1 8 3 2 5 7",
                      "8 2 6 7 4 5 1 3 3 1 5 4 7 6 2 8", "2 7 8 5 6 3 4 1 1 4 3 6 5 8 7 2"};
  auto sg = [](int p, int x, int y) {
    return alg::torus_sg1(p, x, y) ? std::string("1") : alg::torus_sg2(p, x, y) ? std::string("2") : std::string(".");
  };
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      EXPECT_EQ(sg(2, x, y), words(sg2[y])[size_t(x)]) << x << "," << y;
      EXPECT_EQ(sg(3, x, y), words(sg3[y])[size_t(x)]) << x << "," << y;
      EXPECT_EQ(std::to_string(alg::torus_group(3, x, y)), words(g3[y])[size_t(x)]) << x << "," << y;
    }
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x)
      EXPECT_EQ(std::to_string(alg::torus_group(4, x, y)), words(g4[y < 8 ? y : 15 - y])[size_t(x)]) << x << "," << y;
  // Every G_p(j): two nodes per row and per column of each window, mirror images.
  for (int p = 2; p <= 6; ++p) {
    const int w = 1 << p;
    for (int j = 1; j <= w / 2; ++j)
      for (int line = 0; line < w; ++line) {
        std::vector<int> in_row, in_col;
        for (int k = 0; k < w; ++k) {
          if (alg::torus_group(p, k, line) == j) in_row.push_back(k);
          if (alg::torus_group(p, line, k) == j) in_col.push_back(k);
        }
        ASSERT_EQ(in_row.size(), 2u) << "p " << p << " j " << j << " row " << line;
        ASSERT_EQ(in_col.size(), 2u) << "p " << p << " j " << j << " col " << line;
        EXPECT_EQ(in_row[0] + in_row[1], w - 1);
        EXPECT_EQ(in_col[0] + in_col[1], w - 1);
      }
  }
}

std::string xy(const Topology& t, int u) {
  const auto c = t.coords(u);
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + ")";
}

// §4.1: the full send lists of phase 2 on the 4x4 torus; 8 of 16 messages wrap.
TEST(TorusExchangeOracle, Row1SendListsOfSection41) {
  const Topology t = Topology::parse("torus:4x4");
  const alg::Schedule s = build("torus:4x4", "torus-exchange", 1);
  const char* want[2] = {
      "(0,0)->(3,0) (1,0)->(1,3) (2,0)->(2,3) (3,0)->(0,0) (0,1)->(0,2) (1,1)->(2,1) (2,1)->(1,1) (3,1)->(3,2) "
      "(0,2)->(0,1) (1,2)->(2,2) (2,2)->(1,2) (3,2)->(3,1) (0,3)->(3,3) (1,3)->(1,0) (2,3)->(2,0) (3,3)->(0,3)",
      "(0,0)->(0,3) (1,0)->(2,0) (2,0)->(1,0) (3,0)->(3,3) (0,1)->(3,1) (1,1)->(1,2) (2,1)->(2,2) (3,1)->(0,1) "
      "(0,2)->(3,2) (1,2)->(1,1) (2,2)->(2,1) (3,2)->(0,2) (0,3)->(0,0) (1,3)->(2,3) (2,3)->(1,3) (3,3)->(3,0)"};
  trace(s, 1, [&](uint32_t tag, const std::vector<Msg>& msgs, const std::vector<int>&) {
    if (tag < 2) return;
    std::set<std::string> got, expect;
    int wrap = 0;
    for (const auto& m : msgs) {
      got.insert(xy(t, m.src) + "->" + xy(t, m.dst));
      const auto a = t.coords(m.src), b = t.coords(m.dst);
      wrap += t.hops(m.src, m.dst) < std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]);
      EXPECT_EQ(t.hops(m.src, m.dst), 1);
    }
    for (const auto& w : words(want[tag - 2])) expect.insert(w);
    EXPECT_EQ(got, expect) << "P2S" << tag - 1;
    EXPECT_EQ(wrap, 8);
  });
}

// §4.7: every holder change of single blocks, ideal mode.
void expect_path(const std::string& topo, const std::string& algo, int sx, int sy, int tx, int ty,
                 const std::vector<std::tuple<int, int, int>>& path) {
  const Topology t = Topology::parse(topo);
  const alg::Schedule s = build(topo, algo, 1);
  const uint32_t N = uint32_t(t.nodes()), b = uint32_t(t.node_at({sx, sy})) * N + uint32_t(t.node_at({tx, ty}));
  int last = t.node_at({sx, sy});
  std::vector<std::tuple<int, int, int>> got;
  trace(s, 1, [&](uint32_t tag, const std::vector<Msg>&, const std::vector<int>& holder) {
    if (holder[b] == last) return;
    last = holder[b];
    const auto c = t.coords(last);
    got.emplace_back(int(tag), c[0], c[1]);
  });
  EXPECT_EQ(got, path) << topo << " " << algo;
}

TEST(TorusExchangeOracle, BlockPathsOfSection47) {
  // T2 16x16: P1S1 P1S2 P2S1 P3S3 P3S4 P4S3 P4S4 = tags 0 1 2 6 7 10 11.
  expect_path("torus:16x16", "torus-t2", 5, 3, 12, 9, {{0, 4, 3}, {1, 4, 2}, {2, 4, 1}, {6, 4, 6}, {7, 3, 6}, {10, 3, 9}, {11, 12, 9}});
  // T1.1 32x32 (tags: P1 0-1, P2 2-3, P3 4-5, P4 6-9, P5 10-13, SendS1 14).
  expect_path("torus:32x32", "torus-t1.1", 1, 0, 1, 0, {{0, 0, 0}, {14, 1, 0}});
  expect_path("torus:32x32", "torus-t1.1", 0, 0, 31, 31, {{10, 31, 0}, {11, 31, 31}});
  expect_path("torus:32x32", "torus-t1.1", 5, 3, 20, 17,
              {{1, 5, 2}, {3, 5, 1}, {8, 5, 14}, {9, 10, 14}, {12, 10, 17}, {13, 21, 17}, {14, 20, 17}});
  // T1 32x32 (P1 0-1, P2 2-3, P3 4-5, P4 6-7, P5 8-9, SendS1 10, SendS2 11).
  expect_path("torus:32x32", "torus-t1", 5, 3, 20, 17,
              {{1, 5, 2}, {2, 6, 2}, {3, 6, 1}, {6, 6, 14}, {7, 9, 14}, {8, 9, 17}, {9, 22, 17}, {10, 21, 17}, {11, 20, 17}});
}

// Holdings as (sources) x (destinations) sets: `want(g)` is empty for a node that must hold nothing.
using Cell = std::pair<int, int>;
void expect_holds(const Topology& t, const std::vector<int>& holder, int g, const std::set<Cell>& src,
                  const std::set<Cell>& dst) {
  const uint32_t N = uint32_t(t.nodes());
  std::set<std::pair<Cell, Cell>> got, want;
  for (uint32_t i = 0; i < N * N; ++i)
    if (holder[i] == g) {
      const auto a = t.coords(int(i / N)), b = t.coords(int(i % N));
      got.insert({{a[0], a[1]}, {b[0], b[1]}});
    }
  for (const auto& a : src)
    for (const auto& b : dst) want.insert({a, b});
  EXPECT_EQ(got, want) << "node " << xy(t, g);
}
std::set<Cell> box(const std::vector<int>& xs, const std::vector<int>& ys) {
  std::set<Cell> c;
  for (int a : xs)
    for (int b : ys) c.insert({a, b});
  return c;
}
std::vector<int> span(int lo, int hi) {
  std::vector<int> v;
  for (int i = lo; i <= hi; ++i) v.push_back(i);
  return v;
}

// Row 18 and the data states of §4.1/§4.2: holdings after single steps.
TEST(TorusExchangeOracle, Row18HoldingsAfterPhases) {
  {
    const Topology t = Topology::parse("torus:4x4");
    trace(build("torus:4x4", "torus-exchange", 1), 1, [&](uint32_t tag, const std::vector<Msg>&, const std::vector<int>& h) {
      auto at = [&](int a, int b) { return t.node_at({a, b}); };
      if (tag == 0) {
        expect_holds(t, h, at(0, 0), box({0, 1}, {0}), box({0, 3}, span(0, 3)));
        expect_holds(t, h, at(1, 0), box({0, 1}, {0}), box({1, 2}, span(0, 3)));
      }
      if (tag == 1) {
        expect_holds(t, h, at(0, 0), box({0, 1}, {0, 1}), box({0, 3}, {0, 3}));
        expect_holds(t, h, at(1, 0), box({0, 1}, {0, 1}), box({1, 2}, {0, 3}));
        expect_holds(t, h, at(2, 1), box({2, 3}, {0, 1}), box({1, 2}, {1, 2}));
      }
      if (tag == 2) {
        expect_holds(t, h, at(0, 0), box(span(0, 3), {0, 1}), box({0}, {0, 3}));
        expect_holds(t, h, at(1, 0), box({0, 1}, span(0, 3)), box({1, 2}, {0}));
      }
    });
  }
  {
    const Topology t = Topology::parse("torus:8x8");
    trace(build("torus:8x8", "torus-exchange", 1), 1, [&](uint32_t tag, const std::vector<Msg>&, const std::vector<int>& h) {
      auto at = [&](int a, int b) { return t.node_at({a, b}); };
      if (tag == 0) expect_holds(t, h, at(0, 0), box({0, 1}, {0}), box({0, 3, 4, 7}, span(0, 7)));
      if (tag == 1) expect_holds(t, h, at(2, 1), box({2, 3}, {0, 1}), box({1, 2, 5, 6}, {1, 2, 5, 6}));
      if (tag == 2) expect_holds(t, h, at(1, 0), box({0, 1}, span(0, 3)), box({1, 2, 5, 6}, {0, 7}));
      if (tag == 3) expect_holds(t, h, at(5, 6), box(span(4, 7), span(4, 7)), box({2, 5}, {1, 6}));
      if (tag == 4) expect_holds(t, h, at(0, 0), box(span(0, 7), span(0, 3)), box({0}, {0, 7}));
    });
  }
  {  // 16x16 T1 after P2S2: (0,0) holds its 4x4 sources x {0,1,6,7,8,9,14,15} x {0,7,8,15}; (1,0) nothing.
    const Topology t = Topology::parse("torus:16x16");
    trace(build("torus:16x16", "torus-t1", 1), 1, [&](uint32_t tag, const std::vector<Msg>&, const std::vector<int>& h) {
      if (tag != 3) return;
      expect_holds(t, h, t.node_at({0, 0}), box(span(0, 3), span(0, 3)), box({0, 1, 6, 7, 8, 9, 14, 15}, {0, 7, 8, 15}));
      expect_holds(t, h, t.node_at({1, 0}), {}, {});
    });
  }
}

// §2.7 invariants for every T1.x, d = 3..5, after every phase and send step,
// written from the digest: (holders, sources = aligned 2^p block, destination rule).
TEST(TorusExchangeOracle, Row18InvariantsEveryPhase) {
  auto sg1 = [](int p, int a, int b) {
    const int m = (1 << p) - 1;
    return p <= 1 || ((b - a) & m) == 0 || ((a + b) & m) == m;
  };
  auto same_bits = [](int v, int lo, int hi) {  // bits lo..hi of v all equal
    const int f = (v >> lo) & ((1 << (hi - lo + 1)) - 1);
    return f == 0 || f == (1 << (hi - lo + 1)) - 1;
  };
  for (int d = 3; d <= 5; ++d)
    for (int x = 0; x <= d - 3; ++x) {
      const std::string name = fmt::format("torus:{0}x{0}", 1 << d);
      const Topology t = Topology::parse(name);
      const uint32_t N = uint32_t(t.nodes());
      alg::AlgorithmArgs a;
      a.words = 1;
      const alg::Schedule s = alg::make_schedule("torus-exchange", t, a, {{"--x", std::to_string(x)}});
      // End tag of every phase p (1..d) and send step, from the digest's step counts.
      std::map<uint32_t, int> phase_end;  // tag -> phase (d + s for send step s)
      int tag = -1;
      for (int p = 1; p <= d; ++p) {
        tag += p <= x + 1 ? 2 : p < d ? 1 << (p - 1 - x) : 1 << (d - 2 - x);
        phase_end[uint32_t(tag)] = p;
      }
      for (int s2 = 1; s2 <= x; ++s2) phase_end[uint32_t(++tag)] = d + s2;
      ASSERT_EQ(tag + 1, s.steps);
      trace(s, 1, [&](uint32_t tg, const std::vector<Msg>&, const std::vector<int>& h) {
        auto it = phase_end.find(tg);
        if (it == phase_end.end()) return;
        const int p = it->second;
        std::vector<uint32_t> count(N, 0);
        int bad = 0;
        for (uint32_t i = 0; i < N * N; ++i) {
          const auto g = t.coords(h[i]), sc = t.coords(int(i / N)), tc = t.coords(int(i % N));
          ++count[uint32_t(h[i])];
          bool ok;
          if (p <= x) {  // concentration
            const int m = ~((1 << p) - 1);
            ok = sg1(p + 1, g[0], g[1]) && (sc[0] & m) == (g[0] & m) && (sc[1] & m) == (g[1] & m) &&
                 same_bits(tc[1] ^ g[1], 0, p);
          } else if (p < d) {  // heavy exchange
            const int m = ~((1 << p) - 1);
            ok = sg1(x + 1, g[0], g[1]) && (sc[0] & m) == (g[0] & m) && (sc[1] & m) == (g[1] & m) &&
                 same_bits(tc[0] ^ g[0], x, p) && same_bits(tc[1] ^ g[1], 0, p);
          } else {  // after phase d (q = 0) and after send step q: xblock_{x-q}(g) x {g.y}
            const int q = p - d;
            ok = sg1(x + 1 - q, g[0], g[1]) && (tc[0] >> (x - q)) == (g[0] >> (x - q)) && tc[1] == g[1];
          }
          bad += !ok;
        }
        EXPECT_EQ(bad, 0) << name << " x " << x << " after phase/send " << p;
        const uint32_t heavy = p <= x ? N << p : p <= d ? N << x : N << (x - (p - d));
        for (uint32_t u = 0; u < N; ++u) EXPECT_TRUE(count[u] == 0 || count[u] == heavy) << name << " node " << u;
      });
    }
}

// Row 16: keep mode (§2.8, §3.4): same S, the digest's totals and per-step maxima, complete exchange.
TEST(TorusExchangeOracle, Row16KeepMode) {
  struct K {
    const char* topo;
    const char* algo;
    uint64_t B;
  };
  const K rows[] = {{"torus:4x4", "torus-t2", 32},     {"torus:8x8", "torus-t2", 192},
                    {"torus:16x16", "torus-t2", 1536}, {"torus:16x16", "torus-t1.1", 2172},
                    {"torus:32x32", "torus-t2", 12288}, {"torus:32x32", "torus-t1.1", 14844},
                    {"torus:32x32", "torus-t1.2", 19932}};
  for (const K& k : rows) {
    const alg::Schedule ideal = build(k.topo, k.algo, 1), keep = build(k.topo, k.algo, 1, "keep");
    EXPECT_EQ(keep.steps, ideal.steps) << k.topo << " " << k.algo;
    std::vector<uint64_t> mx;
    trace(keep, 1, [&](uint32_t, const std::vector<Msg>& msgs, const std::vector<int>&) {
      size_t v = 0;
      for (const auto& m : msgs) v = std::max(v, m.blocks.size());
      mx.push_back(v);
    });
    uint64_t B = 0;
    for (auto v : mx) B += v;
    EXPECT_EQ(B, k.B) << k.topo << " " << k.algo;
    EXPECT_EQ(alg::check_memory(keep, alg::reference_run(keep)), "") << k.topo << " " << k.algo;
    if (std::string(k.algo) == "torus-t1.2")
      EXPECT_EQ(mx, (std::vector<uint64_t>{511, 1023, 1016, 2040, 2048, 2048, 2048, 2048, 2048, 2048, 2032, 1022}));
    if (std::string(k.algo) == "torus-t1.1" && std::string(k.topo) == "torus:32x32") {
      EXPECT_EQ(mx[0], 511u);
      EXPECT_EQ(mx[1], 1023u);
      EXPECT_EQ(mx.back(), 1022u);
    }
  }
}

// Row 16, literal T1 (SG_p(2) exchanging in phases 2..d-2, §7 E4): identical to
// T1 in ideal mode; in keep mode the digest's §4.5 column and §3.4 totals.
TEST(TorusExchangeOracle, Row16KeepModeLiteralT1) {
  auto maxima = [](const alg::Schedule& s) {
    std::vector<uint64_t> mx;
    trace(s, 1, [&](uint32_t, const std::vector<Msg>& msgs, const std::vector<int>&) {
      size_t v = 0;
      for (const auto& m : msgs) v = std::max(v, m.blocks.size());
      mx.push_back(v);
    });
    return mx;
  };
  const alg::Schedule l4 = build("torus:16x16", "torus-t1-literal", 1, "keep");
  EXPECT_EQ(maxima(l4), (std::vector<uint64_t>{124, 252, 252, 252, 256, 256, 256, 256, 248}));  // sum 2152
  EXPECT_EQ(alg::check_memory(l4, alg::reference_run(l4)), "");
  const alg::Schedule l5 = build("torus:32x32", "torus-t1-literal", 1, "keep");
  const auto m5 = maxima(l5);
  EXPECT_EQ(m5, (std::vector<uint64_t>{508, 1020, 990, 2010, 2016, 2016, 2048, 2048, 2048, 2048, 1980, 1016}));
  uint64_t b5 = 0;
  for (auto v : m5) b5 += v;
  EXPECT_EQ(b5, 19748u);
  EXPECT_EQ(alg::check_memory(l5, alg::reference_run(l5)), "");
  const alg::ScheduleCheck c = alg::check_schedule(l5, Topology::parse("torus:32x32"), 1, false);
  EXPECT_TRUE(c.ok());
  // Ideal mode: the extras are empty, so the very same messages as torus-t1.
  EXPECT_EQ(maxima(build("torus:32x32", "torus-t1-literal", 1)), maxima(build("torus:32x32", "torus-t1", 1)));
  EXPECT_EQ(alg::stats(build("torus:32x32", "torus-t1-literal", 1)).messages,
            alg::stats(build("torus:32x32", "torus-t1", 1)).messages);
}

// Rows 14 and 17 statically, both modes, d = 2..5: at most one send and one
// receive per node and step, directed-link load 1 on the torus; on the mesh
// load 2 in exactly the phase-d steps (d >= 3), none elsewhere. Final placement too.
TEST(TorusExchangeContention, Rows14And17TorusAndMesh) {
  for (int d = 2; d <= 5; ++d)
    for (int x = 0; x <= std::max(0, d - 3); ++x)
      for (const char* mode : {"ideal", "keep"})
        for (const char* kind : {"torus", "mesh"}) {
          const std::string name = fmt::format("{0}:{1}x{1}", kind, 1 << d);
          SCOPED_TRACE(name + " x " + std::to_string(x) + " " + mode);
          const Topology t = Topology::parse(name);
          alg::AlgorithmArgs a;
          a.words = 2;
          const alg::Schedule s =
              alg::make_schedule("torus-exchange", t, a, {{"--x", std::to_string(x)}, {"--mode", mode}});
          // IN + OUT + SCRATCH within what check() reserves: a heavy node's 2^x N blocks, twice.
          EXPECT_LE(uint64_t(s.memory_words), (2 + (2ull << x)) * uint64_t(t.nodes()) * 2);
          const alg::ScheduleStats st = alg::stats(s);
          EXPECT_LE(st.max_sends_per_step, 1);
          EXPECT_LE(st.max_recvs_per_step, 1);
          const alg::ScheduleCheck c = alg::check_schedule(s, t, 1, false);
          EXPECT_TRUE(c.port_overuse.empty());
          EXPECT_TRUE(c.delivery.empty());
          // Phase d: the 2^{d-2-x} steps before the x send steps (d = 2: the last two).
          const int phase_d = d == 2 ? 2 : 1 << (d - 2 - x);
          for (const auto& sc : c.steps) {
            const bool in_d = int(sc.step) >= s.steps - x - phase_d && int(sc.step) < s.steps - x;
            const int load = std::string(kind) == "mesh" && in_d && d >= 3 ? 2 : 1;
            EXPECT_EQ(sc.max_channel_load, load) << "step " << sc.step;
          }
          if (std::string(kind) == "torus") EXPECT_TRUE(c.contention_free());
          if (d <= 4 || std::string(mode) == "ideal") EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
        }
}

// Bad input names the field and what is allowed.
TEST(TorusExchangeOptions, ErrorsNameTheFieldAndTheAllowedValues) {
  alg::AlgorithmArgs a;
  a.words = 1;
  auto error = [&](const std::string& topo, const std::string& algo, const std::map<std::string, std::string>& o) {
    try {
      alg::make_schedule(algo, Topology::parse(topo), a, o);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("torus:16x16", "torus-exchange", {{"--x", "2"}}),
            "--x: x = 2 needs d >= 5, torus:16x16 has d = 4; allowed: x = 0..1 (0 = T2, 1 = T1.1 = T1)");
  EXPECT_NE(error("torus:8x8", "torus-exchange", {{"--x", "1"}}).find("allowed: x = 0 (for d = 3 T1 = T2"), std::string::npos);
  EXPECT_NE(error("torus:32x32", "torus-exchange", {{"--x", "1"}, {"--variant", "T1"}}).find("--variant: T1 is x = 2"),
            std::string::npos);
  EXPECT_NE(error("torus:32x32", "torus-exchange", {{"--x", "9"}}).find("--x: '9'; allowed: auto, 0, 1"), std::string::npos);
  EXPECT_NE(error("torus:8x16", "torus-exchange", {}).find("--topology: the torus-exchange family runs on a square"),
            std::string::npos);
  EXPECT_NE(error("torus:12x12", "torus-t2", {}).find("allowed: torus:4x4"), std::string::npos);
  EXPECT_NE(error("cube:4", "torus-t2", {}).find("--topology"), std::string::npos);
  EXPECT_EQ(error("torus:16x16", "torus-t1.2", {}),
            "--topology: torus-t1.2 (x = 2) needs d >= 5, torus:16x16 has d = 4; allowed: torus:32x32 or larger "
            "(torus-exchange there takes x = 0..1 (0 = T2, 1 = T1.1 = T1))");
  EXPECT_EQ(error("torus:32x32", "torus-exchange", {{"--x", "2"}, {"--variant", "T1"}}), "no error");
  EXPECT_EQ(error("mesh:16x16", "torus-exchange", {{"--variant", "T1.1"}}), "no error");
  a.words = 0;
  EXPECT_NE(error("torus:4x4", "torus-t2", {}).find("--bytes"), std::string::npos);
}

// pairwise-exchange (baselines): N-1 perfect matchings i <-> i XOR z, any topology.
TEST(PairwiseExchange, XorMatchingsOnAnyTopology) {
  for (const char* topo : {"torus:4x4", "mesh:8x8", "cube:5", "torus:4x8"}) {
    const Topology t = Topology::parse(topo);
    alg::AlgorithmArgs a;
    a.words = 3;
    const alg::Schedule s = alg::make_schedule("pairwise-exchange", t, a);
    EXPECT_EQ(s.steps, t.nodes() - 1);
    EXPECT_EQ(alg::stats(s).max_sends_per_step, 1);
    EXPECT_EQ(alg::stats(s).max_recvs_per_step, 1);
    for (int u = 0; u < t.nodes(); ++u)
      for (const auto& st : s.programs[size_t(u)]) EXPECT_EQ(st.sends[0].dst, u ^ int(st.tag + 1));
    EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "") << topo;
  }
  alg::AlgorithmArgs a;
  a.words = 1;
  a.group = {1, 3, 5, 7, 9, 11, 13, 15};
  const alg::Schedule g = alg::make_schedule("pairwise-exchange", Topology::parse("mesh:4x4"), a);
  EXPECT_EQ(alg::check_memory(g, alg::reference_run(g)), "");
  // N not a power of two: P - 1 steps (P = 16 for 12 nodes), ranks without a partner idle.
  const alg::Schedule odd = alg::make_schedule("pairwise-exchange", Topology::parse("mesh:3x4"), alg::AlgorithmArgs{});
  EXPECT_EQ(odd.steps, 15);
  EXPECT_EQ(alg::check_memory(odd, alg::reference_run(odd)), "");
}

// ---- cycle-accurate runs (one SystemC simulation per process: run_isolated) ----

constexpr uint32_t kAlpha = 100;

ScheduleRunOptions torus_run(const std::string& topo, const std::string& algo, uint32_t bytes, bool barrier,
                             Backend backend = Backend::Model, const std::string& ports = "one") {
  ScheduleRunOptions o;
  o.topology = topo;
  o.ports = ports;
  o.net.backend = backend;
  o.run.profile = find_profile("ideal");
  o.run.profile.alpha = kAlpha;
  o.run.barrier = barrier;
  o.algorithm = algo;
  o.bytes = bytes;
  return o;
}

nlohmann::json isolated(const ScheduleRunOptions& o) {
  return run_isolated([o] { return run_schedule(o).to_json(false); });
}

// The digest's cycle-level oracle with our router: a step costs alpha + 3(h+1)
// + F - 1 (+ gamma = 0), F = L m + 1 flits, so T = S (alpha + c0) + B m + H t_hop
// with c0 = 3, t_hop = 3; S, B, H are the digest's table values.
uint64_t oracle_cycles(uint64_t S, uint64_t B, uint64_t H, uint32_t bytes) { return S * (kAlpha + 3) + B * (bytes / 4) + H * 3; }

void expect_barrier_run(const nlohmann::json& j, uint64_t S, uint64_t B, uint64_t H, uint32_t bytes) {
  ASSERT_TRUE(j["ok"].get<bool>()) << j.dump().substr(0, 400);
  EXPECT_EQ(j["cycles"].get<uint64_t>(), oracle_cycles(S, B, H, bytes));
  EXPECT_EQ(j["contention"]["stepwise"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["contention"]["depth"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["predicted"]["steps"].get<int>(), int(S));
  EXPECT_EQ(j["steps"].size(), size_t(S));
}

// Rows 14 + cycle oracle: barrier steps on the model, d = 2, 3, 4, both modes
// where they differ; data checked word for word, zero stepwise contention,
// cycles exactly the digest's formula, and the paper line S t_s + B m t_c.
TEST(TorusExchangeCycles, BarrierRunsMatchTheCycleOracle) {
  expect_barrier_run(isolated(torus_run("torus:4x4", "torus-exchange", 16, true)), 4, 32, 4, 16);
  expect_barrier_run(isolated(torus_run("torus:8x8", "torus-exchange", 16, true)), 6, 192, 14, 16);
  expect_barrier_run(isolated(torus_run("torus:16x16", "torus-t2", 16, true)), 12, 1536, 64, 16);
  expect_barrier_run(isolated(torus_run("torus:16x16", "torus-t1", 16, true)), 9, 2176, 37, 16);
  const auto keep = isolated([] {
    auto o = torus_run("torus:16x16", "torus-t1.1", 8, true);
    o.family_options["--mode"] = "keep";
    return o;
  }());
  ASSERT_TRUE(keep["ok"].get<bool>());
  EXPECT_EQ(keep["contention"]["stepwise"].get<uint64_t>(), 0u);
  EXPECT_LT(keep["cycles"].get<uint64_t>(), oracle_cycles(9, 2176, 37, 8));  // 2172 blocks
  const auto r = run_schedule(torus_run("torus:8x8", "torus-t1", 16, true));
  EXPECT_EQ(r.predicted.cycles, double(oracle_cycles(6, 192, 14, 16)));
  EXPECT_EQ(r.predicted.thesis_cycles, 6.0 * kAlpha + 192 * 4);
}

// Lock-step (RTL and model every cycle) for d = 2 and 3, barrier steps.
TEST(TorusExchangeCycles, LockstepSmallTori) {
  expect_barrier_run(isolated(torus_run("torus:4x4", "torus-t2", 8, true, Backend::Lockstep)), 4, 32, 4, 8);
  expect_barrier_run(isolated(torus_run("torus:8x8", "torus-t1", 8, true, Backend::Lockstep)), 6, 192, 14, 8);
}

// §0 item 9: one-port and all-port NIs give identical cycles with barrier steps.
TEST(TorusExchangeCycles, OnePortEqualsAllPort) {
  for (const char* topo : {"torus:8x8", "torus:16x16"}) {
    const auto one = isolated(torus_run(topo, "torus-t1", 16, true));
    const auto all = isolated(torus_run(topo, "torus-t1", 16, true, Backend::Model, "all"));
    ASSERT_TRUE(one["ok"].get<bool>() && all["ok"].get<bool>());
    EXPECT_EQ(one["cycles"], all["cycles"]) << topo;
  }
}

// Row 17 measured: on mesh:8x8 only the two phase-3 steps see stepwise contention.
TEST(TorusExchangeCycles, MeshContendsOnlyInPhaseD) {
  const auto r = run_schedule(torus_run("mesh:8x8", "torus-t2", 16, true));
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  ASSERT_EQ(r.steps.size(), 6u);
  for (const auto& st : r.steps) {
    if (st.tag >= 4) EXPECT_GT(st.delay[0], 0u) << "step " << st.tag;
    else EXPECT_EQ(st.delay[0], 0u) << "step " << st.tag;
  }
}

// --sync free on torus:16x16 T2, 16-byte blocks, alpha = 100: idle nodes run
// ahead into the next step and the steps overlap (depth contention); pinned.
// The barrier run of the same case is 7572 cycles with no contention.
TEST(TorusExchangeCycles, FreeRunningT2HasDepthContention) {
  const auto r = run_schedule(torus_run("torus:16x16", "torus-t2", 16, false));
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_EQ(r.run.cycles, 8400u);
  EXPECT_EQ(r.delay[0], 0u);
  EXPECT_EQ(r.delay[1], 391152u);
}

}  // namespace
}  // namespace wn::fw
