#include "experiments/sweep_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "systemc/core/config_error.h"

namespace wn {

namespace {

struct Metric {
  const char* name;
  const char* pointer;  // into a result line
  bool full;            // mean/min/max/p95 (else the mean only)
  const char* unit;     // the column's unit, last in its name: avg_latency_mean_cycles
};

// What a collective run reports (run, check --simulate) and what traffic reports.
const std::vector<Metric> kRunMetrics = {{"avg_latency", "/latency/average_cycles", true, "cycles"},
                                         {"max_latency", "/latency/maximum_cycles", true, "cycles"},
                                         {"completion", "/cycles", true, "cycles"},
                                         {"stepwise_delay", "/contention/stepwise", false, "cycles"},
                                         {"depth_delay", "/contention/depth", false, "cycles"},
                                         {"port_delay", "/contention/port", false, "cycles"},
                                         {"flow_delay", "/contention/flow", false, "cycles"}};
const std::vector<Metric> kTrafficMetrics = {{"accepted", "/throughput/accepted", true, "flits_per_node_cycle"},
                                             {"network_latency", "/network_latency/avg", true, "cycles"},
                                             {"total_latency", "/total_latency/avg", true, "cycles"}};

std::string value_of(const nlohmann::json& line, const std::string& key) {
  if (line.contains("params") && line["params"].contains(key)) {  // a number, or text (older files: always text)
    const auto& v = line["params"][key];
    return v.is_string() ? v.get<std::string>() : v.dump();
  }
  if (line.contains(key) && line[key].is_primitive())
    return line[key].is_string() ? line[key].get<std::string>() : line[key].dump();
  return "-";
}

std::string num(double v) { return fmt::format("{:.6g}", v); }

}  // namespace

Stats stats_of(std::vector<double> v) {
  Stats s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / double(v.size());
  s.min = v.front();
  s.max = v.back();
  s.p95 = v[size_t(std::ceil(0.95 * double(v.size()))) - 1];
  return s;
}

SummaryTable summarize(const std::vector<nlohmann::json>& lines, const SummaryOptions& opt) {
  if (opt.by.empty())
    throw ConfigError(Param::by, "empty; allowed: comma-separated parameter names (algorithm,ports,bytes)");
  const bool traffic = !lines.empty() && lines.front().value("command", "") == "traffic";
  const auto& metrics = traffic ? kTrafficMetrics : kRunMetrics;
  for (const auto& k : opt.by) {
    bool any = false;
    for (const auto& l : lines) any = any || value_of(l, k) != "-";
    if (!any && !lines.empty())
      throw ConfigError(Param::by,
                        fmt::format("'{}' is in no line's parameters; allowed: a parameter of the sweep", k));
  }
  size_t base_col = opt.by.size();
  if (!opt.baseline_key.empty()) {
    base_col = size_t(std::find(opt.by.begin(), opt.by.end(), opt.baseline_key) - opt.by.begin());
    if (base_col == opt.by.size())
      throw ConfigError(Param::baseline, fmt::format("'{}' is not a {} key; allowed: KEY=VALUE with KEY one of {}",
                                                     opt.baseline_key, param_ref(Param::by), param_ref(Param::by)));
  }
  // Groups in order of first appearance (point order for a spec's results).
  std::vector<std::vector<std::string>> order;
  std::map<std::vector<std::string>, std::vector<const nlohmann::json*>> groups;
  for (const auto& l : lines) {
    std::vector<std::string> g;
    for (const auto& k : opt.by) g.push_back(value_of(l, k));
    if (!groups.count(g)) order.push_back(g);
    groups[g].push_back(&l);
  }
  auto metric_stats = [&](const std::vector<const nlohmann::json*>& ls, const Metric& m) {
    std::vector<double> v;
    for (const auto* l : ls) {
      const nlohmann::json::json_pointer p(m.pointer);
      if (l->value("ok", false) && l->contains(p) && l->at(p).is_number()) v.push_back(l->at(p).get<double>());
    }
    return stats_of(v);
  };
  SummaryTable t;
  t.header = opt.by;
  t.header.insert(t.header.end(), {"points", "failed"});
  for (const auto& m : metrics) {
    if (!m.full) {
      t.header.push_back(std::string(m.name) + "_mean_" + m.unit);
      continue;
    }
    for (const char* s : {"mean", "min", "max", "p95"})
      t.header.push_back(std::string(m.name) + "_" + s + "_" + m.unit);
  }
  const char* speed = traffic ? "accepted" : "completion";
  if (!opt.baseline_key.empty()) t.header.push_back("speedup_vs_" + opt.baseline_value + "_ratio");
  for (const auto& g : order) {
    const auto& ls = groups[g];
    std::vector<std::string> row = g;
    size_t failed = 0;
    for (const auto* l : ls) failed += l->value("ok", false) ? 0 : 1;
    row.push_back(std::to_string(ls.size()));
    row.push_back(std::to_string(failed));
    for (const auto& m : metrics) {
      const Stats s = metric_stats(ls, m);
      if (!m.full)
        row.push_back(s.n ? num(s.mean) : "-");
      else
        for (double x : {s.mean, s.min, s.max, s.p95}) row.push_back(s.n ? num(x) : "-");
    }
    if (!opt.baseline_key.empty()) {
      // Speed-up: the baseline's mean cycles over this group's (traffic: accepted load over the baseline's).
      auto b = g;
      b[base_col] = opt.baseline_value;
      const Metric& m =
          *std::find_if(metrics.begin(), metrics.end(), [&](const Metric& x) { return x.name == std::string(speed); });
      const Stats mine = metric_stats(ls, m);
      const Stats base = groups.count(b) ? metric_stats(groups[b], m) : Stats{};
      const double up =
          traffic ? (base.mean > 0 ? mine.mean / base.mean : 0) : (mine.mean > 0 ? base.mean / mine.mean : 0);
      row.push_back(base.n && mine.n && up > 0 ? fmt::format("{:.3f}", up) : "-");
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string SummaryTable::text() const {
  std::vector<size_t> w(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    w[c] = header[c].size();
    for (const auto& r : rows) w[c] = std::max(w[c], r[c].size());
  }
  std::string out;
  auto line = [&](const std::vector<std::string>& r) {
    for (size_t c = 0; c < r.size(); ++c) out += fmt::format(c ? " {:>{}}" : "{:<{}}", r[c], w[c]);
    out += "\n";
  };
  line(header);
  for (const auto& r : rows) line(r);
  return out;
}

std::string SummaryTable::csv() const {
  std::string out;
  auto line = [&](const std::vector<std::string>& r) {
    for (size_t c = 0; c < r.size(); ++c) {
      // RFC 4180: quote a field that has a comma or a quote ("-" stays for a missing value).
      const bool q = r[c].find_first_of(",\"") != std::string::npos;
      std::string f = r[c];
      if (q) {
        std::string e;
        for (char ch : f) e += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        f = "\"" + e + "\"";
      }
      out += (c ? "," : "") + f;
    }
    out += "\n";
  };
  line(header);
  for (const auto& r : rows) line(r);
  return out;
}

}  // namespace wn
