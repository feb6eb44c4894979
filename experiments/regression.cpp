#include "experiments/regression.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "experiments/sweep_results.h"
#include "systemc/core/config_error.h"

namespace wn {

namespace {

const char* kResultsAllowed = "allowed: a results file of wormnet sweep (JSON lines)";
const char* kReportAllowed = "allowed: a compare report (the JSON wormnet compare writes)";

// What depends on the machine or the build rather than on the simulation.
bool host_field(const std::string& k) {
  for (const char* w : {"wall", "speed", "per_second", "host", "elapsed"})
    if (k.find(w) != std::string::npos) return true;
  return k == "version" || k == "git" || k == "wormnet";
}

void walk(const nlohmann::json& j, const std::string& path, bool in_array, Measured& scalars, Measured& arrays) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items())
      if (!host_field(k)) walk(v, path.empty() ? k : path + "." + k, in_array, scalars, arrays);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) walk(j[i], fmt::format("{}[{}]", path, i), true, scalars, arrays);
  } else if (j.is_number() || j.is_boolean()) {
    (in_array ? arrays : scalars).emplace_back(path, j);
  }
}

std::string text_of(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A line's string field, "" when it has none (a results line is only checked for key and ok).
std::string string_at(const nlohmann::json& j, const char* k) {
  return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : "";
}

// `path` exists and is a regular file that opens: else ConfigError(Param::baseline).
void check_readable(const std::string& path, const char* allowed) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  std::string why;
  if (!std::filesystem::exists(st))
    why = "does not exist";
  else if (std::filesystem::is_directory(st))
    why = "is a directory";
  else if (!std::filesystem::is_regular_file(st))
    why = "is not a regular file";
  else if (!std::ifstream(path))
    why = fmt::format("cannot be read ({})", std::strerror(errno));
  if (!why.empty()) throw ConfigError(Param::baseline, fmt::format("'{}' {}; {}", path, why, allowed));
}

std::string percent(double rel) {
  const double p = rel * 100;
  return std::fabs(p) >= 0.01 ? fmt::format("{:+.2f} %", p) : fmt::format("{:+.2g} %", p);
}

}  // namespace

Measured measured_leaves(const nlohmann::json& result, const std::set<std::string>& skip) {
  Measured scalars, arrays;
  if (!result.is_object()) return scalars;
  for (const auto& [k, v] : result.items())
    if (!skip.count(k) && !host_field(k)) walk(v, k, false, scalars, arrays);
  scalars.insert(scalars.end(), arrays.begin(), arrays.end());
  return scalars;
}

