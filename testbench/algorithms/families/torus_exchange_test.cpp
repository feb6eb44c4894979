// Suh, Shin & An complete exchange on 2^d x 2^d tori: our oracle rows 1-14 and
// 17 statically (the row numbers in the test names are ours: 1-12 one (torus,
// algorithm) case each, 13 the general T1.x formulas, 14 contention, 16 keep
// mode, 17 the mesh, 18 holdings), options, and pairwise-exchange. S and B are
// the paper's Table 1 where it agrees with our schedules; T1 at d >= 6 (E1)
// and T1.x at x >= 2 (E2) hold our schedules' counts (docs/papers/torus-exchange.md);
// H, the hops, is not in the paper. Every measured value is counted from
// the generated schedule (torus_exchange_trace.h decodes which blocks each
// message carries from its payload words) or from the static checker, never
// from the family's own formulas.
#include <gtest/gtest.h>

#include "testbench/algorithms/families/torus_exchange_trace.h"

namespace wn::fw {
namespace {

using namespace torus_test;

// Rows 1-12: S, per-step message size (blocks; every non-empty message of
// a step has it in ideal mode), non-empty messages per step, max hops per step.
struct Row {
  const char* topo;
  const char* algo;
  int S;
  std::vector<uint64_t> sizes;
  uint64_t B;
  uint64_t H;
  std::vector<int> messages;  // empty: not given
  std::vector<int> hops;      // empty: not given
};

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
  if (!row.messages.empty()) {
    EXPECT_EQ(count, row.messages);
  }
  const alg::ScheduleCheck c = alg::check_schedule(s, topo, 1, false);
  std::vector<int> hops;
  uint64_t H = 0;
  for (const auto& st : c.steps) {
    hops.push_back(st.max_hops);
    H += uint64_t(st.max_hops);
  }
  EXPECT_EQ(H, row.H);
  if (!row.hops.empty()) {
    EXPECT_EQ(hops, row.hops);
  }
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
  expect_row({"torus:16x16",
              "torus-t1",
              9,
              cat({128}, rep(256, 8)),
              2176,
              37,
              {256, 128, 128, 128, 128, 128, 128, 128, 128},
              {1, 1, 3, 3, 7, 7, 7, 7, 1}});
  expect_row({"torus:16x16",
              "torus-t2",
              12,
              rep(128, 12),
              1536,
              64,
              cat(std::vector<int>(4, 256), std::vector<int>(8, 128)),
              {1, 1, 3, 3, 7, 7, 7, 7, 7, 7, 7, 7}});
}

TEST(TorusExchangeOracle, Rows5To7ThirtyTwoByThirtyTwo) {
  expect_row({"torus:32x32",
              "torus-t1",
              12,
              cat(cat({512, 1024, 1024}, rep(2048, 8)), {1024}),
              19968,
              86,
              {1024, 512, 512, 256, 256, 256, 256, 256, 256, 256, 256, 512},
              {1, 1, 3, 3, 7, 7, 15, 15, 15, 15, 3, 1}});
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
  // Row 8: T1, B = 169984 (Table 1 prints 165888: E1).
  expect_row6("torus-t1", 15, cat(cat({2048, 4096, 4096, 8192, 8192}, rep(16384, 8)), {8192, 4096}), 169984, 187);
  expect_row6("torus-t1.1", 27, cat({2048}, rep(4096, 26)), 108544, 579);
}

TEST(TorusExchangeOracle, Rows10And11SixtyFour) {
  // Row 10: our T1.2, S = 18 and B = 129024 (Table 1 prints 28 and 225280: E2).
  expect_row6("torus-t1.2", 18, cat(cat({2048, 4096, 4096}, rep(8192, 14)), {4096}), 129024, 304);
  expect_row6("torus-t2", 48, rep(2048, 48), 98304, 1148);
  // Final placement at d = 6 (timing-free run of the whole exchange).
  const alg::Schedule s = build("torus:64x64", "torus-t1.2", 1);
  EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
}

// Keep-mode totals at d = 6: T1 exactly as the paper lists it, with blocks kept in place,
// still moves 168196, more than Table 1's printed 165888 (E1).
TEST(TorusExchangeOracle, Row16KeepModeSixtyFour) {
  EXPECT_EQ(range_sizes(build("torus:64x64", "torus-t1.2", 1, "keep"), 1).B, 128988u);
  EXPECT_EQ(range_sizes(build("torus:64x64", "torus-t1-literal", 1, "keep"), 1).B, 168196u);
  EXPECT_EQ(range_sizes(build("torus:64x64", "torus-t1.1", 1, "keep"), 1).B, 108540u);
}

// Row 13: T1.x in general, d = 2..5 and every x: S = 3*2^{d-2-x} + 3x (2d for
// d <= 3), B = 3*2^{3d-3} + 5(2^x - 1) 2^{2d-1} (d*2^{2d} for d <= 3), H by the
// sum of the per-step maximum hops, written out here.
uint64_t hop_sum(int d, int x) {
  if (d == 2) return 4;
  uint64_t h = 0;
  for (int p = 1; p <= x + 1; ++p) h += 2 * ((1u << p) - 1);
  for (int p = x + 2; p <= d - 1; ++p) h += (1u << (p - 1 - x)) * ((1u << p) - 1);
  h += (1u << (d - 2 - x)) * ((1u << (d - 1)) - 1);
  for (int s = 1; s <= x; ++s) h += (1u << (x + 1 - s)) - 1;
  return h;
}

TEST(TorusExchangeOracle, Row13GeneralFormulasAndHopTable) {
  EXPECT_EQ(hop_sum(3, 0), 14u);
  EXPECT_EQ(hop_sum(4, 1), 37u);
  EXPECT_EQ(hop_sum(6, 2), 304u);
  EXPECT_EQ(hop_sum(7, 4), 392u);
  for (int d = 2; d <= 5; ++d)
    for (int x = 0; x <= std::max(0, d - 3); ++x) {
      const std::string topo = fmt::format("torus:{0}x{0}", 1 << d);
      alg::AlgorithmArgs a;
      a.words = 1;
      const alg::Schedule s =
          alg::make_schedule("torus-exchange", Topology::parse(topo), a, {{"--x", std::to_string(x)}});
      const int S = d <= 3 ? 2 * d : 3 * (1 << (d - 2 - x)) + 3 * x;
      const uint64_t B = d <= 3 ? uint64_t(d) << (2 * d)
                                : 3ull * (1ull << (3 * d - 3)) + 5ull * ((1ull << x) - 1) * (1ull << (2 * d - 1));
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
      EXPECT_EQ(h, hop_sum(d, x)) << "d " << d << " x " << x;
    }
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
          if (std::string(kind) == "torus") {
            EXPECT_TRUE(c.contention_free());
          }
          if (d <= 4 || std::string(mode) == "ideal") {
            EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
          }
        }
}

