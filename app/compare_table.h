// The rows `wormnet compare` prints: one per point (a single size and source), or per group
// (algorithm x port model x size) the mean over its sources.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "experiments/bus_bandwidth.h"

namespace wn::cli {

// nccl-tests' algbw and busbw (GB/s) at `us`, or "-" for an operation without them.
inline std::string bandwidth_cells(const std::optional<BusBandwidth>& bw, double us) {
  if (!bw || us <= 0) return fmt::format("{:>9} {:>9}", "-", "-");
  return fmt::format("{:>9.4g} {:>9.4g}", bw->algbw_gbps(us), bw->busbw_gbps(us));
}

// Mean over one group's sources (one algorithm x port model x size).
struct GroupStats {
  int runs = 0, ok = 0;
  double avg_latency = 0, max_latency = 0, worst_max = 0, cycles = 0, us_per_cycle = 0;
  double delay[5] = {0, 0, 0, 0, 0};  // stepwise, depth, port, flow, memory (runs with a memory port)
  void add(const nlohmann::json& j) {
    ++runs;
    ok += j["ok"].get<bool>() ? 1 : 0;
    avg_latency += j["latency"]["average_cycles"].get<double>();
    const double mx = j["latency"]["maximum_cycles"].get<double>();
    max_latency += mx;
    worst_max = std::max(worst_max, mx);
    const double c = j["cycles"].get<double>();
    cycles += c;
    if (c > 0) us_per_cycle = j["microseconds"].get<double>() / c;
    const char* cls[4] = {"stepwise", "depth", "port", "flow"};
    for (int k = 0; k < 4; ++k) delay[k] += j["contention"][cls[k]].get<double>();
    if (j["contention"].contains("memory")) delay[4] += j["contention"]["memory"].get<double>();
  }
  double mean(double v) const { return runs ? v / runs : 0; }
};

// `w`: the algorithm column's width (the longest label, at least 20).
// `memory`: the rows have a memory column (--mem-words-per-cycle); `pw` the ports column's width.
inline void print_point_header(int w, bool memory = false, int pw = 5) {
  fmt::print("{:<{}} {:<{}} {:>5} {:>10} {:>12} {:>9} {:>9} {:>10} {:>7} {:>8} {:>5}  {:>9} {:>8} {:>8} {:>7}{}\n",
             "algorithm", w, "ports", pw, "steps", "cycles", "us", "algbw", "busbw", "predicted", "ratio", "speedup",
             "data", "stepwise", "depth", "port", "flow", memory ? fmt::format(" {:>8}", "memory") : std::string());
}

inline std::string point_row(int w, const std::string& a, const std::string& p, const nlohmann::json& j, double first,
                             const std::optional<BusBandwidth>& bw, int pw = 5, bool memory = false) {
  const double cyc = j["cycles"].get<double>(), us = j["microseconds"].get<double>();
  const auto& ct = j["contention"];
  return fmt::format(
      "{:<{}} {:<{}} {:>5} {:>10} {:>12.3f} {} {:>10.0f} {:>7.3f} {:>7.2f}x {:>5}  {:>9} {:>8} {:>8} "
      "{:>7}{}\n",
      a, w, p, pw, j["predicted"]["steps"].get<int>(), j["cycles"].get<uint64_t>(), us, bandwidth_cells(bw, us),
      j["predicted"]["cycles"].get<double>(), j["measured_over_predicted"].get<double>(), cyc > 0 ? first / cyc : 0.0,
      j["data_check"].get<std::string>(), ct["stepwise"].get<uint64_t>(), ct["depth"].get<uint64_t>(),
      ct["port"].get<uint64_t>(), ct["flow"].get<uint64_t>(),
      memory ? fmt::format(" {:>8}", ct.value("memory", uint64_t{0})) : std::string());
}

inline void print_group_header(int w, bool memory = false, int pw = 5) {
  fmt::print(
      "{:<{}} {:<{}} {:>8} {:>10} {:>5} {:>12} {:>9} {:>9} {:>12} {:>12} {:>12} {:>9} {:>12} {:>9} {:>8} {:>8} "
      "{:>8} {:>5}{}\n",
      "algorithm", w, "ports", pw, "bytes", "size", "runs", "time-us", "algbw", "busbw", "avg-lat-us", "max-lat-us",
      "worst-max-us", "vs-first", "cycles", "stepwise", "depth", "port", "flow", "data",
      memory ? fmt::format(" {:>8}", "memory") : std::string());
}

inline std::string group_row(int w, const std::string& a, const std::string& p, uint32_t bytes, const GroupStats& st,
                             double vs, const std::optional<BusBandwidth>& bw, bool memory = false, int pw = 5) {
  const double us = st.us_per_cycle, time = st.mean(st.cycles) * us;
  return fmt::format(
      "{:<{}} {:<{}} {:>8} {:>10} {:>5} {:>12.3f} {} {:>12.3f} {:>12.3f} {:>12.3f} {:>8.2f}x {:>12.1f} {:>9.1f} "
      "{:>8.1f} {:>8.1f} {:>8.1f} {:>5}{}\n",
      a, w, p, pw, bytes, bw ? std::to_string(bw->size_bytes) : "-", st.runs, time, bandwidth_cells(bw, time),
      st.mean(st.avg_latency) * us, st.mean(st.max_latency) * us, st.worst_max * us, vs, st.mean(st.cycles),
      st.mean(st.delay[0]), st.mean(st.delay[1]), st.mean(st.delay[2]), st.mean(st.delay[3]),
      st.ok == st.runs ? "PASS" : "FAIL", memory ? fmt::format(" {:>8.1f}", st.mean(st.delay[4])) : std::string());
}

}  // namespace wn::cli
