#include "experiments/conform.h"

#include <fmt/format.h>

#include "experiments/collective_run.h"
#include "experiments/sweep.h"
#include "experiments/traffic_run.h"
#include "experiments/zero_load.h"
#include "systemc/core/version.h"
#include "systemc/cosim/patterns.h"

namespace wn {

namespace {

// The port models of a topology: one, two (when it has more than two ports) and all.
std::vector<std::string> port_models(const Topology& topo) {
  std::vector<std::string> out = {"one"};
  if (topo.ports() > 2) out.push_back("2");
  out.push_back("all");
  return out;
}

// The collective whose delay view is checked: every node sends to every other, so messages meet
// in the network and at the ports.
constexpr const char* kConformCollective = "direct-alltoall";

// A violation is one line: the first of a multi-line report (a deadlock's wait analysis).
std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

ConformResult run_conform(const ConformOptions& opt) {
  ConformResult res;
  res.options = opt;
  std::vector<SweepPoint> points;
  // Everything resolved first: a bad topology or network fails before any run.
  for (const auto& t : opt.topologies) {
    const NetworkSetup setup = NetworkSetup::resolve(t, "one", opt.net);
    const Topology topo = setup.topology;
    NetworkParams np = setup.params;
    points.push_back({t + " zero-load", [topo, np] {
                        const ZeroLoadTiming z = measure_zero_load(topo, np);
                        const RouterTiming used = router_timing(np, topo.ports());
                        return nlohmann::json{
                            {"P", z.hop_cycles},           {"f", z.flit_cycles},
                            {"used_P", used.hop_cycles()}, {"used_f", used.flit_cycles},
                            {"samples", z.samples.size()}, {"violation", !z.error.empty() ? z.error : z.mismatch}};
                      }});
    res.timing.push_back({topo.name()});
    for (const auto& ports : port_models(topo)) {
      NetworkSetup::resolve(t, ports, opt.net);
      for (const auto& pat : traffic_patterns()) {
        try {
          make_pattern(pat.name, topo);
        } catch (const std::exception&) {
          continue;  // not defined on this topology (bitrev on a non-power of two, ...)
        }
        for (double rate : {opt.low_rate, opt.high_rate}) {
          TrafficOptions o;
          o.topology = t;
          o.ports = ports;
          o.net = opt.net;
          o.pattern = pat.name;
          o.rate = rate;
          o.packet_flits = opt.packet_flits;
          o.cycles = opt.cycles;
          o.warmup = opt.warmup;
          o.watchdog = opt.watchdog;
          o.seed = opt.seed;
          o.explain_deadlock = true;  // the occupancy shadow: a credit overflow stops the run
          points.push_back({fmt::format("{} ports={} {} rate={}", t, ports, pat.name, rate),
                            [o] { return run_traffic(o).to_json(); }});
          res.cases.push_back({topo.name(), ports, pat.name, rate});
        }
      }
    }
    // A collective with contention: its delay view must add up exactly with the router's timing.
    for (const std::string ports : {"one", "all"}) {
      fw::ScheduleRunOptions o;
      o.topology = t;
      o.ports = ports;
      o.net = opt.net;
      o.algorithm = kConformCollective;
      o.bytes = 64;
      o.seed = opt.seed;
      points.push_back(
          {fmt::format("{} ports={} {}", t, ports, o.algorithm), [o] { return fw::run_schedule(o).to_json(false); }});
      res.cases.push_back({topo.name(), ports, o.algorithm, 0});
      res.cases.back().collective = true;
    }
  }
  const auto all = run_sweep(
      points, [](size_t, const nlohmann::json&) {}, opt.jobs, true);
  auto note = [&](const std::string& v) {
    if (res.first_violation.empty() && !v.empty()) res.first_violation = v;
  };
  // Results come in point order: per topology, its zero-load point, then its cases.
  size_t k = 0, cix = 0;
  for (size_t t = 0; t < res.timing.size(); ++t) {
    ConformTiming& ct = res.timing[t];
    const nlohmann::json& z = all[k++];
    if (z.contains("P")) {
      ct.hop_cycles = z["P"];
      ct.flit_cycles = z["f"];
      ct.samples = z["samples"];
      ct.violation = z["violation"];
    } else {
      ct.violation = z.value("error", std::string("the zero-load run failed"));
    }
    if (!ct.violation.empty()) ct.violation = ct.topology + " zero-load: " + first_line(ct.violation);
    if (z.contains("used_P")) ct.used = {z["used_P"].get<int>() - 1, z["used_f"].get<int>()};
    if (ct.violation.empty() && (ct.hop_cycles != z["used_P"] || ct.flit_cycles != z["used_f"]))
      ct.violation = fmt::format(
          "{} zero-load: P = {}, f = {} on the network, but the router's probe gives P = {}, "
          "f = {} (what the delay accounting uses)",
          ct.topology, ct.hop_cycles, ct.flit_cycles, z["used_P"].get<int>(), z["used_f"].get<int>());
    if (ct.violation.empty() && t > 0 &&
        (ct.hop_cycles != res.timing[0].hop_cycles || ct.flit_cycles != res.timing[0].flit_cycles))
      ct.violation =
          fmt::format("{} zero-load: P = {}, f = {}, but {} has P = {}, f = {}", ct.topology, ct.hop_cycles,
                      ct.flit_cycles, res.timing[0].topology, res.timing[0].hop_cycles, res.timing[0].flit_cycles);
    note(ct.violation);
    for (; cix < res.cases.size() && res.cases[cix].topology == ct.topology; ++cix) {
      ConformCase& c = res.cases[cix];
      const nlohmann::json& r = all[k++];
      const std::string name = fmt::format("{} ports={} {} at {}", c.topology, c.ports, c.pattern, c.rate);
      if (c.collective) {
        const std::string cname = fmt::format("{} ports={} {}", c.topology, c.ports, c.pattern);
        if (!r.contains("cycles")) {
          c.violation = cname + ": " + first_line(r.value("error", std::string("the run failed")));
        } else {
          c.latency = r["cycles"];
          c.created = c.delivered = r["messages"];
          if (!r["ok"].get<bool>())
            c.violation = cname + ": " +
                          first_line(r["error"].get<std::string>().empty() ? r["data_error"].get<std::string>()
                                                                           : r["error"].get<std::string>());
        }
      } else if (!r.contains("throughput")) {  // the run itself failed: an overflow, a crash
        c.violation = name + ": " + first_line(r.value("error", std::string("the run failed")));
      } else {
        c.accepted = r["throughput"]["accepted"];
        c.latency = r["network_latency"]["avg"];
        c.created = r["packets"]["created"];
        c.delivered = r["packets"]["delivered"];
        if (r["deadlock"].get<bool>())
          c.violation = name + ": deadlock (no flit moved for the watchdog's cycles)";
        else if (!r["errors"].empty())
          c.violation = name + ": " + first_line(r["errors"][0].get<std::string>());
        else if (!r["drained"].get<bool>() || c.delivered != c.created)
          c.violation = fmt::format("{}: {} of {} packets delivered", name, c.delivered, c.created);
      }
      note(c.violation);
    }
  }
  return res;
}

std::string ConformResult::table() const {
  std::string s = fmt::format("{:<12} {:>3} {:>3} {:>8}  {}\n", "zero-load", "P", "f", "samples", "verdict");
  for (const auto& t : timing)
    s += fmt::format("{:<12} {:>3} {:>3} {:>8}  {}\n", t.topology, t.hop_cycles, t.flit_cycles, t.samples,
                     t.violation.empty() ? "P·(h+1) + f·(F-1) fits every probe" : t.violation);
  s += fmt::format("\n{:<12} {:<5} {:<10} {:>5} {:>9} {:>9} {:>9}  {}\n", "delivery", "ports", "pattern", "rate",
                   "accepted", "latency", "packets", "verdict");
  for (const auto& c : cases)
    if (!c.collective)
      s += fmt::format("{:<12} {:<5} {:<10} {:>5} {:>9.4f} {:>9.2f} {:>9}  {}\n", c.topology, c.ports, c.pattern,
                       c.rate, c.accepted, c.latency, c.delivered, c.violation.empty() ? "ok" : "FAIL");
  s += fmt::format("\n{:<12} {:<5} {:<16} {:>9} {:>9}  {}\n", "delay view", "ports", "collective", "cycles", "messages",
                   "verdict (latency - zero load = the classes, every message)");
  for (const auto& c : cases)
    if (c.collective)
      s += fmt::format("{:<12} {:<5} {:<16} {:>9.0f} {:>9}  {}\n", c.topology, c.ports, c.pattern, c.latency,
                       c.delivered, c.violation.empty() ? "ok" : "FAIL");
  s += "\nsaturation throughput (uniform, offered " + fmt::format("{}", options.high_rate) + " flits/node/cycle):";
  for (const auto& c : cases)
    if (c.pattern == "uniform" && c.rate == options.high_rate)
      s += fmt::format(" {} {} {:.4f};", c.topology, c.ports, c.accepted);
  s += "\n";
  return s;
}

nlohmann::json ConformResult::to_json() const {
  nlohmann::json j = {{"schema", "wormnet.conform/1"},
                      {"wormnet", version_json()},
                      {"config",
                       {{"topologies", options.topologies},
                        {"backend", backend_name(options.net.backend)},
                        {"vcs", options.net.vcs},
                        {"buf", options.net.buf},
                        {"rates", {options.low_rate, options.high_rate}},
                        {"packet_flits", options.packet_flits},
                        {"cycles", options.cycles},
                        {"warmup", options.warmup},
                        {"watchdog", options.watchdog},
                        {"seed", options.seed}}},
                      {"ok", ok()},
                      {"first_violation", first_violation}};
  j["zero_load"] = nlohmann::json::array();
  for (const auto& t : timing)
    j["zero_load"].push_back({{"topology", t.topology},
                              {"hop_cycles", t.hop_cycles},
                              {"flit_cycles", t.flit_cycles},
                              {"used_hop_cycles", t.used.hop_cycles()},
                              {"used_flit_cycles", t.used.flit_cycles},
                              {"samples", t.samples},
                              {"violation", t.violation}});
  j["cases"] = nlohmann::json::array();
  for (const auto& c : cases)
    j["cases"].push_back({{"topology", c.topology},
                          {"ports", c.ports},
                          {"kind", c.collective ? "collective" : "traffic"},
                          {"pattern", c.pattern},
                          {"rate", c.rate},
                          {"accepted", c.accepted},
                          {"latency", c.latency},
                          {"created", c.created},
                          {"delivered", c.delivered},
                          {"violation", c.violation}});
  return j;
}

}  // namespace wn