// Bad input names the field and what is allowed: a family's option as it declares it (--x), a run
// parameter by its id (app/ words it as the flag).
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
  EXPECT_NE(error("torus:8x8", "torus-exchange", {{"--x", "1"}}).find("allowed: x = 0 (for d = 3 T1 = T2"),
            std::string::npos);
  EXPECT_NE(error("torus:32x32", "torus-exchange", {{"--x", "1"}, {"--variant", "T1"}}).find("--variant: T1 is x = 2"),
            std::string::npos);
  EXPECT_NE(error("torus:32x32", "torus-exchange", {{"--x", "9"}}).find("--x: '9'; allowed: auto, 0, 1"),
            std::string::npos);
  EXPECT_NE(error("torus:8x16", "torus-exchange", {}).find("topology: the torus-exchange family runs on a square"),
            std::string::npos);
  EXPECT_NE(error("torus:12x12", "torus-t2", {}).find("allowed: torus:4x4"), std::string::npos);
  EXPECT_EQ(error("cube:4", "torus-t2", {}).rfind("topology: ", 0), 0u);
  EXPECT_EQ(error("torus:16x16", "torus-t1.2", {}),
            "topology: torus-t1.2 (x = 2) needs d >= 5, torus:16x16 has d = 4; allowed: torus:32x32 or larger "
            "(torus-exchange there takes x = 0..1 (0 = T2, 1 = T1.1 = T1))");
  EXPECT_EQ(error("torus:32x32", "torus-exchange", {{"--x", "2"}, {"--variant", "T1"}}), "no error");
  EXPECT_EQ(error("mesh:16x16", "torus-exchange", {{"--variant", "T1.1"}}), "no error");
  a.words = 0;
  EXPECT_EQ(error("torus:4x4", "torus-t2", {}).rfind("bytes: ", 0), 0u);
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

}  // namespace
}  // namespace wn::fw
