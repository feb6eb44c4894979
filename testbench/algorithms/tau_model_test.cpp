// The tau-model of Tsai's thesis, Chapter 5: the closed forms of Table 5.3, the comparisons of
// Eqs 5.5-5.10 and Fig 5.2, and the published tables of (T_s, T_n, tau) checked against the
// thesis's own numbers (where the thesis's arithmetic slips, the corrected value is tested and
// the printed one named).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/tau_model.h"
#include "algorithms/thesis_formulas.h"

namespace wn::alg::tau {
namespace {

TEST(TauModel, FibonacciTreeSteps1024) {
  // t(1024, k), k = 1..24, from N(t,k) = N(t-k,k) + N(t-1,k) (the Fibonacci tree of Table 5.3).
  const int want[] = {10, 16, 20, 24, 28, 31, 34, 38, 41, 44, 47, 50, 53, 56, 58, 61, 64, 67, 69, 72, 75, 78, 80, 83};
  for (int k = 1; k <= 24; ++k) EXPECT_EQ(ft_steps(1024, k), want[k - 1]) << "k " << k;
  EXPECT_EQ(ft_steps_mesh(5, 18), 67);
  for (int n = 1; n <= 6; ++n) EXPECT_EQ(ft_steps_mesh(n, 1), 2 * n);  // the binomial tree
}

TEST(TauModel, EpsilonRowN5) {
  // Eq 5.8's epsilon(5, k), to the digits the table gives (k = 16: 0.0136476 is printed 0.0137,
  // one unit of its last digit off, so that row is held to that unit).
  const struct {
    int k;
    double eps, within;
  } rows[] = {{4, 0.774, 5e-4},    {5, 0.355, 5e-4},    {6, 0.220, 5e-4},   {8, 0.1097, 5e-5},
              {10, 0.0645, 5e-5},  {12, 0.0394, 5e-5},  {14, 0.0235, 5e-5}, {16, 0.0137, 1e-4},
              {18, 0.00538, 5e-6}, {19, 0.00302, 5e-6}, {20, 0.0, 5e-6},    {21, -0.0027, 5e-5}};
  for (const auto& r : rows) EXPECT_NEAR(*epsilon(5, r.k), r.eps, r.within) << "k " << r.k;
  EXPECT_FALSE(epsilon(5, 3).has_value());  // Eq 5.8 holds for k > 3 only
  // "SC beats FT for every L only for k >= 20" at tau0 = 0.003: epsilon(5, k) < 0.003 exactly then.
  for (int k = 4; k <= 40; ++k) EXPECT_EQ(*epsilon(5, k) < 0.003, k >= 20) << "k " << k;
}

TEST(TauModel, OmegaAndMuSignsN5) {
  EXPECT_NEAR(omega(5, 7), 4.10, 0.005);   // 102 - 98 (1 - 2^-10)
  EXPECT_DOUBLE_EQ(omega(5, 8), -13.875);  // printed -13.88
  for (int k = 2; k <= 7; ++k) EXPECT_GT(omega(5, k), 0) << k;
  for (int k = 8; k <= 30; ++k) EXPECT_LT(omega(5, k), 0) << k;
  // Eqs 5.9 / 5.10 against the taus themselves: tau_SC < tau_FT exactly as mu says.
  for (int k = 4; k <= 24; ++k)
    for (double t0 : {0.0005, 0.001, 0.003, 0.01, 0.05, 0.2}) {
      const MeshParams m{1.0, 2 * t0, 1.0, 5};
      const bool sc_lower = *sc_cost(m).tau() < *ft_cost(m, k).tau();
      const double w = omega(5, k), u = *mu(5, k);
      EXPECT_EQ(sc_lower, w > 0 ? t0 > u : t0 < u) << "k " << k << " tau0 " << t0;
    }
}

TEST(TauModel, SC_FT_CrossoverK18) {
  // n = 5, alpha = gamma = 1.5, beta = 0.009 (tau0 = 0.003), k = 18, t(P,18) = 67. The thesis prints
  // 6.603 / 0.0155 = 425.5; the arithmetic gives 6.630 / 0.015518 = 427.26.
  const MeshParams m{1.5, 0.009, 1.5, 5};
  const Linear sc = sc_cost(m), ft = ft_cost(m, 18);
  EXPECT_NEAR(sc.ts - ft.ts, 6.630, 5e-4);
  EXPECT_NEAR(ft.tn - sc.tn, 0.015518, 5e-7);
  const Crossover c = sc_ft_crossover(m, 18);
  ASSERT_EQ(c.kind, Crossover::Kind::crosses);
  EXPECT_NEAR(c.at, 427.26, 0.005);
  EXPECT_FALSE(c.a_below);  // SC, the larger startup, wins above L*
  // (alpha, tau0, gamma) = (0.5, 0.003, 0.5): the thesis's 2.21 / 0.0051725; the same L*, as tau0 is.
  const MeshParams small{0.5, 0.003, 0.5, 5};
  const Crossover c2 = sc_ft_crossover(small, 18);
  EXPECT_NEAR(sc_cost(small).ts - ft_cost(small, 18).ts, 2.210, 5e-4);
  EXPECT_NEAR(c2.at, 427.26, 0.005);
  // Figs 5.10 / 5.11 at the same parameters: SC faster at every length only for k >= 20; for
  // 3 < k < 20 SC wins above L* (FT below).
  for (int k = 4; k <= 30; ++k) {
    const Crossover x = sc_ft_crossover(m, k);
    if (k >= 20) {
      EXPECT_EQ(x.kind, Crossover::Kind::a_first) << "k " << k;
    } else {
      ASSERT_EQ(x.kind, Crossover::Kind::crosses) << "k " << k;
      EXPECT_FALSE(x.a_below) << "k " << k;
    }
  }
  EXPECT_EQ(region(sc, ft), Region::C);
  EXPECT_EQ(region(ft, sc), Region::D);
}

TEST(TauModel, EDN_SC_CrossoverTable) {
  // L* with alpha = gamma and tau0 = beta / (alpha + gamma): the thesis reads 14 KB, 7000 B and
  // 4200 B off its Fig 5.13 for n = 5; Table 5.3's formulas give these.
  const struct {
    int n;
    double l[3];
  } rows[] = {{2, {4902, 2458, 1643}},   {3, {6663, 3340, 2233}},   {4, {9833, 4929, 3294}},
              {5, {15406, 7722, 5161}},  {6, {25161, 12612, 8429}}, {7, {42355, 21230, 14189}},
              {8, {72968, 36575, 24444}}};
  for (const auto& r : rows)
    for (int i = 0; i < 3; ++i) {
      const double t0 = 0.001 * (i + 1);
      for (double a : {0.5, 1.0, 85.0}) {  // L* depends on tau0 only
        const MeshParams m{a, 2 * a * t0, a, r.n};
        EXPECT_DOUBLE_EQ(tau0(m), t0);
        const Crossover c = edn_sc_crossover(m);
        ASSERT_EQ(c.kind, Crossover::Kind::crosses);
        EXPECT_TRUE(c.a_below);  // EDN below L*, SC above, whatever the parameters
        EXPECT_NEAR(c.at, r.l[i], 1.0) << "n " << r.n << " tau0 " << t0;
      }
    }
}

TEST(TauModel, ClosedFormsAndTheirDifferences) {
  const MeshParams m{2.0, 0.25, 3.0, 4};  // alpha != gamma: every coefficient shows
  EXPECT_DOUBLE_EQ(rd_cost(m).ts, 8 * 2.0 + 2 * 0.25 * 15 + 8 * 3.0);
  EXPECT_DOUBLE_EQ(rd_cost(m).tn, 8 * 0.25);
  EXPECT_DOUBLE_EQ(sc_cost(m).ts, 2 * 19 * 5.0 + 6 * 15 * 0.25);
  EXPECT_DOUBLE_EQ(sc_cost(m).tn, 2 * (1 - 1.0 / 256) * 0.25);
  EXPECT_DOUBLE_EQ(edn_cost(m).ts, 12 * 2.0 + 5 * 3.0 + 15 * 0.25);
  EXPECT_DOUBLE_EQ(edn_cost(m).tn, 5 * 0.25);
  const double t = ft_steps_mesh(4, 3);
  EXPECT_DOUBLE_EQ(ft_cost(m, 3).ts, t * 5.0 + 6 * 0.25 * 15);
  EXPECT_DOUBLE_EQ(ft_cost(m, 3).tn, t * 0.25 / 3);
  // The SC - EDN startup difference with the 5 (2^n - 1) beta term the thesis's text drops.
  for (int n = 2; n <= 8; ++n) {
    const MeshParams q{1.3, 0.02, 0.7, n};
    EXPECT_NEAR(sc_minus_edn_startup(q), sc_cost(q).ts - edn_cost(q).ts, 1e-9) << n;
    EXPECT_GT(sc_minus_edn_startup(q), 0);
    EXPECT_NEAR(edn_cost(q).tn - sc_cost(q).tn, (n - 1 + 2 * std::ldexp(1.0, -2 * n)) * q.beta, 1e-12);
  }
  // The thesis's taus of SC, FT and EDN (Chapter 5) are T_n / T_s of the same forms.
  const double a = m.alpha, g = m.gamma, b = m.beta, s = 15;
  EXPECT_NEAR(*sc_cost(m).tau(), 2 * (1 - 1.0 / 256) * b / (2 * (19 * (a + g) + 3 * s * b)), 1e-15);
  EXPECT_NEAR(*ft_cost(m, 3).tau(), t * b / (t * (a + g) * 3 + 2 * s * 9 * b), 1e-15);
  EXPECT_NEAR(*edn_cost(m).tau(), 5 * b / (12 * a + 5 * g + s * b), 1e-15);
  // EDN vs FT at n = 5: T_s[EDN] < T_s[FT] for every tau0 > 0 once k > 3 (t > 3n), and R > 0 for k >= 2.
  for (int k = 4; k <= 24; ++k) EXPECT_LT(*edn_ft_threshold(5, k), 0) << k;
  for (int k = 2; k <= 24; ++k) EXPECT_GT(edn_ft_r(5, k), 0) << k;
}

TEST(TauModel, CrossoverAndRegions) {
  const Linear x{10, 1};
  EXPECT_EQ(region({5, 0.5}, x), Region::A);
  EXPECT_EQ(region({10, 0.5}, x), Region::A);
  EXPECT_EQ(region({20, 2}, x), Region::B);
  EXPECT_EQ(region({20, 0.5}, x), Region::C);
  EXPECT_EQ(region({5, 2}, x), Region::D);
  EXPECT_EQ(region(x, x), Region::same);
  // Eq 5.5: (T_s2 - T_s3) / (T_n3 - T_n2).
  const Crossover c = crossover({20, 0.5}, x);
  EXPECT_DOUBLE_EQ(c.at, 20.0);
  EXPECT_DOUBLE_EQ((Linear{20, 0.5}.at(c.at)), x.at(c.at));
  // Same f and the same tau: the costs are proportional (Chapter 5), so one dominates.
  EXPECT_EQ(crossover({2, 0.02}, {4, 0.04}).kind, Crossover::Kind::a_first);
  EXPECT_FALSE(Linear({-1, 1}).tau().has_value());
}

// Tables 5.1, 5.6 and 5.7 (docs/papers/tsai_ch5_machines.csv, which scripts/plot.py tau
// --machines also draws): every printed tau is T_n / T_s within 0.5 %.
TEST(TauModel, PublishedTablesTauIsTnOverTs) {
  std::ifstream in(std::string(WN_SOURCE_DIR) + "/docs/papers/tsai_ch5_machines.csv");
  ASSERT_TRUE(in) << "docs/papers/tsai_ch5_machines.csv";
  std::string line;
  std::getline(in, line);
  ASSERT_EQ(line, "table,machine,T_s_us,T_n_us_per_byte,tau_printed");
  std::map<std::string, int> per_table;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string table, what, ts, tn, printed;
    ASSERT_TRUE(std::getline(row, table, ',') && std::getline(row, what, ',') && std::getline(row, ts, ',') &&
                std::getline(row, tn, ',') && std::getline(row, printed))
        << line;
    ++per_table[table];
    const double tau = *Linear{std::stod(ts), std::stod(tn)}.tau();
    EXPECT_LE(std::fabs(tau - std::stod(printed)), 0.005 * std::stod(printed))
        << what << ": " << tau << " vs " << printed;
  }
  const std::map<std::string, int> rows = {{"5.1", 23}, {"5.6", 13}, {"5.7", 6}};
  EXPECT_EQ(per_table, rows);
}

}  // namespace
}  // namespace wn::alg::tau
