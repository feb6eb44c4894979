// A sweep point's options, built by the command's own CLI11 options from the
// point's parameters as if typed: `{bytes: 64}` is `--bytes 64`, checked by
// the same validators and resolved by the same code as a command line.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

#include "algorithms/pipeline.h"
#include "algorithms/registry.h"
#include "algorithms/schedule_checker.h"
#include "app/options.h"
#include "app/param_words.h"
#include "app/run_options.h"
#include "app/sweep_spec.h"
#include "experiments/collective_run.h"
#include "experiments/firmware_plugin.h"
#include "experiments/program_run.h"
#include "experiments/traffic_run.h"
#include "systemc/core/config_error.h"
#include "systemc/cosim/patterns.h"

namespace wn::cli {

namespace {

// Per-point outputs would collide between points; the sweep writes one results file.
const std::set<std::string> kNotSwept = {"help", "json", "csv", "trace"};

// One command's options on a throw-away CLI::App, ready to parse a point.
struct PointCli {
  CLI::App app;
  RunCli run;
  bool simulate = false;
  TrafficOptions traffic;
  std::string backend = "model";
  bool no_dateline = false;
  explicit PointCli(const std::string& command) {
    if (command == "traffic") {
      add_traffic_run_options(&app, traffic, backend, no_dateline);
    } else {
      add_common_options(&app, run, false);
      if (command == "check") app.add_flag("--simulate", simulate, "");
    }
  }
  // CLI11 parses a vector given last-first.
  void parse(const SweepParams& p, const SpecRules& rules) {
    std::vector<std::string> args;
    for (const auto& [k, v] : p) {
      if (rules.flags.count(k)) {
        if (v == "true") args.push_back("--" + k);
      } else {
        args.push_back("--" + k);
        args.push_back(v);
      }
    }
    std::reverse(args.begin(), args.end());
    app.parse(args);
  }
};

nlohmann::json check_point(const fw::ScheduleRunOptions& o, bool simulate) {
  const NetworkSetup net = fw::resolve_network(o);
  const alg::AlgorithmInfo& info = fw::algorithm_of(o);
  int source = 0;
  const alg::AlgorithmArgs args = fw::algorithm_args(o, net, &source);
  const alg::Schedule sched = alg::build_schedule(info, net.topology, args).schedule;
  const alg::ScheduleCheck chk = alg::check_schedule(sched, net.topology, args.ports, info.exactly_once);
  fw::ScheduleRunOptions shown = o;
  shown.algorithm = info.name;  // a schedule file's own name and block
  if (!info.file.empty()) shown.bytes = args.words * 4;
  nlohmann::json j = fw::check_to_json(chk, net.topology, shown, source);
  bool ok = chk.port_overuse.empty() && chk.delivery.empty();
  if (simulate) {
    const fw::ScheduleRunResult r = fw::run_schedule(o, net);
    const fw::SimulatedCheck sc = fw::compare_check(chk, r);
    j["simulated"] = sc.json;
    // The run's own summary too, so --summarize reads latency, cycles and contention as for `run`.
    const nlohmann::json run = r.to_json(false);  // named: items() of a temporary would dangle
    for (const auto& [k, v] : run.items())
      if (!j.contains(k)) j[k] = v;
    ok = ok && sc.agrees && r.ok();
  }
  j["ok"] = ok;
  return j;
}

// "" when the point's algorithm reads `key`; else why not, worded like check_unread_params.
std::string unread_by_point(const SweepParams& p, const std::string& key) {
  const std::string flag = "--" + key;
  if (p.count("firmware")) {
    if (key == "source") return "";
    return fmt::format(
        "not read by firmware of your own (it gets the network, bytes, source and seed); allowed: no {} for "
        "firmware points",
        key);
  }
  if (p.count("schedule")) {
    if (key == "group") return "";
    return fmt::format(
        "not read by a schedule file (it fixes its own root and operators, and belongs to no family); "
        "allowed: no {} for schedule points",
        key);
  }
  const std::string name = p.count("algorithm") ? p.at("algorithm") : fw::ScheduleRunOptions{}.algorithm;
  const alg::AlgorithmInfo* info = nullptr;
  try {
    info = &alg::find_algorithm(name);
  } catch (const ConfigError&) {
    return "";  // the point's own parse names the unknown algorithm
  }
  const bool family = key != "source" && key != "op" && key != "group";
  auto reads = [&](const alg::AlgorithmInfo& a) {
    return family ? alg::reads_option(a, flag) : alg::reads_param(a, flag);
  };
  if (reads(*info)) return "";
  std::string readers;
  for (const auto& a : alg::algorithms())
    if (reads(a)) readers += (readers.empty() ? "" : ", ") + a.name;
  return fmt::format("not read by {}; allowed: no {} (read by {})", name, key, readers.empty() ? "none" : readers);
}

}  // namespace

std::map<std::string, SpecRules> sweep_rules() {
  std::map<std::string, SpecRules> out;
  for (const std::string command : {"run", "check", "traffic"}) {
    PointCli cli(command);
    SpecRules r;
    for (const auto* o : cli.app.get_options()) {
      if (o->get_lnames().empty()) continue;
      const std::string name = o->get_lnames().front();
      if (kNotSwept.count(name)) continue;
      (o->get_expected_max() == 0 ? r.flags : r.options).insert(name);  // add_flag: expected(0)
    }
    // Family flags (--order, ...) live in option groups, which get_options() does not list.
    if (command != "traffic")
      for (const auto& fam : alg::families())
        for (const auto& f : fam.options) r.options.insert(f.flag.substr(2));
    r.sources = command != "traffic";
    if (command != "traffic") {
      r.algorithm_params = {"source", "op", "group"};
      for (const auto& f : alg::all_options()) r.algorithm_params.insert(f.flag.substr(2));
      r.unread = unread_by_point;
    }
    r.default_topology = command == "traffic" ? TrafficOptions{}.topology : fw::ScheduleRunOptions{}.topology;
    out[command] = r;
  }
  return out;
}

std::vector<std::function<nlohmann::json()>> point_jobs(const SweepSpec& spec, const std::string& file) {
  const auto all_rules = sweep_rules();
  // Each distinct value alone first, so a bad one is named by its key rather than by a point.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> values;  // (command, key) -> values
  for (size_t i = 0; i < spec.points.size(); ++i)
    for (const auto& [k, v] : spec.points[i]) values[{spec.commands[i], k}].insert(v);
  for (const auto& [ck, vs] : values)
    for (const auto& v : vs) {
      const auto& [command, k] = ck;
      PointCli cli(command);
      try {
        cli.parse({{k, v}}, all_rules.at(command));
      } catch (const CLI::ParseError& e) {
        throw ConfigError(file + ": " + k, fmt::format("'{}' rejected: {}", v, e.what()));
      }
    }
  std::vector<std::function<nlohmann::json()>> jobs;
  std::set<std::string> built;
  for (size_t i = 0; i < spec.points.size(); ++i) {
    const SweepParams& p = spec.points[i];
    const std::string& command = spec.commands[i];
    auto cli = std::make_shared<PointCli>(command);
    try {
      cli->parse(p, all_rules.at(command));
      if (command == "traffic") {
        TrafficOptions o = cli->traffic;
        o.net.backend = parse_backend(cli->backend);
        o.net.dateline = !cli->no_dateline;
        check_traffic_reads(&cli->app, o, cli->no_dateline);
        word_deadlock_hint(o);
        // The network and the pattern up front, as for a run point (vcs: 3 on a torus is no point).
        const NetworkSetup setup = NetworkSetup::resolve(o.topology, o.ports, o.net);
        make_pattern(o.pattern, setup.topology, o.pattern_opt);
        if (o.rate > o.packet_flits)
          throw ConfigError("--rate",
                            fmt::format("{} is above --packet-flits {}; allowed: 0..packet-flits (at most one "
                                        "new packet per node per cycle)",
                                        o.rate, o.packet_flits));
        jobs.push_back([o] { return run_traffic(o).to_json(); });
        continue;
      }
      const fw::ScheduleRunOptions o = resolve(cli->run);
      if (!o.firmware.empty()) {
        // A plugin: loaded and given its context now, so a library that cannot run fails the spec.
        if (command == "check")
          throw ConfigError("--firmware",
                            "check needs a schedule, and firmware of your own has none; allowed: "
                            "command: run");
        fw::load_plugin(o.firmware);
        fw::program_context(o, fw::resolve_network(o));
        jobs.push_back([o] { return fw::run_schedule(o).to_json(false); });
        continue;
      }
      // No simulation: the network, the algorithm's arguments and its schedule, so a combination
      // the algorithm refuses fails the spec before anything runs. The schedule once per point
      // without its source (a 1024-source sweep builds it once).
      const NetworkSetup net = fw::resolve_network(o);
      const alg::AlgorithmArgs args = fw::algorithm_args(o, net);
      SweepParams shape = p;
      shape.erase("source");
      if (built.insert(point_label(shape)).second) alg::build_schedule(fw::algorithm_of(o), net.topology, args);
      if (command == "check" && !cli->simulate) {
        // As `wormnet check` without --simulate: what only a simulation reads is refused.
        for (const char* flag : {"backend", "max-cycles", "sync", "sends", "barrier-cycles", "no-idle-skip",
                                 "explain-deadlock", "vcs", "buf"})
          if (p.count(flag) &&
              !(cli->run.cmd->get_option("--" + std::string(flag))->get_expected_max() == 0 && p.at(flag) == "false"))
            throw ConfigError(flag, "read only when the schedule is simulated; allowed: with simulate: true");
        check_profile_unread(cli->run, fw::algorithm_of(o), "check without simulate");
      }
      if (command == "check")
        jobs.push_back([o, sim = cli->simulate] { return check_point(o, sim); });
      else
        jobs.push_back([o] { return fw::run_schedule(o).to_json(false); });
    } catch (const CLI::ParseError& e) {
      throw ConfigError(fmt::format("{}: point {} ({})", file, i, point_label(p)), e.what());
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("{}: point {} ({})", file, i, point_label(p)), describe(e));
    }
  }
  return jobs;
}

}  // namespace wn::cli
