// `wormnet run` and `wormnet check`: one collective schedule as node
// firmware on the co-simulation, or checked statically (and simulated).
#include <fmt/format.h>

#include <chrono>

#include "systemc/topology/channel_dependency.h"

#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "algorithms/pipeline.h"
#include "algorithms/schedule_checker.h"
#include "app/commands.h"
#include "app/options.h"
#include "app/progress.h"
#include "app/run_options.h"
#include "experiments/collective_run.h"
#include "experiments/firmware_plugin.h"
#include "experiments/json_stream.h"
#include "experiments/report_file.h"
#include "experiments/sweep.h"
#include "experiments/trace_events.h"
#include "systemc/core/config_error.h"
#include "wormnet/rtl_radices.h"

namespace wn::cli {

void add_run_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  auto* cmd = app.add_subcommand("run", "run a collective algorithm as node firmware, check every word");
  add_common_options(cmd, *c, false);
  auto trace_events = std::make_shared<std::string>();
  cmd->add_option("--trace-events", *trace_events,
                  "write the run's timeline as a Chrome trace-event JSON file (ui.perfetto.dev): each node's "
                  "steps, sends and receives, each channel's packets and waits, flits in flight");
  add_threads_option(cmd, c->opt.net.threads);
  auto progress = std::make_shared<ProgressChoice>();
  add_progress_flags(cmd, *progress);
  runners()["run"] = [c, progress, trace_events]() {
    const fw::ScheduleRunOptions o = resolve(*c);
    if (!o.firmware.empty())
      fw::load_plugin(o.firmware);  // a library that cannot run fails before the seed line
    else if (const auto& info = fw::algorithm_of(o); info.file.empty())
      check_unread_params(*c, {&info});
    if (!o.run.trace.empty() && o.net.backend == Backend::Model)
      throw ConfigError("--trace",
                        "the model backend has no RTL signals to trace; allowed: --trace with --backend rtl "
                        "or lockstep");
    check_writable(c->json, "--json");
    check_writable(o.run.trace, "--trace");
    check_writable(*trace_events, "--trace-events");
    if (o.run.trace == "-") throw ConfigError("--trace", "a waveform is a binary FST file; allowed: a file name");
    if (c->csv == "-")
      throw ConfigError("--csv",
                        "names two files (PREFIX-channels.csv, PREFIX-messages.csv), not one stream; "
                        "allowed: a file name prefix");
    if (!c->csv.empty()) {
      check_writable(c->csv + "-channels.csv", "--csv");
      check_writable(c->csv + "-messages.csv", "--csv");
    }
    fmt::print("seed {}\n", o.seed);
    std::fflush(stdout);  // the seed line before any progress line on a shared terminal
    fw::ScheduleRunResult r;
    {
      ProgressLine line(*progress);
      fw::ScheduleRunOptions with_progress = o;
      with_progress.run.progress = line.callback();
      with_progress.run.timeline = !trace_events->empty();
      r = fw::run_schedule(with_progress);
      r.options.run.progress = nullptr;
    }
    fmt::print("{}", r.summary());
    // Streamed: a report of every message as one document or string would outweigh the run.
    if (!c->json.empty()) stream_json_report(c->json, r.to_json_streamed());
    if (!trace_events->empty())
      stream_report(
          *trace_events, [&r](ReportOut& out) { fw::write_trace_events(r, out); }, "--trace-events");
    if (!c->csv.empty()) {
      stream_report(
          c->csv + "-channels.csv",
          [&r](ReportOut& out) { r.channels_csv([&out](std::string_view s) { out.write(s); }); }, "--csv");
      stream_report(
          c->csv + "-messages.csv",
          [&r](ReportOut& out) { r.messages_csv([&out](std::string_view s) { out.write(s); }); }, "--csv");
    }
    report_failure(r);
    return r.ok() ? 0 : 1;
  };
}

