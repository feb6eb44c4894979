// Reading the points a tau fit uses: a compare report's summary rows (its runs name the topology
// and the machine profile) or a sweep's result lines of run points.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "algorithms/registry.h"
#include "experiments/tau_fit.h"

namespace wn::tau {

namespace {

const char* const kInputAllowed =
    "allowed: a compare report (wormnet compare --json) or a sweep results file of run points";

const alg::AlgorithmInfo* builtin(const std::string& name) {
  for (const auto& a : alg::algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

bool is_number_at(const nlohmann::json& j, const char* k) { return j.is_object() && j.contains(k) && j[k].is_number(); }
// An unsigned integer no larger than `max` (a number from a file is converted only then).
bool is_uint_at(const nlohmann::json& j, const char* k, uint64_t max) {
  if (!j.is_object() || !j.contains(k) || !j[k].is_number_integer()) return false;
  return j[k].is_number_unsigned() ? j[k].get<uint64_t>() <= max
                                   : j[k].get<int64_t>() >= 0 && uint64_t(j[k].get<int64_t>()) <= max;
}
bool is_string_at(const nlohmann::json& j, const char* k) { return j.is_object() && j.contains(k) && j[k].is_string(); }

// The run's profile as the series needs it; ConfigError(where) when a field is missing.
void take_profile(Series& s, const nlohmann::json& config, const std::string& where) {
  const nlohmann::json& p = config.contains("profile") ? config["profile"] : nlohmann::json();
  if (!is_string_at(p, "name") || !is_number_at(p, "clock_ns") || !is_number_at(p, "alpha") ||
      !is_number_at(p, "gamma") || !is_uint_at(p, "bytes_per_flit", 64) || !(p["clock_ns"].get<double>() > 0))
    throw ConfigError(where, fmt::format("has no config.profile {{name, clock_ns, alpha, gamma, bytes_per_flit}}; {}",
                                         kInputAllowed));
  s.profile = p["name"].get<std::string>();
  s.profile_json = p;
  s.clock_ns = p["clock_ns"].get<double>();
  s.alpha = p["alpha"].get<double>();
  s.gamma = p["gamma"].get<double>();
  s.bytes_per_flit = p["bytes_per_flit"].get<int>();
}

std::string identity(const Series& s) {
  return nlohmann::json{{"v", s.variant}, {"a", s.algorithm}, {"o", s.options},
                        {"p", s.ports},   {"t", s.topology},  {"f", s.profile_json}}
      .dump();
}

// The series `s` belongs to in `out` (rows of one series come in any order): found by its
// identity, or appended without points.
Series& series_for(const Series& s, std::vector<Series>& out, std::map<std::string, size_t>& index) {
  const auto [it, fresh] = index.emplace(identity(s), out.size());
  if (fresh) out.push_back(s);
  return out[it->second];
}

// A run line's measured T.
double metric_of(const nlohmann::json& run, Metric m, const std::string& where) {
  const char* key = m == Metric::max_latency ? "maximum_cycles" : "average_cycles";
  if (m == Metric::cycles ? !is_number_at(run, "cycles")
                          : !(run.contains("latency") && is_number_at(run["latency"], key)))
    throw ConfigError(
        where,
        fmt::format("has no {}; {}", m == Metric::cycles ? "cycles" : std::string("latency.") + key, kInputAllowed));
  return m == Metric::cycles ? run["cycles"].get<double>() : run["latency"][key].get<double>();
}

std::vector<Series> from_sweep_lines(const std::vector<nlohmann::json>& lines, const std::string& path, Metric m) {
  std::vector<Series> out;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& j = lines[i];
    const std::string where = fmt::format("{}: line {}", path, i + 1);
    const std::string command = is_string_at(j, "command") ? j["command"].get<std::string>() : "";
    if (command != "run")
      throw ConfigError(where, fmt::format("field \"command\" is '{}'; allowed: run (a sweep of run points; a "
                                           "compare report as written by compare --json)",
                                           command));
    // A point whose process died has no config to place it by: it can only be left out.
    if (!j.value("ok", false) && !j.contains("config")) continue;
    const auto& c = j.contains("config") ? j["config"] : nlohmann::json();
    if (!is_string_at(c, "algorithm") || !is_string_at(c, "ports") || !is_string_at(c, "topology") ||
        !is_uint_at(c, "bytes", UINT32_MAX))
      throw ConfigError(where, fmt::format("has no config {{algorithm, ports, topology, bytes}}; {}", kInputAllowed));
    Series s;
    s.algorithm = c["algorithm"].get<std::string>();
    s.variant = s.algorithm;
    // The family options the sweep varied name the variant, as compare names its listed ones.
    const alg::AlgorithmInfo* info = builtin(s.algorithm);
    if (info && j.contains("params") && j["params"].is_object())
      for (const auto& [k, v] : j["params"].items())
        if (alg::reads_option(*info, "--" + k) && (v.is_string() || v.is_number())) {
          const std::string text = v.is_string() ? v.get<std::string>() : v.dump();  // --radix 4: a number
          s.options["--" + k] = text;
          s.variant += "/" + text;
        }
    s.ports = c["ports"].get<std::string>();
    s.topology = c["topology"].get<std::string>();
    take_profile(s, c, where);
    s.input = path;
    Series& into = series_for(s, out, index);
    if (!j.value("ok", false)) {
      ++into.failed;
      continue;
    }
    into.points.push_back({c["bytes"].get<uint32_t>(), metric_of(j, m, where)});
  }
  return out;
}

}  // namespace

std::vector<Series> series_of_compare(const nlohmann::json& report, const std::string& input, Metric m) {
  const bool compare = is_string_at(report, "schema") &&
                       report["schema"].get<std::string>().rfind("wormnet.compare/", 0) == 0 &&
                       report.contains("summary") && report["summary"].is_array() && report.contains("runs") &&
                       report["runs"].is_array();
  if (!compare)
    throw ConfigError(input, fmt::format("is not a compare report (field \"schema\" {}, with summary and runs); {}",
                                         report.is_object() && report.contains("schema") ? report["schema"].dump()
                                                                                         : std::string("missing"),
                                         kInputAllowed));
  if (report["runs"].empty()) throw ConfigError(input, fmt::format("has no runs; {}", kInputAllowed));
  // One compare is one topology and one profile: its runs say which.
  const auto& c0 = report["runs"][0].contains("config") ? report["runs"][0]["config"] : nlohmann::json();
  if (!is_string_at(c0, "topology"))
    throw ConfigError(input, fmt::format("runs[0] has no config.topology; {}", kInputAllowed));
  Series proto;
  proto.topology = c0["topology"].get<std::string>();
  take_profile(proto, c0, input + ": runs[0]");
  proto.input = input;
  std::vector<Series> out;
  std::map<std::string, size_t> index;
  const char* key = m == Metric::max_latency ? "mean_maximum" : "mean_average";
  for (size_t i = 0; i < report["summary"].size(); ++i) {
    const auto& row = report["summary"][i];
    const std::string where = fmt::format("{}: summary row {}", input, i);
    if (!is_string_at(row, "variant") || !is_string_at(row, "algorithm") || !is_string_at(row, "ports") ||
        !is_uint_at(row, "bytes", UINT32_MAX) || !is_number_at(row, "sources") || !is_number_at(row, "data_ok") ||
        !is_number_at(row, "mean_cycles") || !row.contains("latency_cycles") ||
        !is_number_at(row["latency_cycles"], key))
      throw ConfigError(where, fmt::format("has no variant, algorithm, ports, bytes, sources, data_ok, mean_cycles "
                                           "and latency_cycles.{}; {}",
                                           key, kInputAllowed));
    Series s = proto;
    s.algorithm = row["algorithm"].get<std::string>();
    s.variant = row["variant"].get<std::string>();
    s.ports = row["ports"].get<std::string>();
    if (row.contains("options") && row["options"].is_object()) s.options = row["options"];
    Series& into = series_for(s, out, index);
    if (row["data_ok"] != row["sources"]) {
      ++into.failed;
      continue;
    }
    const double t = m == Metric::cycles ? row["mean_cycles"].get<double>() : row["latency_cycles"][key].get<double>();
    into.points.push_back({row["bytes"].get<uint32_t>(), t});
  }
  return out;
}

std::vector<Series> read_series(const std::string& path, const ConfigField& field, Metric m) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  const char* why = !std::filesystem::exists(st)             ? "does not exist"
                    : std::filesystem::is_directory(st)      ? "is a directory"
                    : !std::filesystem::is_regular_file(st)  ? "is not a regular file"
                    : !std::ifstream(path, std::ios::binary) ? "cannot be opened"
                                                             : nullptr;
  if (why) throw ConfigError(field, fmt::format("{} {}; {}", path, why, kInputAllowed));
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  // One document (a compare report) or one per line (a sweep's results).
  nlohmann::json whole = nlohmann::json::parse(text, nullptr, false);
  if (!whole.is_discarded() && !(whole.is_object() && whole.contains("command")))
    return series_of_compare(whole, path, m);
  std::vector<nlohmann::json> lines;
  std::istringstream in(text);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      throw ConfigError(field, fmt::format("{}: line {} is not JSON; {}", path, n, kInputAllowed));
    lines.push_back(std::move(j));
  }
  if (lines.empty()) throw ConfigError(field, fmt::format("{} is empty; {}", path, kInputAllowed));
  return from_sweep_lines(lines, path, m);
}

std::vector<Series> merge_series(std::vector<Series> all) {
  std::vector<Series> out;
  std::map<std::string, size_t> index;
  for (auto& s : all) {
    const auto [it, fresh] = index.emplace(identity(s), out.size());
    if (fresh) {
      out.push_back(std::move(s));
      continue;
    }
    Series& into = out[it->second];
    into.points.insert(into.points.end(), s.points.begin(), s.points.end());
    into.failed += s.failed;
    if (into.input != s.input) into.input += "," + s.input;
  }
  return out;
}

}  // namespace wn::tau