std::vector<RegressionPoint> sweep_points(const std::vector<nlohmann::json>& lines) {
  static const std::set<std::string> defining = {"key",    "point", "command",    "params",
                                                 "config", "error", "data_error", "schema"};
  std::set<std::string> commands;  // a spec of parts mixes them: the label says which
  for (const auto& j : lines)
    if (!string_at(j, "command").empty()) commands.insert(string_at(j, "command"));
  std::vector<RegressionPoint> out;
  for (const auto& j : in_point_order(lines)) {
    RegressionPoint p;
    p.id = j["key"].get<std::string>();
    if (commands.size() > 1) p.label = string_at(j, "command");
    if (j.contains("params") && j["params"].is_object())
      for (const auto& [k, v] : j["params"].items()) p.label += (p.label.empty() ? "" : " ") + k + "=" + text_of(v);
    if (p.label.empty()) p.label = "key " + p.id;
    p.ok = line_ok(j);
    const std::string err = string_at(j, "error"), data = string_at(j, "data_error");
    p.error = !err.empty() ? err : !data.empty() ? "data check: " + data : "failed";
    p.metrics = measured_leaves(j, defining);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<RegressionPoint> compare_rows(const nlohmann::json& report, const std::string& file) {
  const bool compare = report.is_object() && report.contains("schema") && report["schema"].is_string() &&
                       report["schema"].get<std::string>().rfind("wormnet.compare/", 0) == 0;
  if (!compare || !report.contains("summary") || !report["summary"].is_array())
    throw ConfigError(file, fmt::format("is not a compare report (schema {}, no summary rows); {}",
                                        report.is_object() && report.contains("schema") ? report["schema"].dump()
                                                                                        : std::string("none"),
                                        kReportAllowed));
  static const std::set<std::string> defining = {"algorithm", "variant",  "options", "ports",
                                                 "bytes",     "schedule", "sources", "topology"};
  std::vector<RegressionPoint> out;
  std::map<std::string, int> seen;
  for (size_t i = 0; i < report["summary"].size(); ++i) {
    const auto& row = report["summary"][i];
    if (!row.is_object() || !row.contains("variant") || !row["variant"].is_string() || !row.contains("ports") ||
        !row.contains("bytes") || !row["bytes"].is_number() || !row.contains("sources") || !row["sources"].is_number())
      throw ConfigError(file,
                        fmt::format("summary row {} has no variant, ports, bytes and sources; {}", i, kReportAllowed));
    nlohmann::json id = nlohmann::json::object();
    for (const auto& k : defining)
      if (row.contains(k)) id[k] = row[k];
    RegressionPoint p;
    p.id = id.dump();
    if (const int n = seen[p.id]++) p.id += fmt::format("#{}", n + 1);  // the same row twice: matched in order
    p.label = fmt::format("{} ports={} bytes={}", row["variant"].get<std::string>(), text_of(row["ports"]),
                          text_of(row["bytes"]));
    if (row["sources"] != 1) p.label += " sources=" + text_of(row["sources"]);
    if (row.contains("topology")) p.label += " topology=" + text_of(row["topology"]);
    const double runs = row["sources"].get<double>(),
                 good = row.contains("data_ok") && row["data_ok"].is_number() ? row["data_ok"].get<double>() : 0.0;
    p.ok = good == runs;
    p.error = fmt::format("{} of {} runs failed", runs - good, runs);
    p.metrics = measured_leaves(row, defining);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<nlohmann::json> read_results_baseline(const std::string& path) {
  check_readable(path, kResultsAllowed);
  auto lines = read_result_lines(path);  // a line that is not a result: ConfigError(path) naming it
  if (lines.empty()) throw ConfigError(path, fmt::format("has no point's result; {}, with points", kResultsAllowed));
  return lines;
}

nlohmann::json read_report_baseline(const std::string& path) {
  check_readable(path, kReportAllowed);
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const size_t at = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const auto line = std::count(text.begin(), text.begin() + long(at), '\n') + 1;
    throw ConfigError(path, fmt::format("line {} is not JSON; {}", line, kReportAllowed));
  }
}

Regression compare_points(const std::vector<RegressionPoint>& baseline, const std::vector<RegressionPoint>& now,
                          double tolerance) {
  if (!std::isfinite(tolerance) || tolerance < 0)
    throw ConfigError(Param::tolerance,
                      fmt::format("{} is not allowed; allowed: a relative change 0 or more (0.01 is 1 %)", tolerance));
  Regression r;
  r.tolerance = tolerance;
  std::map<std::string, const RegressionPoint*> base;
  for (const auto& b : baseline) base.emplace(b.id, &b);
  std::set<std::string> seen;
  for (const auto& p : now) {
    seen.insert(p.id);
    const auto it = base.find(p.id);
    if (!p.ok) {
      r.failed.push_back({p.label + (it == base.end() ? " (not in the baseline)" : ""), {}, p.error});
      continue;
    }
    if (it == base.end()) {
      r.fresh.push_back(p.label);
      continue;
    }
    ++r.compared;
    const RegressionPoint& b = *it->second;
    if (!b.ok) {
      r.changed.push_back({p.label, {{"ok", "false", "true", std::nullopt}}, "failed in the baseline: " + b.error});
      continue;
    }
    std::map<std::string, const nlohmann::json*> before;
    for (const auto& [k, v] : b.metrics) before.emplace(k, &v);
    PointChange c{p.label, {}, ""};
    bool moved_within = false;
    auto check = [&](const std::string& k, const nlohmann::json* x, const nlohmann::json* y) {
      if (x && y && x->is_number() && y->is_number()) {
        const double a = x->get<double>(), z = y->get<double>();
        if (a == z) return;
        if (std::fabs(z - a) <= tolerance * std::fabs(a)) {
          moved_within = true;
          return;
        }
        c.metrics.push_back(
            {k, x->dump(), y->dump(), a != 0 ? std::optional<double>((z - a) / std::fabs(a)) : std::nullopt});
      } else if (!x || !y || *x != *y) {
        c.metrics.push_back({k, x ? x->dump() : "-", y ? y->dump() : "-", std::nullopt});
      }
    };
    for (const auto& [k, v] : p.metrics) {
      const auto f = before.find(k);
      check(k, f == before.end() ? nullptr : f->second, &v);
      if (f != before.end()) before.erase(f);
    }
    for (const auto& [k, v] : b.metrics)
      if (before.count(k)) check(k, &v, nullptr);  // measured by the baseline only
    if (!c.metrics.empty())
      r.changed.push_back(std::move(c));
    else
      r.within += moved_within ? 1 : 0;
  }
  r.unchanged = r.compared - r.changed.size();
  for (const auto& b : baseline)
    if (!seen.count(b.id)) r.missing.push_back(b.label);
  return r;
}

std::string Regression::table() const {
  std::string out;
  for (const auto& c : changed) {
    out += fmt::format("changed  {}{}\n", c.label, c.why.empty() ? "" : "  (" + c.why + ")");
    size_t wm = 0, wb = 0, wa = 0;
    for (const auto& m : c.metrics) {
      wm = std::max(wm, m.metric.size());
      wb = std::max(wb, m.before.size());
      wa = std::max(wa, m.after.size());
    }
    for (const auto& m : c.metrics) {
      const bool from_zero = !m.relative && (m.before == "0" || m.before == "0.0") && m.after != "-";
      const std::string change = m.relative ? percent(*m.relative) : from_zero ? "(was 0)" : "";
      out += fmt::format("    {:<{}}  {:>{}} → {:<{}}  {}", m.metric, wm, m.before, wb, m.after, wa, change);
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += "\n";
    }
  }
  for (const auto& f : failed) out += fmt::format("failed   {}: {}\n", f.label, f.why);
  for (const auto& n : fresh) out += fmt::format("new      {} (not in the baseline)\n", n);
  for (const auto& m : missing) out += fmt::format("missing  {} (in the baseline, not in the new run)\n", m);
  return out;
}

std::string Regression::summary() const {
  const std::string within_text = within ? fmt::format(", {} of them moved within it", within) : "";
  auto points = [](size_t n) { return fmt::format("{} point{}", n, n == 1 ? "" : "s"); };
  if (clean())
    return fmt::format("all {} unchanged (tolerance {}{}); {} new, 0 missing from the new run", points(compared),
                       tolerance, within_text, fresh.size());
  return fmt::format("{} unchanged, {} changed, {} failed, {} new, {} missing from the new run (tolerance {}{})",
                     points(unchanged), changed.size(), failed.size(), fresh.size(), missing.size(), tolerance,
                     within_text);
}

}  // namespace wn
