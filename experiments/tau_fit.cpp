#include "experiments/tau_fit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "algorithms/registry.h"
#include "algorithms/thesis_formulas.h"
#include "systemc/topology/topology.h"

namespace wn::tau {

using alg::tau::Crossover;
using alg::tau::Linear;
using alg::tau::Region;

const char* const kLengthLawsAllowed = "allowed: linear (f(L) = L) or packets:B (f(L) = ceil(L / B), B in 1..2^26)";
const char* const kMetricsAllowed = "allowed: max-latency, avg-latency, cycles";

double LengthLaw::operator()(double bytes) const {
  return packet_bytes ? std::ceil(bytes / double(packet_bytes)) : bytes;
}
double LengthLaw::inverse(double f) const { return packet_bytes ? f * double(packet_bytes) : f; }
std::string LengthLaw::name() const { return packet_bytes ? fmt::format("packets:{}", packet_bytes) : "linear"; }
std::string LengthLaw::unit() const {
  return packet_bytes ? fmt::format("packet of {} B", packet_bytes) : std::string("B");
}

std::optional<LengthLaw> parse_length_law(const std::string& text, std::string& why) {
  if (text == "linear") return LengthLaw{};
  const std::string digits = text.rfind("packets:", 0) == 0 ? text.substr(8) : "";
  if (!digits.empty() && digits.size() <= 8 && digits.find_first_not_of("0123456789") == std::string::npos) {
    const uint64_t b = std::stoull(digits);
    if (b >= 1 && b <= (uint64_t(1) << 26)) return LengthLaw{b};
  }
  why = fmt::format("'{}'; {}", text, kLengthLawsAllowed);
  return std::nullopt;
}

std::optional<Metric> parse_metric(const std::string& text) {
  for (Metric m : {Metric::max_latency, Metric::avg_latency, Metric::cycles})
    if (text == metric_name(m)) return m;
  return std::nullopt;
}

const char* metric_name(Metric m) {
  return m == Metric::max_latency ? "max-latency" : m == Metric::avg_latency ? "avg-latency" : "cycles";
}

namespace {

Linear scaled(const Linear& l, double k) { return {l.ts * k, l.tn * k}; }

// Table 5.3 (and Eqs 4.1/4.2 on tori) for the series' run, per byte: thesis_formulas.h evaluates
// the closed form in the network's units; its length term is linear in body flits.
void predict(Fit& f) {
  const Series& s = f.series;
  alg::CostParams c;
  c.alpha = s.alpha;
  c.gamma = s.gamma;
  c.words_per_flit = std::max(1, s.bytes_per_flit / 4);
  const auto known = std::find_if(alg::algorithms().begin(), alg::algorithms().end(),
                                  [&](const alg::AlgorithmInfo& a) { return a.name == s.algorithm; });
  if (known == alg::algorithms().end()) return;
  // The Fibonacci tree's K: the variant's, else the family's default. A file's text is checked
  // here (t(P, K) takes K steps of memory): a message has at most 2^24 words, so at most as many packets.
  std::string k_text;
  for (const auto& spec : alg::family_of(*known).options)
    if (spec.flag == "--packets") k_text = spec.default_value;
  if (s.options.contains("--packets") && s.options["--packets"].is_string())
    k_text = s.options["--packets"].get<std::string>();
  const bool ft = s.algorithm == "ft-broadcast";
  if (ft && (k_text.empty() || k_text.size() > 8 || k_text.find_first_not_of("0123456789") != std::string::npos))
    return;
  const int packets = ft ? int(std::stol(k_text)) : 1;
  if (packets < 1 || packets > (1 << 24)) return;
  try {
    const Topology topo = Topology::parse(s.topology);
    const int steps = ft ? alg::ft_steps(uint64_t(topo.nodes()), packets) : 0;
    const auto at0 = alg::thesis_broadcast_cost(s.algorithm, topo, c, 0, packets, steps);
    const auto at1 = alg::thesis_broadcast_cost(s.algorithm, topo, c, uint32_t(c.words_per_flit), packets, steps);
    if (!at0 || !at1) return;
    f.predicted_cycles = Linear{at0->cycles, (at1->cycles - at0->cycles) / double(4 * c.words_per_flit)};
    const std::string formula = at0->formula.substr(0, at0->formula.find("; alpha="));
    f.predicted_formula = fmt::format("{}; alpha={} gamma={} cycles, beta={} cycles per byte, hop beta={} cycles",
                                      formula, c.alpha, c.gamma, 1.0 / (4 * c.words_per_flit), c.timing.hop_cycles());
  } catch (const std::exception&) {
    // A topology the report names but this build cannot parse: no prediction, the fit stands.
  }
}

std::string label(const Fit& f) {
  return fmt::format("{} ports={} {} {}", f.series.variant, f.series.ports, f.series.topology, f.series.profile);
}

nlohmann::json linear_json(const Linear& l, const char* unit, double clock_ns) {
  const auto tau = l.tau();
  nlohmann::json j = {{std::string("T_s_") + unit, l.ts},
                      {std::string("T_n_") + unit, l.tn},
                      {"tau", tau ? nlohmann::json(*tau) : nlohmann::json()}};
  if (clock_ns > 0) j["T_s_us"] = l.ts * clock_ns / 1000, j["T_n_us"] = l.tn * clock_ns / 1000;
  return j;
}

nlohmann::json crossover_json(const Crossover& c, const LengthLaw& law, const std::string& a, const std::string& b) {
  switch (c.kind) {
    case Crossover::Kind::same:
      return {{"kind", "same"}};
    case Crossover::Kind::a_first:
      return {{"kind", "faster-everywhere"}, {"faster", a}};
    case Crossover::Kind::b_first:
      return {{"kind", "faster-everywhere"}, {"faster", b}};
    case Crossover::Kind::crosses:
      break;
  }
  return {{"kind", "crosses"},
          {"f_star", c.at},
          {"bytes_star", law.inverse(c.at)},
          {"faster_below", c.a_below ? a : b},
          {"faster_above", c.a_below ? b : a}};
}

}  // namespace

Fit fit_series(const Series& s, const LengthLaw& law) {
  Fit f;
  f.series = s;
  std::stable_sort(f.series.points.begin(), f.series.points.end(),
                   [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
  const auto& pts = f.series.points;
  std::set<double> xs;
  for (const auto& p : pts) xs.insert(law(p.bytes));
  f.distinct = xs.size();
  f.ok = f.distinct >= 2;
  if (!f.ok) return f;
  const double n = double(pts.size());
  double xm = 0, ym = 0;
  for (const auto& p : pts) xm += law(p.bytes) / n, ym += p.cycles / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (const auto& p : pts) {
    const double dx = law(p.bytes) - xm, dy = p.cycles - ym;
    sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
  }
  f.cycles.tn = sxy / sxx;
  f.cycles.ts = ym - f.cycles.tn * xm;
  double ss_res = 0;
  for (const auto& p : pts) {
    const double r = p.cycles - f.cycles.at(law(p.bytes));
    f.residuals.push_back(r);
    ss_res += r * r;
  }
  f.r2 = syy > 0 ? 1 - ss_res / syy : 1.0;
  f.us = scaled(f.cycles, s.clock_ns / 1000);
  if (law.packet_bytes == 0) predict(f);
  return f;
}

std::vector<PairCrossover> all_crossovers(const std::vector<Fit>& fits) {
  std::vector<PairCrossover> out;
  for (size_t a = 0; a < fits.size(); ++a)
    for (size_t b = a + 1; b < fits.size(); ++b) {
      if (!fits[a].ok || !fits[b].ok) continue;
      PairCrossover p{a, b, alg::tau::crossover(fits[a].us, fits[b].us), std::nullopt};
      if (fits[a].predicted_cycles && fits[b].predicted_cycles)
        p.predicted = alg::tau::crossover(scaled(*fits[a].predicted_cycles, fits[a].series.clock_ns / 1000),
                                          scaled(*fits[b].predicted_cycles, fits[b].series.clock_ns / 1000));
      out.push_back(p);
    }
  return out;
}

bool names_series(const std::vector<Series>& series, const std::string& around) {
  for (const auto& s : series)
    if (s.variant == around || s.algorithm == around) return true;
  return false;
}

std::vector<RegionRow> regions_around(const std::vector<Fit>& fits, const std::string& around) {
  std::vector<RegionRow> out;
  for (size_t x = 0; x < fits.size(); ++x) {
    const Series& r = fits[x].series;
    if (!fits[x].ok || (r.variant != around && r.algorithm != around)) continue;
    for (size_t p = 0; p < fits.size(); ++p) {
      const Series& s = fits[p].series;
      if (p == x || !fits[p].ok || s.ports != r.ports || s.topology != r.topology || s.profile_json != r.profile_json)
        continue;
      RegionRow row{p, x, alg::tau::region(fits[p].us, fits[x].us), std::nullopt};
      if (fits[p].predicted_cycles && fits[x].predicted_cycles)
        row.predicted = alg::tau::region(*fits[p].predicted_cycles, *fits[x].predicted_cycles);
      out.push_back(row);
    }
  }
  return out;
}

nlohmann::json tau_json(const std::vector<Fit>& fits, const std::vector<PairCrossover>& pairs,
                        const std::vector<RegionRow>& regions, const LengthLaw& law, Metric metric,
                        const std::vector<std::string>& inputs, const std::string& around) {
  nlohmann::json fj = nlohmann::json::array();
  for (const auto& f : fits) {
    const Series& s = f.series;
    nlohmann::json points = nlohmann::json::array();
    for (size_t i = 0; i < s.points.size(); ++i) {
      nlohmann::json p = {{"bytes", s.points[i].bytes}, {"f", law(s.points[i].bytes)}, {"cycles", s.points[i].cycles}};
      if (f.ok) p["residual_cycles"] = f.residuals[i];
      points.push_back(std::move(p));
    }
    nlohmann::json j = {
        {"label", label(f)}, {"algorithm", s.algorithm},  {"variant", s.variant},           {"options", s.options},
        {"ports", s.ports},  {"topology", s.topology},    {"profile", s.profile_json},      {"input", s.input},
        {"points", points},  {"failed_points", s.failed}, {"distinct_lengths", f.distinct}, {"ok", f.ok}};
    if (f.ok) {
      j["fit"] = linear_json(f.cycles, "cycles", s.clock_ns);
      j["fit"]["r2"] = f.r2;
    }
    if (f.predicted_cycles) {
      j["predicted"] = linear_json(*f.predicted_cycles, "cycles", s.clock_ns);
      j["predicted"]["formula"] = f.predicted_formula;
    }
    fj.push_back(std::move(j));
  }
  nlohmann::json pj = nlohmann::json::array();
  for (const auto& p : pairs) {
    const std::string a = label(fits[p.a]), b = label(fits[p.b]);
    nlohmann::json j = {{"a", a}, {"b", b}, {"measured", crossover_json(p.measured, law, a, b)}};
    if (p.predicted) j["predicted"] = crossover_json(*p.predicted, law, a, b);
    pj.push_back(std::move(j));
  }
  nlohmann::json rj = nlohmann::json::array();
  for (const auto& r : regions) {
    nlohmann::json j = {{"point", label(fits[r.point])},
                        {"around", label(fits[r.around])},
                        {"region", alg::tau::region_name(r.region)},
                        {"meaning", alg::tau::region_meaning(r.region)}};
    if (r.predicted) j["predicted_region"] = alg::tau::region_name(*r.predicted);
    rj.push_back(std::move(j));
  }
  return {{"schema", "wormnet.tau/1"},
          {"model", "T(L) = T_s + T_n f(L), tau = T_n / T_s (Tsai's thesis, Eqs 5.1, 5.2)"},
          {"f", law.name()},
          {"f_unit", law.unit()},
          {"metric", metric_name(metric)},
          {"inputs", inputs},
          {"fits", fj},
          {"crossovers", pj},
          {"around", around.empty() ? nlohmann::json() : nlohmann::json(around)},
          {"regions", rj}};
}

}  // namespace wn::tau
