// The tau-model fitted to measured collectives (Tsai's thesis, Chapter 5): per series of runs
// that differ only in their message length (one algorithm variant, port model, topology and
// machine profile), the least-squares T(L) = T_s + T_n f(L) of Eq 5.1, tau = T_n / T_s (Eq 5.2),
// the crossovers L* of every pair (Eqs 5.5-5.7) and the regions of Fig 5.2 around one algorithm;
// where the thesis has a closed form (Table 5.3, Eqs 4.1/4.2) the predicted T_s, T_n and L* beside
// them. The points come from compare reports or from sweep results of run points. Fits are in
// network cycles; every run carries its profile's clock, so microseconds are exact rescalings,
// and pairs are compared in microseconds (profiles may differ in clock). Plain data in, plain data
// and JSON out: app/ owns the options and the printing.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/tau_model.h"
#include "systemc/core/config_error.h"

namespace wn::tau {

// f of Eq 5.1 over the message length L in bytes: "linear" f(L) = L, or "packets:B" f(L) =
// ceil(L / B) (a cost per packet of B bytes). Its inverse is the continuous one (L = B f), so a
// crossover between packet counts is reported as the length where the relaxed costs cross.
struct LengthLaw {
  uint64_t packet_bytes = 0;  // 0: linear
  double operator()(double bytes) const;
  double inverse(double f) const;
  std::string name() const;  // as parsed: "linear" or "packets:B"
  std::string unit() const;  // what one unit of f is: "B" or "packet of B bytes"
};
// nullopt (and `why`, with the allowed forms) when `text` is neither form.
std::optional<LengthLaw> parse_length_law(const std::string& text, std::string& why);
extern const char* const kLengthLawsAllowed;

// Which time a run's T is: the thesis's maximum latency (first send -> last receive completed,
// the broadcast time of Table 5.3), its average latency, or the run's total cycles.
enum class Metric { max_latency, avg_latency, cycles };
std::optional<Metric> parse_metric(const std::string& text);
const char* metric_name(Metric m);
extern const char* const kMetricsAllowed;

struct Point {
  uint32_t bytes = 0;
  double cycles = 0;  // T at this length (compare: the mean over the sources)
};

// Runs that differ only in length.
struct Series {
  std::string algorithm, variant, ports, topology, profile;
  nlohmann::json options = nlohmann::json::object();  // the family options of the variant
  nlohmann::json profile_json;                        // name, clock, alpha, gamma, bytes per flit...
  double clock_ns = 1, alpha = 0, gamma = 0;
  int bytes_per_flit = 4;
  std::string input;  // the file it was read from ("" for a live run)
  std::vector<Point> points;
  int failed = 0;  // points left out: their run failed
};

// One file: a compare report (one JSON document, schema wormnet.compare/*) or a sweep's results
// (JSON lines of run points). ConfigError(field) when it cannot be read, ConfigError(path) naming
// the line or field otherwise. Series in first-appearance order.
std::vector<Series> read_series(const std::string& path, const ConfigField& field, Metric metric);
// The series of a compare report already in memory (a live run); `input` labels them.
std::vector<Series> series_of_compare(const nlohmann::json& report, const std::string& input, Metric metric);
// Series with the same identity (from several files) joined, in first-appearance order.
std::vector<Series> merge_series(std::vector<Series> all);

struct Fit {
  Series series;
  size_t distinct = 0;  // distinct values of f among the points
  bool ok = false;      // at least two distinct f values
  alg::tau::Linear cycles, us;
  double r2 = 0;
  std::vector<double> residuals;  // per point, cycles: measured - fitted
  // The thesis's closed form for the same run, when it has one (linear f only).
  std::optional<alg::tau::Linear> predicted_cycles;
  std::string predicted_formula;
};
Fit fit_series(const Series& s, const LengthLaw& law);

struct PairCrossover {
  size_t a = 0, b = 0;  // indices into the fits
  alg::tau::Crossover measured;
  std::optional<alg::tau::Crossover> predicted;
};
std::vector<PairCrossover> all_crossovers(const std::vector<Fit>& fits);

struct RegionRow {
  size_t point = 0, around = 0;  // indices into the fits
  alg::tau::Region region = alg::tau::Region::same;
  std::optional<alg::tau::Region> predicted;
};
// Every ok fit of the same port model, topology and profile as an ok fit whose variant or
// algorithm is `around`, placed relative to it.
std::vector<RegionRow> regions_around(const std::vector<Fit>& fits, const std::string& around);
// Whether some series is `around` (by variant or algorithm).
bool names_series(const std::vector<Series>& series, const std::string& around);

// The whole report (schema wormnet.tau/1); deterministic for the same input.
nlohmann::json tau_json(const std::vector<Fit>& fits, const std::vector<PairCrossover>& pairs,
                        const std::vector<RegionRow>& regions, const LengthLaw& law, Metric metric,
                        const std::vector<std::string>& inputs, const std::string& around);

}  // namespace wn::tau
