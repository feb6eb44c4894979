// Suh, Shin & An complete exchange: the data, counted from the schedule's
// payload — maps of the paper's diagonal groups, the phase-2 send lists of
// 4x4, block paths, our oracle row 18 (holdings after every phase: the
// invariants of our ideal-mode block rules; the paper gives only sizes) and
// row 16 (keep mode, not in the paper). Row numbers: torus_exchange_test.cpp.
#include <gtest/gtest.h>

#include "testbench/algorithms/families/torus_exchange_trace.h"

namespace wn::fw {
namespace {

using namespace torus_test;

// Maps of the paper's diagonal groups (row y = 0 on top): SG_2, SG_3 and G_3 on 8x8, G_4 on
// 16x16 (rows 8..15 mirror rows 7..0); and the groups partition every window.
TEST(TorusExchangeGroups, GoldMapsOfTheDiagonalGroups) {
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

// The full send lists of phase 2 on the 4x4 torus; 8 of 16 messages wrap (the paper: in
// phase d half of the pairs use the wrap-around channels).
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

// Every holder change of single blocks, ideal mode (our block rules).
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
  expect_path("torus:16x16", "torus-t2", 5, 3, 12, 9,
              {{0, 4, 3}, {1, 4, 2}, {2, 4, 1}, {6, 4, 6}, {7, 3, 6}, {10, 3, 9}, {11, 12, 9}});
  // T1.1 32x32 (tags: P1 0-1, P2 2-3, P3 4-5, P4 6-9, P5 10-13, SendS1 14).
  expect_path("torus:32x32", "torus-t1.1", 1, 0, 1, 0, {{0, 0, 0}, {14, 1, 0}});
  expect_path("torus:32x32", "torus-t1.1", 0, 0, 31, 31, {{10, 31, 0}, {11, 31, 31}});
  expect_path("torus:32x32", "torus-t1.1", 5, 3, 20, 17,
              {{1, 5, 2}, {3, 5, 1}, {8, 5, 14}, {9, 10, 14}, {12, 10, 17}, {13, 21, 17}, {14, 20, 17}});
  // T1 32x32 (P1 0-1, P2 2-3, P3 4-5, P4 6-7, P5 8-9, SendS1 10, SendS2 11).
  expect_path(
      "torus:32x32", "torus-t1", 5, 3, 20, 17,
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

// Row 18 on 4x4 and 8x8: holdings after single steps (ideal mode).
TEST(TorusExchangeOracle, Row18HoldingsAfterPhases) {
  {
    const Topology t = Topology::parse("torus:4x4");
    trace(build("torus:4x4", "torus-exchange", 1), 1,
          [&](uint32_t tag, const std::vector<Msg>&, const std::vector<int>& h) {
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
    trace(build("torus:8x8", "torus-exchange", 1), 1,
          [&](uint32_t tag, const std::vector<Msg>&, const std::vector<int>& h) {
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
    trace(build("torus:16x16", "torus-t1", 1), 1,
          [&](uint32_t tag, const std::vector<Msg>&, const std::vector<int>& h) {
            if (tag != 3) return;
            expect_holds(t, h, t.node_at({0, 0}), box(span(0, 3), span(0, 3)),
                         box({0, 1, 6, 7, 8, 9, 14, 15}, {0, 7, 8, 15}));
            expect_holds(t, h, t.node_at({1, 0}), {}, {});
          });
  }
}

// The invariants of our ideal-mode block rules for every T1.x, d = 3..5, after every phase and
// send step, written out here: (holders, sources = aligned 2^p block, destination rule).
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
      // End tag of every phase p (1..d) and send step, from the step counts (S).
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

// Row 16: keep mode (not in the paper): same S, smaller totals and per-step maxima, complete exchange.
TEST(TorusExchangeOracle, Row16KeepMode) {
  struct K {
    const char* topo;
    const char* algo;
    uint64_t B;
  };
  const K rows[] = {{"torus:4x4", "torus-t2", 32},       {"torus:8x8", "torus-t2", 192},
                    {"torus:16x16", "torus-t2", 1536},   {"torus:16x16", "torus-t1.1", 2172},
                    {"torus:32x32", "torus-t2", 12288},  {"torus:32x32", "torus-t1.1", 14844},
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
    if (std::string(k.algo) == "torus-t1.2") {
      EXPECT_EQ(mx, (std::vector<uint64_t>{511, 1023, 1016, 2040, 2048, 2048, 2048, 2048, 2048, 2048, 2032, 1022}));
    }
    if (std::string(k.algo) == "torus-t1.1" && std::string(k.topo) == "torus:32x32") {
      EXPECT_EQ(mx[0], 511u);
      EXPECT_EQ(mx[1], 1023u);
      EXPECT_EQ(mx.back(), 1022u);
    }
  }
}

// Row 16, literal T1 (SG_p(2) exchanging in phases 2..d-2 as the paper lists it, although
// their data left in phase p-1): identical to T1 in ideal mode; in keep mode its own totals.
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

}  // namespace
}  // namespace wn::fw
