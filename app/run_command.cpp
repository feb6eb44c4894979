// `wormnet run` and `wormnet compare`: collective schedules as node firmware
// on the co-simulation. Both share the option set below; compare forks one
// simulation per (algorithm, port model) because SystemC elaborates once per
// process.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <sstream>

#include "app/commands.h"
#include "app/options.h"
#include "systemc/core/config_error.h"
#include "algorithms/pipeline.h"
#include "algorithms/schedule_checker.h"
#include "experiments/collective_run.h"
#include "experiments/report_file.h"
#include "experiments/sweep.h"

namespace wn::cli {

namespace {

struct RunCli {
  fw::ScheduleRunOptions opt;
  std::string backend = "model";
  std::string profile = "ideal";
  std::string json;
  std::string csv;
  std::string group;
  std::map<std::string, std::string> family_options;  // every family flag -> text (given or not)
  // Profile overrides (applied when given).
  uint32_t alpha = 0, gamma = 0, max_packet_bytes = 0;
  int bytes_per_flit = 4;
  double clock_ns = 1, copy_cycles = 0, combine_cycles = 0, index_cycles = 0;
  CLI::App* cmd = nullptr;
};

void add_common_options(CLI::App* cmd, RunCli& c, bool list_ok) {
  c.cmd = cmd;
  auto& o = c.opt;
  cmd->add_option("--topology", o.topology, "mesh:AxB[xC] | torus:AxB[xC] | cube:D")->capture_default_str();
  cmd->add_option("--ports", o.ports, list_ok ? "port models to compare, comma-separated (one | all | K)"
                                                  : "port model: one | all | K channels")
      ->capture_default_str();
  cmd->add_option("--algorithm", o.algorithm,
                  list_ok ? "algorithms, comma-separated (wormnet list)" : "collective algorithm (wormnet list)")
      ->capture_default_str();
  cmd->add_option("--source", o.source, "root node of rooted collectives, or random")->capture_default_str();
  add_uint(cmd, "--bytes", o.bytes, "bytes per block / message (whole 32-bit words: a multiple of 4)", 4, 64u << 20);
  cmd->add_option("--op", o.op, "reduction operator: sum | max | min | affine (non-commutative)")->capture_default_str();
  cmd->add_option("--group", c.group, "process group: comma-separated node ids (default: all nodes)");
  // Each family's own options, in an option group named after the family.
  for (const auto& fam : alg::families()) {
    if (fam.options.empty()) continue;
    auto* grp = cmd->add_option_group(fam.name + " family", fam.summary);
    for (const auto& spec : fam.options) {
      if (cmd->get_option_no_throw(spec.flag)) continue;  // declared by an earlier family
      grp->add_option(spec.flag, c.family_options[spec.flag], spec.help + " (default " + spec.default_value + ")");
    }
  }
  cmd->add_option("--profile", c.profile, "machine profile: ideal | ncube2 | t3d | sp1 | cm200")->capture_default_str();
  add_uint(cmd, "--alpha", c.alpha, "override: send startup, cycles", 0, 1'000'000'000);
  add_uint(cmd, "--gamma", c.gamma, "override: receive completion, cycles", 0, 1'000'000'000);
  add_uint(cmd, "--bytes-per-flit", c.bytes_per_flit, "override: body-flit payload in bytes (multiple of 4)", 4, 64);
  add_uint(cmd, "--max-packet-bytes", c.max_packet_bytes, "override: split longer messages (0: one worm)", 0,
           64u << 20);
  add_real(cmd, "--clock-ns", c.clock_ns, "override: ns per network cycle", 1e-6, 1e9);
  add_real(cmd, "--copy-cycles", c.copy_cycles, "override: cycles per word copied", 0, 1e6);
  add_real(cmd, "--combine-cycles", c.combine_cycles, "override: cycles per word combined", 0, 1e6);
  add_real(cmd, "--index-cycles", c.index_cycles,
           "override: cycles per word whose address the processor computes (LocalOp::indexed)", 0, 1e6);
  cmd->add_option("--backend", c.backend, "rtl | model | lockstep")->capture_default_str();
  add_uint(cmd, "--vcs", o.net.vcs, "virtual channels per port (even on a torus)", 1, kMaxVcs);
  add_uint(cmd, "--buf", o.net.buf, "buffer depth per VC in flits", 1, kMaxBuf);
  add_uint(cmd, "--max-cycles", o.run.max_cycles, "stop the run after this many cycles", 1, kMaxCycles);
  add_uint(cmd, "--seed", o.seed, "seed of every random choice (--source random)", 0, UINT64_MAX);
  cmd->add_option("--json", c.json, "write results as JSON to this file");
  if (!list_ok) {
    cmd->add_option("--trace", o.run.trace, "write an FST waveform of the RTL routers");
    cmd->add_option("--csv", c.csv, "write PREFIX-channels.csv and PREFIX-messages.csv");
    cmd->add_flag("--explain-deadlock", o.run.explain_deadlock,
                  "track every flit so a network deadlock report names the cycle of waits (slower)");
  }
}

// The options as the user gave them, with the profile and its overrides resolved.
fw::ScheduleRunOptions resolve(const RunCli& c) {
  fw::ScheduleRunOptions o = c.opt;
  o.net.backend = parse_backend(c.backend);
  o.run.profile = fw::find_profile(c.profile);
  auto given = [&](const char* name) { return c.cmd->count(name) > 0; };
  if (given("--alpha")) o.run.profile.alpha = c.alpha;
  if (given("--gamma")) o.run.profile.gamma = c.gamma;
  if (given("--bytes-per-flit")) o.run.profile.bytes_per_flit = c.bytes_per_flit;
  if (given("--max-packet-bytes")) o.run.profile.max_packet_bytes = c.max_packet_bytes;
  if (given("--clock-ns")) o.run.profile.clock_ns = c.clock_ns;
  if (given("--copy-cycles")) o.run.profile.copy_cycles_per_word = c.copy_cycles;
  if (given("--combine-cycles")) o.run.profile.combine_cycles_per_word = c.combine_cycles;
  if (given("--index-cycles")) o.run.profile.index_cycles_per_word = c.index_cycles;
  fw::validate(o.run.profile);
  for (const auto& [flag, text] : c.family_options)
    if (given(flag.c_str())) o.family_options[flag] = text;
  o.group.clear();
  if (!c.group.empty())
    for (const auto& g : split_list(c.group, "--group")) {
      std::string text = g;
      if (!uint_in(0, 1u << 20)(text).empty())
        throw ConfigError("--group", fmt::format("'{}' is not a node id; allowed: comma-separated node ids", g));
      o.group.push_back(std::stoi(g));
    }
  return o;
}

// A failed run's reason also goes to stderr (the summary on stdout has it too).
void report_failure(const fw::ScheduleRunResult& r) {
  if (!r.run.ok) std::fprintf(stderr, "error: %s\n", r.run.error.c_str());
  else if (!r.data_ok) std::fprintf(stderr, "error: data check FAIL: %s\n", r.data_error.c_str());
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  add_common_options(app.add_subcommand("run", "run a collective algorithm as node firmware, check every word"), *c,
                     false);
  runners()["run"] = [c]() {
    const fw::ScheduleRunOptions o = resolve(*c);
    check_writable(c->json, "--json");
    if (!c->csv.empty()) {
      check_writable(c->csv + "-channels.csv", "--csv");
      check_writable(c->csv + "-messages.csv", "--csv");
    }
    fmt::print("seed {}\n", o.seed);
    const fw::ScheduleRunResult r = fw::run_schedule(o);
    fmt::print("{}", r.summary());
    if (!c->json.empty()) write_json_report(c->json, r.to_json());
    if (!c->csv.empty()) {
      write_report(c->csv + "-channels.csv", r.channels_csv(), "--csv");
      write_report(c->csv + "-messages.csv", r.messages_csv(), "--csv");
    }
    report_failure(r);
    return r.ok() ? 0 : 1;
  };
}

void add_check_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  auto* cmd = app.add_subcommand("check", "static schedule check: per-step channel conflicts, port use, delivery, "
                                         "hops; --simulate also measures it cycle-accurately and compares");
  add_common_options(cmd, *c, false);
  auto simulate = std::make_shared<bool>(false);
  cmd->add_flag("--simulate", *simulate,
                "run the schedule and compare, per step, the delay stepwise contention caused with the prediction");
  runners()["check"] = [c, simulate]() {
    const fw::ScheduleRunOptions o = resolve(*c);
    check_writable(c->json, "--json");
    const NetworkSetup net = fw::resolve_network(o);
    const Topology& topo = net.topology;
    const alg::AlgorithmInfo& info = alg::find_algorithm(o.algorithm);
    int source = 0;
    const alg::AlgorithmArgs args = fw::algorithm_args(o, net, &source);
    const alg::Schedule sched = alg::build_schedule(info, topo, args).schedule;
    const alg::ScheduleCheck chk = alg::check_schedule(sched, topo, args.ports, info.exactly_once);
    fmt::print("check {} on {} ({} port model: {} channel{}), source {}, {} bytes/block: {} steps, {} messages\n",
               o.algorithm, topo.name(), o.ports, args.ports, args.ports == 1 ? "" : "s", source, o.bytes,
               sched.steps, chk.messages);
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

void add_compare_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  c->opt.ports = "one,all";
  add_common_options(app.add_subcommand("compare", "the same job under several port models and/or algorithms"), *c,
                     true);
  runners()["compare"] = [c]() {
    const fw::ScheduleRunOptions base = resolve(*c);
    check_writable(c->json, "--json");
    const auto algos = split_list(base.algorithm, "--algorithm"), ports = split_list(base.ports, "--ports");
    if (algos.empty()) throw ConfigError("--algorithm", "empty list; allowed: names from `wormnet list`");
    if (ports.empty()) throw ConfigError("--ports", "empty list; allowed: one, all, K");
    // Validate every combination up front so a bad name fails before any simulation.
    for (const auto& a : algos) alg::find_algorithm(a);
    // A family flag must be read by at least one of the algorithms; each algorithm gets the ones it reads.
    for (const auto& [flag, text] : base.family_options) {
      bool read = false;
      for (const auto& a : algos) read = read || alg::reads_option(alg::find_algorithm(a), flag);
      if (!read)
        throw ConfigError(flag, fmt::format("none of {} reads it; allowed: an algorithm whose family declares it",
                                            base.algorithm));
    }
    fmt::print("seed {}\n", base.seed);
    fmt::print("wormnet compare  topology={} backend={} profile={} bytes={} source={}\n", base.topology,
               c->backend, base.run.profile.name, base.bytes, base.source);
    fmt::print("{:<20} {:<5} {:>5} {:>10} {:>12} {:>10} {:>7} {:>8} {:>5}  {:>9} {:>8} {:>8} {:>7}\n", "algorithm",
               "ports", "steps", "cycles", "us", "predicted", "ratio", "speedup", "data", "stepwise", "depth", "port",
               "flow");
    std::vector<SweepPoint> points;
    for (const auto& a : algos)
      for (const auto& p : ports) {
        fw::ScheduleRunOptions o = base;
        o.algorithm = a;
        o.ports = p;
        o.family_options.clear();
        for (const auto& [flag, text] : base.family_options)
          if (alg::reads_option(alg::find_algorithm(a), flag)) o.family_options[flag] = text;
        // Summaries only: per-message and per-channel detail (GBs on big cubes) is `wormnet run --json`.
        points.push_back({a + " ports=" + p, [o] { return fw::run_schedule(o).to_json(false); }});
      }
    bool ok = true;
    double first = 0;  // the first port model's cycles of the current algorithm
    const auto all = run_sweep(points, [&](size_t i, const nlohmann::json& j) {
      const std::string& a = algos[i / ports.size()];
      const std::string& p = ports[i % ports.size()];
      const double cyc = j["cycles"].get<double>();
      if (i % ports.size() == 0) first = 0;
      if (first == 0) first = cyc;
      const bool good = j["ok"].get<bool>();
      ok = ok && good;
      const auto& ct = j["contention"];
      fmt::print("{:<20} {:<5} {:>5} {:>10} {:>12.3f} {:>10.0f} {:>7.3f} {:>7.2f}x {:>5}  {:>9} {:>8} {:>8} {:>7}\n", a, p,
                 j["predicted"]["steps"].get<int>(), j["cycles"].get<uint64_t>(), j["microseconds"].get<double>(),
                 j["predicted"]["cycles"].get<double>(), j["measured_over_predicted"].get<double>(),
                 cyc > 0 ? first / cyc : 0.0, j["data_check"].get<std::string>(), ct["stepwise"].get<uint64_t>(),
                 ct["depth"].get<uint64_t>(), ct["port"].get<uint64_t>(), ct["flow"].get<uint64_t>());
      if (!good) fmt::print("  error: {}{}\n", j["error"].get<std::string>(), j["data_error"].get<std::string>());
    });
    fmt::print("stepwise, depth, port, flow: cycles of delay over zero load (delay view), summed over the messages\n");
    write_json_report(c->json, {{"schema", "wormnet.compare/2"}, {"runs", all}});
    return ok ? 0 : 1;
  };
}

}  // namespace wn::cli
