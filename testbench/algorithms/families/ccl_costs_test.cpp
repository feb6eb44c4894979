// CCL (the CCL paper): every algorithm's C1/C2/C3 against the exact formulas
// (ccl.h's costs(): the paper's where exact, ours elsewhere) for random n, the
// default chooser against the linear model (§IV.A), and deadlock freedom with
// synchronous sends (§III).
#include <random>

#include "algorithms/ccl/ccl.h"
#include "testbench/algorithms/families/ccl_helpers.h"

namespace wn::fw {
namespace {

using namespace ccl_test;

// costs() for every op and algorithm: C1 (tokens included in barrier mode), C2
// and C3 of the run equal the formulas, n random in 2..70 (2^d where the
// algorithm needs it), random root, both modes; the data check holds.
TEST(CclCosts, EveryAlgorithmMatchesTheCostTableRandomN) {
  std::mt19937 rng(1995);
  for (size_t o = 0; o < alg::ccl::op_names().size(); ++o)
    for (const std::string& a : alg::ccl::algorithms(alg::ccl::Op(o)))
      for (int trial = 0; trial < 3; ++trial) {
        const bool p2 = a == "butterfly" || a == "hybrid" || a == "recursive-exchange" || a == "nesbt";
        const int n = p2                         ? 1 << (1 + rng() % 6)
                      : a == "neighbor-exchange" ? 2 + 2 * int(rng() % 35)
                                                 : 2 + int(rng() % 69);
        Opts x =
            op(alg::ccl::op_names()[o].c_str(), n, int(rng() % uint32_t(n)), a.c_str(),
               // the circulant combine both ways: summed, and ordered (its two-piece form)
               (((a == "circulant" && trial != 1) || a == "ring" || a == "ring-2d" || a == "dbtree") &&
                o == size_t(alg::ccl::Op::Combine)) ||
                       a == "nesbt" || ((a == "ring" || a == "pairwise") && o == size_t(alg::ccl::Op::ReduceScatter))
                   ? "sum"
                   : "affine");
        // pieces of 2 words (1-word messages are tokens); the ring's n chunks of 2 and 3 words
        x.words = a == "scatter-concat" || a == "scatter-ring" ? 2 * uint32_t(n)
                  : a == "chain" || a == "circ-graph"          ? 2 * (1 + uint32_t(rng() % 20))
                  : a == "dbtree"                              ? 4 * (1 + uint32_t(rng() % 10))  // halves of even words
                  : a == "ring" || a == "ring-2d"              ? 2 * uint32_t(n) + 3
                  : a == "rabenseifner" ? 4u << (31 - __builtin_clz(unsigned(n)))  // halves of 2+ words
                                        : 2;
        x.barrier = rng() % 2;
        if (a == "hybrid") x.extra["--kappa"] = std::to_string(rng() % uint32_t(__builtin_ctz(unsigned(n)) + 1));
        if (a == "nesbt") x.extra["--packet"] = rng() % 2 && !x.barrier ? "4" : "0";  // 1-word packets look like tokens
        if (a == "chain" || a == "circ-graph" || a == "dbtree")                       // segments of 2+ words, or whole
          x.extra["--packet"] = std::to_string(8 * (rng() % 6));
        if (a == "bruck") x.extra["--radix"] = std::to_string(2 + rng() % uint32_t(n - 1));
        if (a == "linear") x.extra["--window"] = std::to_string(1 + rng() % uint32_t(n - 1));
        if (a == "send-receive") x.extra["--shift"] = std::to_string(1 + rng() % uint32_t(n - 1));
        alg::ccl::Call c;
        c.op = alg::ccl::Op(o);
        c.alg = a;
        c.n = n;
        c.root = x.source;
        c.b = x.words;
        c.op_id = alg::find_combine_op(x.oper);
        c.barrier = x.barrier;
        if (x.extra.count("--kappa")) c.kappa = std::stoi(x.extra["--kappa"]);
        if (x.extra.count("--radix")) c.radix = std::stoi(x.extra["--radix"]);
        if (x.extra.count("--window")) c.window = std::stoi(x.extra["--window"]);
        if (x.extra.count("--packet")) c.packet = uint32_t(std::stoi(x.extra["--packet"]) / 4);
        if (x.extra.count("--shift")) c.shift = std::stoi(x.extra["--shift"]);
        const alg::ccl::Costs want = alg::ccl::costs(c);
        SCOPED_TRACE(::testing::Message() << x.op << " " << a << " n=" << n << " root=" << x.source
                                          << (x.barrier ? " barrier " : " nonbarrier ") << want.formula);
        const Steps s = run_steps(x);
        ASSERT_TRUE(s.ok) << s.error;
        EXPECT_EQ(s.c1, want.c1);
        EXPECT_EQ(s.c2, want.c2);
        EXPECT_EQ(s.c3, want.c3);
      }
}

// --ccl-alg auto with the sp1 profile (t_s = 27 + 27 + 6 = 60 cycles, t_c = 1 cycle per word) on 64
// ranks: binomial up to 24 words (96 B), nesbt from 26 words; packets of 16 words at 128 B and of 114
// words at 4096 B; combine: butterfly up to 90 words, then Rabenseifner; scatter: binomial. For comparison, our
// evaluation of the paper's model (§IV.A) for our M + d - 1 step nesbt with the SP-1 values of Bruck et al. §3.5 (t_s =
// 29 us, t_c = 0.12 us/B; the CCL paper gives no values) in bytes: nesbt from 98 B, b = 64 B (M = 2) at 128 B, b = 456
// B (M = 9) at 4096 B.
TEST(CclCosts, DefaultChooserFollowsTheLinearModel) {
  auto pick = [](alg::ccl::Op op, uint32_t words) {
    alg::ccl::Call c;
    c.op = op;
    c.n = 64;
    c.b = words;
    c.barrier = false;
    return alg::ccl::choose_by_model(c, 60, 1).call;
  };
  using alg::ccl::Op;
  EXPECT_EQ(pick(Op::Bcast, 24).alg, "binomial");
  EXPECT_EQ(pick(Op::Bcast, 26).alg, "nesbt");
  EXPECT_EQ(pick(Op::Bcast, 32).packet, 16u);
  EXPECT_EQ(pick(Op::Bcast, 1024).packet, 114u);
  // Rabenseifner: 12 t_s + 2 sum_(j=1..6) ceil(m/2^j) t_c against butterfly's 6 t_s + 6 m t_c: from
  // 91 words; the ring has the same C2 on 2^d ranks and 126 steps, so the model never picks it.
  EXPECT_EQ(pick(Op::Combine, 90).alg, "butterfly");
  EXPECT_EQ(pick(Op::Combine, 91).alg, "rabenseifner");
  EXPECT_EQ(pick(Op::Combine, 16384).alg, "rabenseifner");
  // A non-commutative operator on 15 ranks: recursive doubling's floor(log2 n) + 2 = 5 steps of m
  // words, not reduce-bcast's 2 ceil(log2 n) = 8, nor the ordered circulant's 4 steps, whose wrapped
  // windows carry 2m (the ring needs a commutative operator).
  alg::ccl::Call nc{Op::Combine, "", 15, 0, 64};
  nc.op_id = alg::find_combine_op("affine");
  nc.barrier = false;
  const alg::ccl::Call rd = alg::ccl::choose_by_model(nc, 60, 1).call;
  EXPECT_EQ(rd.alg, "recursive-doubling");
  EXPECT_EQ(alg::ccl::costs(rd).c1, 5);
  EXPECT_EQ(pick(Op::Scatter, 16).alg, "binomial");
  EXPECT_EQ(pick(Op::Prefix, 16).alg, "circulant");
  const auto why = alg::ccl::choose_by_model(alg::ccl::Call{Op::Bcast, "", 64, 0, 32}, 60, 1).why;
  EXPECT_NE(why.find("nesbt (packets of 16 words)"), std::string::npos) << why;
}

// Deterministic code as the paper's §III defines it: every schedule is deadlock-free with synchronous sends (a
// send waits for the receiver's posted receive): each round is one combined send-receive. Every algorithm of every op,
// both modes, n = 9 / 8.
TEST(CclCosts, EveryAlgorithmCompletesWithSynchronousSends) {
  for (size_t o = 0; o < alg::ccl::op_names().size(); ++o)
    for (const std::string& a : alg::ccl::algorithms(alg::ccl::Op(o)))
      for (bool barrier : {false, true}) {
        const bool p2 = a == "butterfly" || a == "hybrid" || a == "recursive-exchange" || a == "nesbt";
        Opts x =
            op(alg::ccl::op_names()[o].c_str(), p2 || a == "neighbor-exchange" ? 8 : 9, 3, a.c_str(),
               ((a == "circulant" || a == "ring" || a == "ring-2d" || a == "dbtree") &&
                o == size_t(alg::ccl::Op::Combine)) ||
                       a == "nesbt" || ((a == "ring" || a == "pairwise") && o == size_t(alg::ccl::Op::ReduceScatter))
                   ? "sum"
                   : "affine");
        x.words = 18;
        x.barrier = barrier;
        if (a == "hybrid") x.extra["--kappa"] = "1";
        if (a == "nesbt" || a == "chain" || a == "circ-graph" || a == "dbtree") x.extra["--packet"] = "8";
        SCOPED_TRACE(x.op + " " + a + (barrier ? " barrier" : " nonbarrier"));
        const nlohmann::json j = run_isolated([&] {
          ScheduleRunOptions r = options_of(x);
          r.run.synchronous_sends = true;
          const ScheduleRunResult res = run_schedule(r);
          return nlohmann::json{{"ok", res.ok()}, {"error", res.run.error + res.data_error}};
        });
        EXPECT_TRUE(j["ok"].get<bool>()) << j["error"];
      }
}

}  // namespace
}  // namespace wn::fw