namespace {

// `check --deadlock`: the channel dependency graph of the routing function on the run's network.
int check_deadlock(const RunCli& c, bool no_dateline) {
  fw::ScheduleRunOptions o = resolve(c);
  check_writable(c.json, "--json");
  o.net.dateline = !no_dateline;
  if (no_dateline && Topology::parse(o.topology).kind() != TopoKind::Torus)
    throw ConfigError("--no-dateline", fmt::format("{} has no dateline; allowed: a torus", o.topology));
  const NetworkSetup net = fw::resolve_network(o);
  const Topology& topo = net.topology;
  RouterConfig base;
  base.vcs = o.net.vcs;
  base.dateline = o.net.dateline;
  const auto t0 = std::chrono::steady_clock::now();
  const DependencyGraph g = channel_dependencies(topo, base);
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print(
      "deadlock check {} ({} VC{}{}): {} virtual channels in use, {} dependencies, {} routing states, {:.2f} s\n",
      topo.name(), base.vcs, base.vcs == 1 ? "" : "s",
      topo.kind() == TopoKind::Torus ? (base.dateline ? ", dateline classes" : ", no dateline") : "", g.channels,
      g.edges, g.states, sec);
  if (g.acyclic) {
    fmt::print("acyclic: the routing function cannot deadlock on this network\n");
  } else {
    fmt::print("CYCLE ({} channels): {}\n", g.cycle.size(), describe_cycle(topo, g.cycle));
  }
  nlohmann::json j = {{"schema", "wormnet.deadlock/1"}, {"topology", topo.name()}, {"vcs", base.vcs},
                      {"dateline", base.dateline},      {"acyclic", g.acyclic},    {"channels", g.channels},
                      {"dependencies", g.edges}};
  nlohmann::json cyc = nlohmann::json::array();
  for (const auto& v : g.cycle) cyc.push_back({v.router, v.port, v.vc});
  j["cycle"] = cyc;
  write_json_report(c.json, j);
  return g.acyclic ? 0 : 1;
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  auto* cmd = app.add_subcommand("check",
                                 "static schedule check: per-step channel conflicts, port use, delivery, "
                                 "hops; --simulate also measures it cycle-accurately and compares");
  add_common_options(cmd, *c, false);
  auto simulate = std::make_shared<bool>(false), deadlock = std::make_shared<bool>(false),
       no_dateline = std::make_shared<bool>(false);
  cmd->add_flag("--simulate", *simulate,
                "run the schedule and compare, per step, the delay stepwise contention caused with the prediction");
  cmd->add_flag("--deadlock", *deadlock,
                "instead of a schedule: is the routing function deadlock-free on --topology with --vcs? (the channel "
                "dependency graph, Dally & Seitz; one cycle of channels if not)");
  cmd->add_flag("--no-dateline", *no_dateline, "with --deadlock: torus without the dateline VC classes");
  runners()["check"] = [c, cmd, simulate, deadlock, no_dateline]() {
    // What each form reads; anything else given is refused, never ignored.
    const std::set<std::string> deadlock_reads = {"--deadlock", "--topology", "--vcs", "--no-dateline", "--json"};
    const std::set<std::string> simulation_only = {
        "--backend", "--max-cycles",       "--sync", "--sends", "--barrier-cycles", "--no-idle-skip",
        "--trace",   "--explain-deadlock", "--vcs",  "--buf"};
    for (const CLI::Option* opt : cmd->get_options()) {
      if (opt->count() == 0 || opt->get_lnames().empty()) continue;
      const std::string name = "--" + opt->get_lnames().front();
      if (*deadlock && !deadlock_reads.count(name))
        throw ConfigError(name, "not read by check --deadlock; allowed: --topology, --vcs, --no-dateline, --json");
      if (!*deadlock && !*simulate && simulation_only.count(name))
        throw ConfigError(name, "read only when the schedule is simulated; allowed: with check --simulate");
      if (name == "--csv")
        throw ConfigError(name,
                          "check writes no CSV; allowed: --json (wormnet run --csv writes the per-channel and "
                          "per-message tables)");
    }
    if (*deadlock) return check_deadlock(*c, *no_dateline);
    if (*no_dateline)
      throw ConfigError("--no-dateline", "only with --deadlock; allowed: check --deadlock --no-dateline");
    if (!c->firmware.empty() || cmd->count("--firmware"))
      throw ConfigError("--firmware",
                        "check needs a schedule, and firmware of your own has none; allowed: wormnet "
                        "run --firmware (contention and delay views of the run)");
    fw::ScheduleRunOptions o = resolve(*c);
    // Without a simulation the predictions take the timing of this build's router: a router of
    // your own is not the model's.
    if (!*simulate && kForeignRouter) o.net.backend = Backend::Rtl;
    check_writable(c->json, "--json");
    check_writable(o.run.trace, "--trace");
    if (o.run.trace == "-") throw ConfigError("--trace", "a waveform is a binary FST file; allowed: a file name");
    const NetworkSetup net = fw::resolve_network(o);
    const Topology& topo = net.topology;
    const alg::AlgorithmInfo& info = fw::algorithm_of(o);
    if (info.file.empty()) check_unread_params(*c, {&info});
    if (!*simulate) check_profile_unread(*c, info, "check without --simulate");
    int source = 0;
    const alg::AlgorithmArgs args = fw::algorithm_args(o, net, &source);
    const alg::Schedule sched = alg::build_schedule(info, topo, args).schedule;
    const alg::ScheduleCheck chk = alg::check_schedule(sched, topo, args.ports, info.exactly_once);
    fmt::print("check {} on {} ({} port model: {} channel{}), source {}, {}: {} steps, {} messages\n", info.name,
               topo.name(), o.ports, args.ports, args.ports == 1 ? "" : "s", source,
               info.file.empty() ? fmt::format("{} bytes/block", o.bytes) : "schedule file " + info.file, sched.steps,
               chk.messages);
    o.algorithm = info.name;                           // the file's name in the report (the file itself is o.schedule)
    if (!info.file.empty()) o.bytes = args.words * 4;  // the file's block, as `run` reports it
    fmt::print("{}", alg::format_check(chk, topo));
    nlohmann::json j = fw::check_to_json(chk, topo, o, source);
    // Contention is a finding, not an error; an overused port or a wrong delivery is a broken schedule.
    int rc = chk.port_overuse.empty() && chk.delivery.empty() ? 0 : 1;
    if (*simulate) {
      const fw::ScheduleRunResult r = fw::run_schedule(o, net);
      const fw::SimulatedCheck sc = fw::compare_check(chk, r);
      fmt::print("{}", sc.text);
      j["simulated"] = sc.json;
      report_failure(r);
      if (!sc.agrees || !r.ok()) rc = 1;
    }
    write_json_report(c->json, j);
    return rc;
  };
}

}  // namespace wn::cli
