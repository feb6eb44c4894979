#include "app/commands.h"
#include "app/options.h"
#include "app/progress.h"
#include "systemc/topology/channel_dependency.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <map>

#include "algorithms/registry.h"
#include "algorithms/schedule_file.h"
#include "experiments/report_file.h"
#include "experiments/traffic_run.h"
#include "firmware/machine_profile.h"
#include "systemc/core/config_error.h"
#include "systemc/topology/topology.h"

namespace wn::cli {

std::map<std::string, std::function<int()>>& runners() {
  static std::map<std::string, std::function<int()>> r;
  return r;
}

namespace {

void print_traffic(const TrafficOptions& opt, const TrafficResult& r) {
  fmt::print(
      "wormnet traffic  topology={} ports={} (inj={} ej={}) backend={} vcs={} buf={} pattern={} "
      "rate={} packet-flits={} seed={}\n",
      opt.topology, opt.ports, opt.net.inj, opt.net.ej, backend_name(opt.net.backend), opt.net.vcs, opt.net.buf,
      opt.pattern, opt.rate, opt.packet_flits, opt.seed);
  fmt::print("  cycles simulated      {} (warmup {}, window {}, then drain)\n", r.cycles_simulated, opt.warmup,
             opt.cycles);
  fmt::print("  packets               {} created, {} delivered{}{}\n", r.packets_created, r.packets_delivered,
             opt.source_queue_limit ? fmt::format(", {} refused (source queue full: --source-queue-limit {})",
                                                  r.packets_refused, opt.source_queue_limit)
                                    : "",
             r.drained ? "" : "  (drain limit reached: network saturated)");
  fmt::print("  offered / accepted    {:.4f} / {:.4f} flits/node/cycle\n", r.offered, r.accepted);
  fmt::print("  network latency       avg {:.2f}  p50 {}  p99 {}  max {} cycles ({} packets)\n", r.network_latency.avg,
             r.network_latency.p50, r.network_latency.p99, r.network_latency.max, r.network_latency.count);
  fmt::print("  total latency         avg {:.2f}  p50 {}  p99 {}  max {} cycles (incl. source queueing)\n",
             r.total_latency.avg, r.total_latency.p50, r.total_latency.p99, r.total_latency.max);
  fmt::print("  average hops          {:.3f}\n", r.avg_hops);
  uint64_t imin = UINT64_MAX, imax = 0, emin = UINT64_MAX, emax = 0;
  for (size_t i = 0; i < r.node_injected.size(); ++i) {
    imin = std::min(imin, r.node_injected[i]);
    imax = std::max(imax, r.node_injected[i]);
    emin = std::min(emin, r.node_ejected[i]);
    emax = std::max(emax, r.node_ejected[i]);
  }
  fmt::print("  per-node flits        injected min {} max {}, ejected min {} max {} (all nodes in --json)\n", imin,
             imax, emin, emax);
  // A deadlocked run delivered only part of its packets: what arrived was checked, the rest never came.
  fmt::print("  scoreboard            {}\n", !r.errors.empty() ? fmt::format("FAIL ({} errors)", r.errors.size())
                                             : r.deadlock
                                                 ? fmt::format("INCOMPLETE ({} of {} packets delivered, those intact)",
                                                               r.packets_delivered, r.packets_created)
                                                 : std::string("PASS (every packet once, in order, intact)"));
  for (const auto& e : r.errors) fmt::print("    {}\n", e);
  if (r.deadlock) fmt::print("  {}\n", r.deadlock_report);
  const double cps = r.wall_seconds > 0 ? double(r.cycles_simulated) / r.wall_seconds : 0;
  fmt::print("  speed                 {:.0f} simulated cycles/s ({:.3f} s wall, {} router evaluations, {} thread{})\n",
             cps, r.wall_seconds, r.router_evals, r.threads, r.threads == 1 ? "" : "s");
}
}  // namespace

void add_traffic_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("traffic", "synthetic traffic through the co-simulated network");
  auto opt = std::make_shared<TrafficOptions>();
  auto backend = std::make_shared<std::string>("model");
  auto json = std::make_shared<std::string>();
  auto no_dateline = std::make_shared<bool>(false);
  add_traffic_run_options(cmd, *opt, *backend, *no_dateline);
  add_threads_option(cmd, opt->net.threads);
  cmd->add_option("--json", *json, "write results as JSON to this file");
  cmd->add_option("--trace", opt->trace, "write an FST waveform of the RTL routers");
  auto progress = std::make_shared<ProgressChoice>();
  add_progress_flags(cmd, *progress);
  runners()["traffic"] = [cmd, opt, backend, json, no_dateline, progress]() {
    opt->net.backend = parse_backend(*backend);
    opt->net.dateline = !*no_dateline;
    check_traffic_reads(cmd, *opt, *no_dateline);
    word_deadlock_hint(*opt);
    check_writable(*json, "--json");
    check_writable(opt->trace, "--trace");
    if (opt->trace == "-") throw ConfigError("--trace", "a waveform is a binary FST file; allowed: a file name");
    fmt::print("seed {}\n", opt->seed);
    if (*no_dateline) {  // a debug switch: say up front whether this network can deadlock now
      const Topology topo = Topology::parse(opt->topology);
      RouterConfig base;
      base.vcs = int(opt->net.vcs);
      base.dateline = false;
      const DependencyGraph g = channel_dependencies(topo, base);
      if (!g.acyclic)
        fmt::print("warning: --no-dateline: the channel dependency graph has a cycle, this run can deadlock: {}\n",
                   describe_cycle(topo, g.cycle, 6));
    }
    TrafficResult r;
    {
      ProgressLine line(*progress);
      opt->progress = line.callback();
      r = run_traffic(*opt);
      opt->progress = nullptr;
      r.options.progress = nullptr;
    }
    print_traffic(r.options, r);
    write_json_report(*json, r.to_json());
    // Verdicts that fail the run also go to stderr, where scripts look for them.
    if (r.deadlock) std::fprintf(stderr, "error: %s", r.deadlock_report.c_str());
    for (const auto& e : r.errors) std::fprintf(stderr, "error: scoreboard: %s\n", e.c_str());
    return r.ok ? 0 : 1;
  };
}

