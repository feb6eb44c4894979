// The tables `wormnet tau` prints: one row per fitted series, the thesis's closed form under it
// where there is one, then the crossovers of every pair and the regions around --around.
#include <fmt/format.h>

#include <set>

#include "experiments/tau_fit.h"

namespace wn::cli {

namespace {

using alg::tau::Crossover;

// Topology and profile in a name only when the fits do not all share them.
struct Namer {
  bool topo = false, prof = false;
  explicit Namer(const std::vector<tau::Fit>& fits) {
    std::set<std::string> t, p;
    for (const auto& f : fits) t.insert(f.series.topology), p.insert(f.series.profile_json.dump());
    topo = t.size() > 1, prof = p.size() > 1;
  }
  std::string operator()(const tau::Fit& f) const {
    std::string s = f.series.variant + " ports=" + f.series.ports;
    if (topo) s += " " + f.series.topology;
    if (prof) s += " " + f.series.profile;
    return s;
  }
};

std::string tau_text(const alg::tau::Linear& l) {
  const auto t = l.tau();
  return t ? fmt::format("{:.4e}", *t) : std::string("-");
}

std::string crossing(const Crossover& c, const tau::LengthLaw& law, const std::string& a, const std::string& b) {
  switch (c.kind) {
    case Crossover::Kind::same:
      return "the same cost at every length";
    case Crossover::Kind::a_first:
      return a + " no slower at every length";
    case Crossover::Kind::b_first:
      return b + " no slower at every length";
    case Crossover::Kind::crosses:
      break;
  }
  const std::string at = law.packet_bytes ? fmt::format("{:.1f} B ({:.2f} packets)", law.inverse(c.at), c.at)
                                          : fmt::format("{:.1f} B", c.at);
  return fmt::format("L* = {}: {} faster below, {} above", at, c.a_below ? a : b, c.a_below ? b : a);
}

}  // namespace

void print_tau(const std::vector<tau::Fit>& fits, const std::vector<tau::PairCrossover>& pairs,
               const std::vector<tau::RegionRow>& regions, const tau::LengthLaw& law, tau::Metric metric,
               const std::string& around) {
  const Namer name(fits);
  std::set<std::string> topo, prof;
  for (const auto& f : fits) topo.insert(f.series.topology), prof.insert(f.series.profile);
  std::string shared;
  if (!name.topo) shared += " topology=" + *topo.begin();
  if (!name.prof) shared += " profile=" + *prof.begin();
  fmt::print("\ntau model (Tsai's thesis, Eqs 5.1, 5.2): T(L) = T_s + T_n f(L), f = {} (per {}), T = {}{}\n",
             law.name(), law.unit(), tau::metric_name(metric), shared);
  fmt::print("{:<32} {:>6} {:>12} {:>12} {:>11} {:>9} {:>12} {:>12}\n", "algorithm", "points", "T_s cycles",
             "T_n cyc/f", "tau 1/f", "R^2", "T_s us", "T_n us/f");
  for (const auto& f : fits) {
    if (!f.ok) {
      fmt::print("{:<32} {:>6}  not fitted: {} distinct length{} ({} failed run{} left out)\n", name(f),
                 f.series.points.size(), f.distinct, f.distinct == 1 ? "" : "s", f.series.failed,
                 f.series.failed == 1 ? "" : "s");
      continue;
    }
    fmt::print("{:<32} {:>6} {:>12.2f} {:>12.5f} {:>11} {:>9.6f} {:>12.4f} {:>12.6f}{}\n", name(f),
               f.series.points.size(), f.cycles.ts, f.cycles.tn, tau_text(f.cycles), f.r2, f.us.ts, f.us.tn,
               f.series.failed ? fmt::format("  ({} failed left out)", f.series.failed) : "");
    if (f.predicted_cycles)
      fmt::print("  {:<30} {:>6} {:>12.2f} {:>12.5f} {:>11}   {}\n", "thesis", "", f.predicted_cycles->ts,
                 f.predicted_cycles->tn, tau_text(*f.predicted_cycles), f.predicted_formula);
  }
  if (!pairs.empty()) {
    fmt::print("crossovers (Eq 5.5: L* = f^-1((T_s2 - T_s3) / (T_n3 - T_n2)), on the microsecond fits):\n");
    for (const auto& p : pairs) {
      const std::string a = name(fits[p.a]), b = name(fits[p.b]);
      fmt::print("  {} vs {}: {}\n", a, b, crossing(p.measured, law, a, b));
      if (p.predicted) fmt::print("    thesis: {}\n", crossing(*p.predicted, law, a, b));
    }
  }
  if (!around.empty()) {
    fmt::print("regions around {} (Fig 5.2; same port model, topology and profile):\n", around);
    if (regions.empty()) fmt::print("  none: no other algorithm was fitted beside it\n");
    for (const auto& r : regions)
      fmt::print("  {:<32} {} ({}){}\n", name(fits[r.point]), alg::tau::region_name(r.region),
                 alg::tau::region_meaning(r.region),
                 r.predicted ? fmt::format("; thesis: {}", alg::tau::region_name(*r.predicted)) : "");
  }
}

}  // namespace wn::cli
