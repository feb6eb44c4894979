#include "app/options.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "systemc/core/config_error.h"
#include "systemc/core/router_types.h"
#include "systemc/network/router_pool.h"
#include "systemc/topology/topology.h"

namespace wn::cli {

CLI::Validator uint_in(uint64_t min, uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& s) -> std::string {
        const std::string allowed = fmt::format("allowed: an integer {}..{}", min, max);
        if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
          return fmt::format("'{}' is not allowed; {}", s, allowed);
        errno = 0;
        const unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
        if (errno == ERANGE || v < min || v > max) return fmt::format("{} is out of range; {}", s, allowed);
        // Decimal means decimal: CLI11 would read "017" as octal 15, so it gets "17".
        s = std::to_string(v);
        return {};
      },
      fmt::format("INT in [{} - {}]", min, max));
}

uint64_t decimal(const std::string& text, uint64_t min, uint64_t max, const std::string& field,
                 const std::string& allowed) {
  std::string s = text;
  if (!uint_in(min, max)(s).empty())
    throw ConfigError(field, fmt::format("'{}' is not allowed; allowed: {}", text, allowed));
  return std::stoull(s);
}

CLI::Validator real_in(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& s) -> std::string {
        const std::string allowed = fmt::format("allowed: a number {}..{}", min, max);
        // Decimal only: strtod also reads hex floats (0x0.4p0), infinities and nan.
        if (s.empty() || s.find_first_not_of("0123456789.eE+-") != std::string::npos)
          return fmt::format("'{}' is not allowed; {}", s, allowed);
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(s.c_str(), &end);
        if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
          return fmt::format("'{}' is not allowed; {}", s, allowed);
        if (v < min || v > max) return fmt::format("{} is out of range; {}", s, allowed);
        s = fmt::format("{}", v);  // the shortest text of the same double: what CLI11 converts
        return {};
      },
      fmt::format("NUMBER in [{} - {}]", min, max));
}

void add_traffic_options(CLI::App* cmd, TrafficOptions& opt, std::string& backend) {
  cmd->add_option("--topology", opt.topology, "mesh:AxB[xC] | torus:AxB[xC] | cube:D")->capture_default_str();
  cmd->add_option("--backend", backend, "rtl | model | lockstep")->capture_default_str();
  add_uint(cmd, "--vcs", opt.net.vcs, "virtual channels per port (even on a torus)", 1, kMaxVcs);
  add_uint(cmd, "--buf", opt.net.buf, "buffer depth per VC in flits", 1, kMaxBuf);
  cmd->add_option("--pattern", opt.pattern, "uniform|transpose|bitcomp|bitrev|tornado|neighbor|hotspot")
      ->capture_default_str();
  add_uint(cmd, "--hotspot-node", opt.pattern_opt.hotspot_node, "hotspot pattern: target node", 0, 1u << 20);
  add_real(cmd, "--hotspot-fraction", opt.pattern_opt.hotspot_fraction, "hotspot pattern: share to the hotspot", 0, 1);
  add_uint(cmd, "--packet-flits", opt.packet_flits, "packet length in flits", 1, 4096);
  add_uint(cmd, "--cycles", opt.cycles, "measurement window in cycles", 1, kMaxCycles);
  add_uint(cmd, "--warmup", opt.warmup, "warm-up cycles before the window", 0, kMaxCycles);
  add_uint(cmd, "--seed", opt.seed, "seed of every random choice", 0, UINT64_MAX);
}

void add_threads_option(CLI::App* cmd, int& threads) {
  threads = default_threads();
  add_uint(cmd, "--threads", threads,
           "threads evaluating each cycle's routers (results are identical for any number; a small network uses "
           "fewer)",
           1, 256);
}

void add_traffic_run_options(CLI::App* cmd, TrafficOptions& opt, std::string& backend, bool& no_dateline) {
  add_traffic_options(cmd, opt, backend);
  cmd->add_option("--ports", opt.ports, "port model: one | all | K channels")->capture_default_str();
  add_real(cmd, "--rate", opt.rate, "offered load, flits/node/cycle (at most --packet-flits)", 0, 4096);
  add_uint(cmd, "--drain", opt.drain, "max cycles to drain after the window (0: 10 x (warmup+cycles))", 0, kMaxCycles);
  add_uint(cmd, "--watchdog", opt.watchdog, "deadlock: cycles without flit movement (0: off)", 0, kMaxCycles);
  add_uint(cmd, "--source-queue-limit", opt.source_queue_limit,
           "packets each node's source queue holds; one created at a full queue is refused and counted (0: no limit)",
           0, UINT32_MAX);
  cmd->add_flag("--explain-deadlock", opt.explain_deadlock,
                "track every flit so a deadlock report names the cycle of waits (slower)");
  cmd->add_flag("--no-dateline", no_dateline, "debug: disable torus dateline VC classes (tori can deadlock)");
}

void word_deadlock_hint(TrafficOptions& opt) {
  opt.deadlock_hint =
      fmt::format("rerun with --explain-deadlock (seed {} reproduces this run) for the wait-for analysis", opt.seed);
}

std::string collective_deadlock_hint() { return "rerun with --explain-deadlock for the wait-for analysis"; }

void check_traffic_reads(const CLI::App* cmd, const TrafficOptions& opt, bool no_dateline) {
  auto given = [&](const char* name) {
    const CLI::Option* o = cmd->get_option_no_throw(name);
    return o && o->count() > 0;
  };
  for (const char* flag : {"--hotspot-node", "--hotspot-fraction"})
    if (given(flag) && opt.pattern != "hotspot")
      throw ConfigError(flag, fmt::format("read only by the hotspot pattern, and --pattern is {}; allowed: {} with "
                                          "--pattern hotspot",
                                          opt.pattern, flag));
  if (no_dateline && Topology::parse(opt.topology).kind() != TopoKind::Torus)
    throw ConfigError("--no-dateline",
                      fmt::format("{} has no dateline; allowed: --no-dateline on a torus", opt.topology));
  if (given("--trace") && opt.net.backend == Backend::Model)
    throw ConfigError("--trace",
                      "the model backend has no RTL signals to trace; allowed: --trace with --backend rtl "
                      "or lockstep");
}

std::vector<std::string> split_list(const std::string& s, const std::string& field) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ',')) {
    if (x.empty()) throw ConfigError(field, fmt::format("'{}' has an empty item; allowed: a comma-separated list", s));
    v.push_back(x);
  }
  if (v.empty()) throw ConfigError(field, "empty list; allowed: one or more comma-separated values");
  return v;
}

}  // namespace wn::cli