void add_list_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "topologies, traffic patterns, backends, algorithms, profiles, operators");
  (void)cmd;
  runners()["list"] = []() {
    fmt::print("topologies:\n");
    for (const auto& t : topology_kinds()) fmt::print("  {:26} {}\n", t.syntax, t.description);
    fmt::print("traffic patterns:\n");
    for (const auto& p : traffic_patterns()) fmt::print("  {:12} {}\n", p.name, p.description);
    fmt::print(
        "backends:\n  rtl          verilated Verilog routers (rtl/)\n"
        "  model        C++ cycle model, flit-for-flit identical to the RTL\n"
        "  lockstep     both, compared every cycle\n");
    fmt::print("port models:\n  one | all | K   injection = ejection channels per node\n");
    fmt::print("algorithm families (wormnet run/compare/check --algorithm NAME):\n");
    for (const auto& f : alg::families()) {
      fmt::print("  {} family: {}\n    topologies: {}\n", f.name, f.summary, f.topologies);
      for (const auto& o : f.options) {
        std::string allowed;
        for (const auto& c : o.choices) allowed += (allowed.empty() ? "" : "|") + c;
        fmt::print("    {:<12} {} [{}; default {}]\n", o.flag, o.help,
                   o.text            ? std::string("a file")
                   : allowed.empty() ? fmt::format("{}{}..{}", o.keyword.empty() ? "" : o.keyword + "|", o.min, o.max)
                                     : allowed,
                   o.default_value);
      }
      for (const auto& a : f.algorithms) {
        std::string opts = a.params;
        for (const auto& o : a.options) opts += " " + o;
        fmt::print("    {:20} {}\n    {:20}   options: {}\n", a.name, a.summary, "", opts);
        if (!a.aliases.empty()) fmt::print("    {:20}   also: --algorithm {}\n", "", fmt::join(a.aliases, ", "));
      }
    }
    fmt::print(
        "schedule files (wormnet run/compare/check --schedule FILE; written by export and synth --out):\n"
        "  wormnet.schedule/1   your own collective: per-rank steps of sends, receives and local ops, and the\n"
        "                       collective it claims ({}); docs/schedule-format.md\n",
        [] {
          std::string k;
          for (const auto& x : alg::collective_kinds()) k += (k.empty() ? "" : ", ") + x;
          return k;
        }());
    fmt::print("machine profiles (--profile):\n");
    for (const auto& p : fw::machine_profiles())
      fmt::print("  {:8} alpha {:>4} gamma {:>4} cycles, {:>2} B/flit, {:>8.3f} ns/cycle  {}\n", p.name, p.alpha,
                 p.gamma, p.bytes_per_flit, p.clock_ns, p.source);
    fmt::print("reduction operators (--op):\n");
    for (const auto& op : alg::combine_ops())
      if (op.fn) fmt::print("  {:8} {}{}\n", op.name, op.description, op.commutative ? "" : " [non-commutative]");
    return 0;
  };
}

int run_selected(CLI::App& app) {
  for (auto* sub : app.get_subcommands()) {
    auto it = runners().find(sub->get_name());
    if (it != runners().end()) return it->second();
  }
  return 2;
}

}  // namespace wn::cli
