// `wormnet sweep`: the same traffic for several port models and loads, side
// by side (each point is its own co-simulation, run in a forked child).
#include <fmt/format.h>

#include <map>
#include <set>
#include <sstream>

#include "app/commands.h"
#include "app/options.h"
#include "app/regression_output.h"
#include "app/sweep_spec.h"
#include "experiments/report_file.h"
#include "experiments/sweep.h"
#include "experiments/traffic_run.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

namespace {
// Offered loads: finite numbers 0..packet-flits (run_traffic checks the upper bound per point).
std::vector<double> parse_rates(const std::string& text) {
  std::vector<double> out;
  for (const auto& item : split_list(text, "--rates")) {
    std::string s = item;
    if (const std::string err = real_in(0, 4096)(s); !err.empty()) throw ConfigError("--rates", err);
    out.push_back(std::stod(item));
  }
  return out;
}
}  // namespace

void add_sweep_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners) {
  auto* cmd = app.add_subcommand("sweep",
                                 "run a YAML sweep spec (docs/sweeps.md), or compare port models over a range "
                                 "of loads (one-port vs all-port table)");
  auto opt = std::make_shared<TrafficOptions>();
  auto ports = std::make_shared<std::string>("one,all");
  auto rates = std::make_shared<std::string>("0.1,0.2,0.3,0.4,0.5");
  auto backend = std::make_shared<std::string>("model");
  auto json = std::make_shared<std::string>();
  opt->cycles = 5000;
  opt->warmup = 1000;
  opt->drain = 1;  // throughput is measured in the window; saturated points are not drained
  add_traffic_options(cmd, *opt, *backend);
  cmd->add_option("--ports", *ports, "comma-separated port models (one, all, K)")->capture_default_str();
  cmd->add_option("--rates", *rates, "comma-separated offered loads, flits/node/cycle")->capture_default_str();
  cmd->add_option("--json", *json, "write all points as JSON");
  // The spec form (app/sweep_spec_command.cpp); without a spec, the rate sweep above. The rate
  // sweep's options are the first `rate_opts`; given with a spec they would be silently ignored.
  const size_t rate_opts = cmd->get_options().size();
  auto sa = std::make_shared<SpecSweepArgs>();
  cmd->add_option("spec", sa->spec, "SPEC.yaml: a sweep spec (command, parameters as values, lists or ranges)");
  add_uint(cmd, "-j,--jobs", sa->jobs, "spec: points run at once (0: the core count; results never depend on it)", 0,
           1024);
  cmd->add_option("--out", sa->out, "spec: results file, JSON lines, appended and resumed (default: SPEC.jsonl here)");
  cmd->add_option("--shard", sa->shard, "spec: only points I, I+N, I+2N, ... (I/N; --emit writes these)");
  cmd->add_option("--emit", sa->emit, "spec: write a job list instead of running: parallel DIR | slurm DIR")
      ->expected(2);
  add_uint(cmd, "--chunks", sa->chunks, "--emit: tasks the points are split into (0: at most 64)", 0, 1u << 20);
  add_uint(cmd, "--throttle", sa->throttle, "--emit slurm: array tasks running at once", 1, 1u << 20);
  cmd->add_option("--merge", sa->merge, "results files to merge into --out (duplicates dropped; with SPEC: gaps named)")
      ->expected(1, 1 << 20);
  cmd->add_option("--summarize", sa->summarize, "results file to summarize");
  cmd->add_option("--by", sa->by, "--summarize: parameters to group by")->capture_default_str();
  cmd->add_option("--csv", sa->csv, "--summarize: also write the table as CSV");
  cmd->add_option("--baseline", sa->baseline,
                  "SPEC.yaml, --merge: results file to compare every point with (a regression: exit 1 when a "
                  "number moved); --summarize: KEY=VALUE group the speed-up is measured against");
  add_real(cmd, "--tolerance", sa->tolerance,
           "--baseline FILE: relative change a number may move by (0: any change counts; 0.01: 1 %)", 0, 1000);
  runners["sweep"] = [=]() {
    const auto all_opts = cmd->get_options();
    const bool spec_form = !sa->spec.empty() || !sa->merge.empty() || !sa->summarize.empty();
    for (size_t i = 0; i < all_opts.size(); ++i) {
      const auto* o = all_opts[i];
      if (o->count() == 0 || o->get_name() == "--help") continue;
      if (spec_form && i < rate_opts && i > 0)
        throw ConfigError(o->get_name(),
                          "given with a spec, --merge or --summarize; allowed: put it in the spec "
                          "(the rate-sweep options need no spec)");
      if (!spec_form && i >= rate_opts)
        throw ConfigError(o->get_name(),
                          "given without SPEC.yaml, --merge or --summarize; allowed: "
                          "wormnet sweep SPEC.yaml " +
                              o->get_name() + " ...");
    }
    if (spec_form) {
      // Each form of the spec sweep reads its own options; the others would be ignored, so they are refused.
      const bool merge = !sa->merge.empty(), summarize = !sa->summarize.empty(), emit = !sa->emit.empty();
      if ((summarize && (merge || emit || !sa->spec.empty())) || (merge && emit))
        throw ConfigError(summarize ? "--summarize" : "--emit",
                          "one form at a time; allowed: one of SPEC.yaml [--emit], "
                          "[SPEC.yaml] --merge FILES, --summarize FILE");
      const std::string form = merge ? "--merge" : summarize ? "--summarize" : emit ? "--emit" : "SPEC.yaml";
      const std::map<std::string, std::set<std::string>> reads = {
          {"--merge", {"--merge", "--out", "spec", "--baseline", "--tolerance"}},
          {"--summarize", {"--summarize", "--by", "--csv", "--baseline"}},
          {"--emit", {"spec", "--emit", "--chunks", "--throttle"}},
          {"SPEC.yaml", {"spec", "--jobs", "--out", "--shard", "--baseline", "--tolerance"}}};
      for (size_t i = rate_opts; i < all_opts.size(); ++i) {
        const auto* o = all_opts[i];
        if (o->count() == 0 || reads.at(form).count(o->get_name())) continue;
        std::string allowed;
        for (const auto& n : reads.at(form)) allowed += (allowed.empty() ? "" : ", ") + n;
        throw ConfigError(o->get_name(), fmt::format("not read by sweep {}; allowed: {}", form, allowed));
      }
      check_tolerance_read(cmd->count("--tolerance") > 0, sa->baseline);
      if (emit && cmd->count("--throttle") && sa->emit[0] != "slurm")
        throw ConfigError("--throttle", "read only by --emit slurm; allowed: --throttle with --emit slurm DIR");
    }
    if (!sa->merge.empty()) return run_merge(*sa);
    if (!sa->summarize.empty()) return run_summarize(*sa);
    if (!sa->spec.empty() && !sa->emit.empty()) return run_emit(*sa);
    if (!sa->spec.empty()) return run_spec_sweep(*sa);
    opt->net.backend = parse_backend(*backend);
    const auto port_list = split_list(*ports, "--ports");
    const auto rate_list = parse_rates(*rates);
    check_writable(*json, "--json");
    fmt::print("seed {}\n", opt->seed);
    fmt::print("wormnet sweep  topology={} pattern={} packet-flits={} vcs={} buf={} backend={} window={} cycles\n",
               opt->topology, opt->pattern, opt->packet_flits, opt->net.vcs, opt->net.buf, *backend, opt->cycles);
    fmt::print("{:>8}", "offered");
    for (const auto& p : port_list) fmt::print(" | {:>9} {:>9} {:>9}", p + "-port", "latency", "total");
    fmt::print("\n{:>8}", "");
    for (size_t i = 0; i < port_list.size(); ++i) fmt::print(" | {:>9} {:>9} {:>9}", "accepted", "network", "latency");
    fmt::print("\n");
    std::vector<SweepPoint> points;
    for (double rate : rate_list)
      for (const auto& p : port_list) {
        TrafficOptions o = *opt;
        o.ports = p;
        o.rate = rate;
        word_deadlock_hint(o);
        points.push_back({fmt::format("rate {} ports {}", rate, p), [o] { return run_traffic(o).to_json(); }});
      }
    bool ok = true;
    const auto all = run_sweep(points, [&](size_t i, const nlohmann::json& j) {
      const size_t port = i % port_list.size();
      if (port == 0) fmt::print("{:>8.3f}", rate_list[i / port_list.size()]);
      ok = ok && j["ok"].get<bool>();
      fmt::print(" | {:>9.4f} {:>9.1f} {:>9.1f}", j["throughput"]["accepted"].get<double>(),
                 j["network_latency"]["avg"].get<double>(), j["total_latency"]["avg"].get<double>());
      if (port + 1 == port_list.size()) fmt::print("\n");
      std::fflush(stdout);
    });
    fmt::print(
        "(accepted: flits/node/cycle in the window; latencies: average cycles of packets created in the "
        "window and delivered)\n");
    write_json_report(*json, {{"schema", "wormnet.sweep/1"}, {"points", all}});
    return ok ? 0 : 1;
  };
}

}  // namespace wn::cli
