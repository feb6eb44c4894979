// `wormnet compare` runs: every point is one simulation in its own process (SystemC
// elaborates once per process). Built-in algorithms run at every size and source; a schedule
// file fixes its own size and root, so it runs once per port model. With several sources or
// sizes the table shows, per algorithm x port model x size, the mean over the sources of the
// average and maximum latency of Tsai's thesis (its Ch 3 and Ch 4 simulations).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "algorithms/file_algorithm.h"
#include "algorithms/pipeline.h"
#include "algorithms/registry.h"
#include "app/compare_run.h"
#include "app/compare_table.h"
#include "app/compare_variants.h"
#include "app/options.h"
#include "app/regression_output.h"
#include "app/rtl_cost.h"
#include "app/run_options.h"
#include "experiments/bus_bandwidth.h"
#include "experiments/firmware_plugin.h"
#include "experiments/program_run.h"
#include "experiments/report_file.h"
#include "experiments/source_list.h"
#include "experiments/sweep.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

namespace {

// The points of one algorithm x port model x size, averaged in one row.
struct Group {
  size_t variant = 0;
  std::string topology, ports;
  uint32_t bytes = 0;  // a file's is known from its first result
  size_t points = 0;
  GroupStats st;
};

}  // namespace

int run_compare(const RunCli& c, bool with_cost, const RegressionArgs& reg, nlohmann::json* report_out,
                const std::string& command) {
  const fw::ScheduleRunOptions base = resolve(c);
  check_writable(c.json, "--json");
  const CLI::Option* tolerance = c.cmd->get_option_no_throw("--tolerance");  // tau has none
  check_tolerance_read(tolerance && tolerance->count() > 0, reg.baseline);
  const std::vector<RegressionPoint> baseline = reg.baseline.empty()
                                                    ? std::vector<RegressionPoint>{}
                                                    : compare_rows(read_report_baseline(reg.baseline), reg.baseline);
  const bool files_given = c.cmd->count("--schedule") > 0, plugins_given = c.cmd->count("--firmware") > 0;
  const std::vector<std::string> plugins =
      plugins_given ? split_list(base.firmware, "--firmware") : std::vector<std::string>{};
  const std::vector<std::string> algos = (!files_given && !plugins_given) || c.cmd->count("--algorithm") > 0
                                             ? split_list(base.algorithm, "--algorithm")
                                             : std::vector<std::string>{};
  const std::vector<std::string> files =
      files_given ? split_list(base.schedule, "--schedule") : std::vector<std::string>{};
  const auto port_models = split_list(base.ports, "--ports");
  const CLI::Option* mem_opt = c.cmd->get_option_no_throw("--mem-words-per-cycle");
  const std::vector<double> mems = mem_opt && mem_opt->count() > 0
                                       ? parse_mem_words(c.mem_words)
                                       : std::vector<double>{base.run.profile.mem_words_per_cycle};
  const std::vector<PortRow> port_rows = port_rows_of(port_models, mems);
  std::vector<std::string> ports;                                 // row labels
  std::map<std::string, std::pair<std::string, double>> port_of;  // label -> port model, rate
  for (const PortRow& r : port_rows) {
    ports.push_back(r.label);
    port_of[r.label] = {r.ports, r.mem_words};
  }
  const std::vector<uint32_t> sizes = parse_bytes(c.bytes_list);
  std::vector<const alg::AlgorithmInfo*> infos;
  for (const auto& a : algos) infos.push_back(&alg::find_algorithm(a));  // a bad name fails before any simulation
  check_unread_params(c, infos);
  // --topology a,b: every point on each network (a column of its own in the rows' names).
  const auto topologies = split_list(base.topology, "--topology");
  const bool several = topologies.size() > 1;
  if (several && (with_cost || command != "compare"))
    throw ConfigError("--topology", fmt::format("{} networks with {}; allowed: one topology", topologies.size(),
                                                with_cost ? "--cost" : command));
  std::map<std::string, int> nodes_of;  // the network's size does not depend on the port model
  std::map<std::string, std::vector<std::string>> sources_of;
  for (const auto& t : topologies) {
    fw::ScheduleRunOptions one = base;
    one.topology = t;
    one.ports = port_models.front();
    nodes_of[t] = fw::resolve_network(one).topology.nodes();
    auto& src = sources_of[t] = {base.source};
    if (c.sources.empty()) continue;
    src.clear();
    for (int s : parse_sources(c.sources, nodes_of[t], base.seed, "--sources")) src.push_back(std::to_string(s));
  }
  const size_t source_count = sources_of[topologies.front()].size();
  // Areas first: a configuration yosys can not build fails before any simulation.
  std::vector<CostReport> costs;
  if (with_cost)
    costs = synthesize_costs(
        cost_requests(base.topology, base.ports, std::to_string(base.net.vcs), std::to_string(base.net.buf)), c.jobs,
        true, false);

  // A family flag must be read by at least one of the algorithms; each algorithm gets the ones it reads.
  for (const auto& [flag, text] : base.family_options) {
    bool read = false;
    for (const auto& a : algos) read = read || alg::reads_option(alg::find_algorithm(a), flag);
    if (!read)
      throw ConfigError(flag, fmt::format("none of {} reads it; allowed: an algorithm whose family declares it",
                                          algos.empty() ? std::string("the schedule files") : base.algorithm));
  }
  const std::vector<Variant> variants = variants_of(base, algos, files, plugins);
  // nccl-tests' size, algbw and busbw: the operation each variant performs, over how many ranks.
  auto bandwidth = [&](const Variant& v, const std::string& topology, uint64_t bytes) -> std::optional<BusBandwidth> {
    const int nodes = nodes_of[topology];
    if (!v.firmware.empty()) return std::nullopt;  // a plugin's operation is its own
    const alg::AlgorithmInfo& info =
        v.file.empty() ? alg::find_algorithm(v.algo) : alg::schedule_file_algorithm(v.file);
    const int n = !v.file.empty()      ? alg::schedule_file_of(info).ranks
                  : base.group.empty() ? nodes
                                       : int(base.group.size());
    return bus_bandwidth(info, bytes, n);
  };
  // --sort: rows held back and printed in order at the end (within each size when there are several).
  if (c.sort != "none" && c.sort != "time" && c.sort != "busbw" && c.sort != "name")
    throw ConfigError("--sort", fmt::format("'{}'; allowed: none, time, busbw, name", c.sort));
  struct Row {
    uint64_t bytes;
    double time, busbw;
    std::string name, text;
  };
  std::vector<Row> held;
  auto emit = [&](Row r) {
    if (c.sort == "none")
      fmt::print("{}", r.text);
    else
      held.push_back(std::move(r));
  };
  const bool single = source_count == 1 && (sizes.size() == 1 || (algos.empty() && plugins.empty()));
  std::vector<SweepPoint> points;
  std::vector<Group> groups;
  std::vector<size_t> group_of;  // per point
  auto name_of = [&](const Variant& v, const std::string& topology) {
    return several ? v.label + " " + topology : v.label;
  };
  for (const auto& t : topologies)
    for (size_t vi = 0; vi < variants.size(); ++vi) {
      const Variant& var = variants[vi];
      for (const auto& p : ports) {
        const std::vector<uint32_t> var_sizes = var.file.empty() ? sizes : std::vector<uint32_t>{0};
        for (uint32_t b : var_sizes) {
          groups.push_back({vi, t, p, b, 0, {}});
          for (const auto& s : var.file.empty() ? sources_of[t] : std::vector<std::string>{base.source}) {
            fw::ScheduleRunOptions o = base;
            o.topology = t;
            o.algorithm = var.algo;
            o.schedule = var.file;
            o.firmware = var.firmware;
            o.ports = port_of[p].first;
            o.run.profile.mem_words_per_cycle = port_of[p].second;
            if (var.file.empty()) o.bytes = b, o.source = s;
            o.family_options = var.options;
            // Summaries only: per-message and per-channel detail (GBs on big cubes) is `wormnet run --json`.
            points.push_back({var.file.empty() ? fmt::format("{} ports={} bytes={} source={}", name_of(var, t), p, b, s)
                                               : fmt::format("{} ports={}", name_of(var, t), p),
                              [o] { return fw::run_schedule(o).to_json(false); }});
            group_of.push_back(groups.size() - 1);
            if (groups.back().points++ == 0) {
              // Every variant x port model x size built once before the first simulation (its first
              // source): a bad value anywhere in a list fails before any row is printed.
              const NetworkSetup net = fw::resolve_network(o);
              if (o.firmware.empty())
                alg::build_schedule(fw::algorithm_of(o), net.topology, fw::algorithm_args(o, net));
              else
                fw::program_context(o, net);
            }
          }
        }
      }
    }
  fmt::print("seed {}\n", base.seed);
  fmt::print("wormnet {}  topology={} backend={} profile={} bytes={} source={}\n", command, base.topology, c.backend,
             base.run.profile.name, algos.empty() && plugins.empty() ? "the files'" : c.bytes_list,
             c.sources.empty() ? base.source : fmt::format("{} ({} sources)", c.sources, source_count));
  int name_w = 20;  // columns that fit their contents: the longest variant label
  for (const Variant& v : variants)
    for (const auto& t : topologies) name_w = std::max(name_w, int(name_of(v, t).size()));
  const bool memory = std::any_of(mems.begin(), mems.end(), [](double m) { return m > 0; });
  int ports_w = 5;
  for (const auto& p : ports) ports_w = std::max(ports_w, int(p.size()));
  if (single)
    print_point_header(name_w, memory, ports_w);
  else
    print_group_header(name_w, memory, ports_w);
  bool ok = true;
  size_t failed = 0;
  std::string first_failure;
  double first = 0;  // single: the first port model's cycles of the current algorithm
  // (topology, ports, bytes) -> the first algorithm's group
  std::map<std::tuple<std::string, std::string, uint32_t>, size_t> first_group;
  nlohmann::json summary = nlohmann::json::array();
  const auto all = run_sweep(
      points,
      [&](size_t i, const nlohmann::json& j) {
        Group& g = groups[group_of[i]];
        const Variant& var = variants[g.variant];
        if (var.file.size()) g.bytes = j["config"]["bytes"].get<uint32_t>();
        ok = ok && j["ok"].get<bool>();
        g.st.add(j);
        if (single) {
          if (g.ports == ports.front()) first = j["cycles"].get<double>();
          const auto bw = bandwidth(var, g.topology, var.file.empty() ? g.bytes : j["config"]["bytes"].get<uint64_t>());
          const double us = j["microseconds"].get<double>();
          emit({0, us, bw ? bw->busbw_gbps(us) : 0, name_of(var, g.topology) + " " + g.ports,
                point_row(name_w, name_of(var, g.topology), g.ports, j, first, bw, ports_w, memory)});
        }
        if (!j["ok"].get<bool>()) {
          const std::string why = j["error"].get<std::string>().empty() ? j["data_error"].get<std::string>()
                                                                        : j["error"].get<std::string>();
          fmt::print("  error{}: {}\n", single ? "" : " (" + points[i].label + ")", why);
          ++failed;
          if (first_failure.empty()) first_failure = points[i].label + ": " + why;
        }
        if (size_t(g.st.runs) != g.points) return;
        // vs-first: the first algorithm's mean maximum latency over this one's (same ports and size).
        const size_t me = group_of[i];
        const size_t ref_index = first_group.try_emplace({g.topology, g.ports, g.bytes}, me).first->second;
        const GroupStats& ref = groups[ref_index].st;
        const double vs = g.st.max_latency > 0 ? ref.max_latency / g.st.max_latency : 0;
        const double us = g.st.us_per_cycle;
        const GroupStats& st = g.st;
        const auto bw = bandwidth(var, g.topology, g.bytes);
        const double time_us = st.mean(st.cycles) * us;
        if (!single)
          emit({g.bytes, time_us, bw ? bw->busbw_gbps(time_us) : 0, name_of(var, g.topology) + " " + g.ports,
                group_row(name_w, name_of(var, g.topology), g.ports, g.bytes, st, vs, bw, memory, ports_w)});
        nlohmann::json row = {{"algorithm", var.algo},
                              {"variant", var.label},
                              {"options", var.options},
                              {"ports", g.ports},
                              {"bytes", g.bytes},
                              {"sources", st.runs},
                              {"data_ok", st.ok},
                              {"mean_cycles", st.mean(st.cycles)},
                              {"latency_cycles",
                               {{"mean_average", st.mean(st.avg_latency)},
                                {"mean_maximum", st.mean(st.max_latency)},
                                {"worst_maximum", st.worst_max}}},
                              {"latency_us",
                               {{"mean_average", st.mean(st.avg_latency) * us},
                                {"mean_maximum", st.mean(st.max_latency) * us},
                                {"worst_maximum", st.worst_max * us}}},
                              {"mean_delay",
                               {{"stepwise", st.mean(st.delay[0])},
                                {"depth", st.mean(st.delay[1])},
                                {"port", st.mean(st.delay[2])},
                                {"flow", st.mean(st.delay[3])}}}};
        if (memory) row["mean_delay"]["memory"] = st.mean(st.delay[4]);
        if (!var.file.empty()) row["schedule"] = var.file;
        if (several) row["topology"] = g.topology;  // one network: rows as before (baselines match)
        if (mems.size() > 1) row["mem_words_per_cycle"] = port_of[g.ports].second;
        if (bw)
          row["bandwidth"] = {{"operation", bw->operation},
                              {"size_bytes", bw->size_bytes},
                              {"time_us", time_us},
                              {"algbw_GBps", bw->algbw_gbps(time_us)},
                              {"busbw_GBps", bw->busbw_gbps(time_us)},
                              {"busbw_factor", bw->factor}};
        summary.push_back(std::move(row));
      },
      c.jobs);
  std::stable_sort(held.begin(), held.end(), [&](const Row& a, const Row& b) {
    if (a.bytes != b.bytes) return a.bytes < b.bytes;
    if (c.sort == "time") return a.time < b.time;
    if (c.sort == "busbw") return a.busbw > b.busbw;
    return a.name < b.name;
  });
  for (const Row& r : held) fmt::print("{}", r.text);
  if (single)
    fmt::print("stepwise, depth, port, flow{}: cycles of delay over zero load (delay view), summed over the messages\n",
               memory ? ", memory" : "");
  else
    fmt::print(
        "per algorithm x ports x bytes, the mean over the sources: avg-lat / max-lat = the thesis's average / "
        "maximum latency (first send -> receive completed), worst-max = the largest maximum, vs-first = the "
        "first algorithm's mean max-lat over this one's; stepwise..flow: mean delay cycles per run\n");
  fmt::print(
      "algbw = size / time, busbw = algbw x the operation's factor (nccl-tests: all-reduce 2(n-1)/n; all-gather, "
      "reduce-scatter, all-to-all, gather, scatter (n-1)/n with size = n blocks; broadcast, reduce 1), GB/s at "
      "the profile's clock\n");
  if (with_cost) print_area_table(summary, ports, costs);
  const nlohmann::json report = {{"schema", "wormnet.compare/3"}, {"runs", all}, {"summary", summary}};
  write_json_report(c.json, report);
  if (report_out) *report_out = report;
  const int regression =
      reg.baseline.empty() ? 0
                           : print_regression(baseline, compare_rows(report, "this run"), reg.baseline, reg.tolerance);
  // Where scripts look: the failure on stderr too.
  if (failed)
    std::fprintf(stderr, "error: %zu of %zu runs failed; the first: %s\n", failed, points.size(),
                 first_failure.c_str());
  return ok && !regression ? 0 : 1;
}

}  // namespace wn::cli
