// `wormnet compare`: the same collective under several algorithms, port
// models, message sizes and sources. Every point is one simulation in its own
// process (SystemC elaborates once per process); with several sources or
// sizes the table shows, per algorithm x port model x size, the mean over the
// sources of the thesis's average and maximum latency (spec seed-003 §4.4).
#include <map>
#include <fmt/format.h>

#include <memory>

#include "algorithms/registry.h"
#include "app/commands.h"
#include "app/options.h"
#include "app/rtl_cost.h"
#include "app/run_options.h"
#include "experiments/report_file.h"
#include "experiments/source_list.h"
#include "experiments/sweep.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

namespace {

// Mean over one group's sources (one algorithm x port model x size).
struct GroupStats {
  int runs = 0, ok = 0;
  double avg_latency = 0, max_latency = 0, worst_max = 0, cycles = 0, us_per_cycle = 0;
  double delay[4] = {0, 0, 0, 0};
  void add(const nlohmann::json& j) {
    ++runs;
    ok += j["ok"].get<bool>() ? 1 : 0;
    avg_latency += j["latency"]["average_cycles"].get<double>();
    const double mx = j["latency"]["maximum_cycles"].get<double>();
    max_latency += mx;
    worst_max = std::max(worst_max, mx);
    cycles += j["cycles"].get<double>();
    const double c = j["cycles"].get<double>();
    if (c > 0) us_per_cycle = j["microseconds"].get<double>() / c;
    const char* cls[4] = {"stepwise", "depth", "port", "flow"};
    for (int k = 0; k < 4; ++k) delay[k] += j["contention"][cls[k]].get<double>();
  }
  double mean(double v) const { return runs ? v / runs : 0; }
};

std::vector<uint32_t> parse_bytes(const std::string& text) {
  std::vector<uint32_t> out;
  for (auto item : split_list(text, "--bytes")) {
    const std::string err = uint_in(4, 64u << 20)(item);
    if (!err.empty() || std::stoul(item) % 4)
      throw ConfigError("--bytes", fmt::format("'{}' is not a message size; allowed: multiples of 4 in 4..{}, "
                                               "comma-separated", item, 64u << 20));
    out.push_back(uint32_t(std::stoul(item)));
  }
  return out;
}

void print_point_row(const std::string& a, const std::string& p, const nlohmann::json& j, double first) {
  const double cyc = j["cycles"].get<double>();
  const auto& ct = j["contention"];
  fmt::print("{:<20} {:<5} {:>5} {:>10} {:>12.3f} {:>10.0f} {:>7.3f} {:>7.2f}x {:>5}  {:>9} {:>8} {:>8} {:>7}\n", a, p,
             j["predicted"]["steps"].get<int>(), j["cycles"].get<uint64_t>(), j["microseconds"].get<double>(),
             j["predicted"]["cycles"].get<double>(), j["measured_over_predicted"].get<double>(),
             cyc > 0 ? first / cyc : 0.0, j["data_check"].get<std::string>(), ct["stepwise"].get<uint64_t>(),
             ct["depth"].get<uint64_t>(), ct["port"].get<uint64_t>(), ct["flow"].get<uint64_t>());
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  c->opt.ports = "one,all";
  auto* cmd = app.add_subcommand("compare", "the same job under several algorithms, port models, sizes and sources");
  add_common_options(cmd, *c, true);
  auto with_cost = std::make_shared<bool>(false);
  cmd->add_flag("--cost", *with_cost, "also synthesize each port model's router (yosys, cached; `wormnet cost`) and "
                                     "print cycles x area");
  runners()["compare"] = [c, with_cost]() {
    const fw::ScheduleRunOptions base = resolve(*c);
    check_writable(c->json, "--json");
    const auto algos = split_list(base.algorithm, "--algorithm"), ports = split_list(base.ports, "--ports");
    // Areas first: a configuration yosys can not build fails before any simulation.
    std::vector<CostReport> costs;
    if (*with_cost)
      costs = synthesize_costs(cost_requests(base.topology, base.ports, std::to_string(base.net.vcs),
                                             std::to_string(base.net.buf)),
                               c->jobs, true, false);
    const std::vector<uint32_t> sizes = parse_bytes(c->bytes_list);
    // Validate every combination up front so a bad name fails before any simulation.
    for (const auto& a : algos) alg::find_algorithm(a);
    std::vector<std::string> sources = {base.source};
    if (!c->sources.empty()) {
      sources.clear();
      fw::ScheduleRunOptions one = base;
      one.ports = ports.front();  // the network's size does not depend on the port model
      const int nodes = fw::resolve_network(one).topology.nodes();
      for (int s : parse_sources(c->sources, nodes, base.seed, "--sources")) sources.push_back(std::to_string(s));
    }
    // A family flag must be read by at least one of the algorithms; each algorithm gets the ones it reads.
    for (const auto& [flag, text] : base.family_options) {
      bool read = false;
      for (const auto& a : algos) read = read || alg::reads_option(alg::find_algorithm(a), flag);
      if (!read)
        throw ConfigError(flag, fmt::format("none of {} reads it; allowed: an algorithm whose family declares it",
                                            base.algorithm));
    }
    // Variants: each algorithm x every combination of the family flags it reads given as lists
    // (--ccl-alg butterfly,reduce-bcast; --radix 2,8,64), labelled "algorithm/value/...".
    struct Variant {
      std::string label, algo;
      std::map<std::string, std::string> options;
    };
    std::vector<Variant> variants;
    for (const auto& a : algos) {
      std::vector<Variant> v = {{a, a, {}}};
      for (const auto& [flag, text] : base.family_options) {
        if (!alg::reads_option(alg::find_algorithm(a), flag)) continue;
        const auto values = split_list(text, flag);
        std::vector<Variant> next;
        for (const auto& x : v)
          for (const auto& val : values) {
            Variant y = x;
            y.options[flag] = val;
            if (values.size() > 1) y.label += "/" + val;
            next.push_back(std::move(y));
          }
        v = std::move(next);
      }
      variants.insert(variants.end(), v.begin(), v.end());
    }
    const bool single = sources.size() == 1 && sizes.size() == 1;
    fmt::print("seed {}\n", base.seed);
    fmt::print("wormnet compare  topology={} backend={} profile={} bytes={} source={}\n", base.topology, c->backend,
               base.run.profile.name, c->bytes_list,
               c->sources.empty() ? base.source : fmt::format("{} ({} sources)", c->sources, sources.size()));
    if (single)
      fmt::print("{:<20} {:<5} {:>5} {:>10} {:>12} {:>10} {:>7} {:>8} {:>5}  {:>9} {:>8} {:>8} {:>7}\n", "algorithm",
                 "ports", "steps", "cycles", "us", "predicted", "ratio", "speedup", "data", "stepwise", "depth", "port",
                 "flow");
    else
      fmt::print("{:<20} {:<5} {:>8} {:>5} {:>12} {:>12} {:>12} {:>9} {:>12} {:>9} {:>8} {:>8} {:>8} {:>5}\n",
                 "algorithm", "ports", "bytes", "runs", "avg-lat-us", "max-lat-us", "worst-max-us", "vs-first",
                 "cycles", "stepwise", "depth", "port", "flow", "data");
    std::vector<SweepPoint> points;
    for (const auto& var : variants)
      for (const auto& p : ports)
        for (uint32_t b : sizes)
          for (const auto& s : sources) {
            fw::ScheduleRunOptions o = base;
            o.algorithm = var.algo;
            o.ports = p;
            o.bytes = b;
            o.source = s;
            o.family_options = var.options;
            // Summaries only: per-message and per-channel detail (GBs on big cubes) is `wormnet run --json`.
            points.push_back({fmt::format("{} ports={} bytes={} source={}", var.label, p, b, s),
                              [o] { return fw::run_schedule(o).to_json(false); }});
          }
    const size_t per_group = sources.size(), groups_per_port = sizes.size();
    bool ok = true;
    double first = 0;  // single: the first port model's cycles of the current algorithm
    std::vector<GroupStats> group(variants.size() * ports.size() * sizes.size());
    nlohmann::json summary = nlohmann::json::array();
    const auto all = run_sweep(
        points,
        [&](size_t i, const nlohmann::json& j) {
          const size_t g = i / per_group;
          const Variant& var = variants[g / (ports.size() * groups_per_port)];
          const std::string& a = var.label;
          const std::string& p = ports[(g / groups_per_port) % ports.size()];
          const uint32_t b = sizes[g % groups_per_port];
          ok = ok && j["ok"].get<bool>();
          GroupStats& st = group[g];
          st.add(j);
          if (single) {
            if (i % ports.size() == 0) first = j["cycles"].get<double>();
            print_point_row(a, p, j, first);
          }
          if (!j["ok"].get<bool>())
            fmt::print("  error{}: {}{}\n", single ? "" : " (" + points[i].label + ")", j["error"].get<std::string>(),
                       j["data_error"].get<std::string>());
          if (i % per_group != per_group - 1) return;
          // vs-first: the first algorithm's mean maximum latency over this one's (same ports and size).
          const GroupStats& ref = group[g % (ports.size() * groups_per_port)];
          const double vs = st.max_latency > 0 ? ref.max_latency / st.max_latency : 0;
          const double us = st.us_per_cycle;
          if (!single)
            fmt::print("{:<20} {:<5} {:>8} {:>5} {:>12.3f} {:>12.3f} {:>12.3f} {:>8.2f}x {:>12.1f} {:>9.1f} {:>8.1f} "
                       "{:>8.1f} {:>8.1f} {:>5}\n",
                       a, p, b, st.runs, st.mean(st.avg_latency) * us, st.mean(st.max_latency) * us,
                       st.worst_max * us, vs, st.mean(st.cycles), st.mean(st.delay[0]), st.mean(st.delay[1]),
                       st.mean(st.delay[2]), st.mean(st.delay[3]), st.ok == st.runs ? "PASS" : "FAIL");
          summary.push_back({{"algorithm", var.algo}, {"variant", a}, {"options", var.options}, {"ports", p}, {"bytes", b}, {"sources", st.runs},
                             {"data_ok", st.ok}, {"mean_cycles", st.mean(st.cycles)},
                             {"latency_cycles", {{"mean_average", st.mean(st.avg_latency)},
                                                 {"mean_maximum", st.mean(st.max_latency)},
                                                 {"worst_maximum", st.worst_max}}},
                             {"latency_us", {{"mean_average", st.mean(st.avg_latency) * us},
                                             {"mean_maximum", st.mean(st.max_latency) * us},
                                             {"worst_maximum", st.worst_max * us}}},
                             {"mean_delay", {{"stepwise", st.mean(st.delay[0])}, {"depth", st.mean(st.delay[1])},
                                             {"port", st.mean(st.delay[2])}, {"flow", st.mean(st.delay[3])}}}});
        },
        c->jobs);
    if (single)
      fmt::print("stepwise, depth, port, flow: cycles of delay over zero load (delay view), summed over the messages\n");
    else
      fmt::print("per algorithm x ports x bytes, the mean over the sources: avg-lat / max-lat = the thesis's average / "
                 "maximum latency (first send -> receive completed), worst-max = the largest maximum, vs-first = the "
                 "first algorithm's mean max-lat over this one's; stepwise..flow: mean delay cycles per run\n");
    if (*with_cost) print_area_table(summary, ports, costs);
    write_json_report(c->json, {{"schema", "wormnet.compare/3"}, {"runs", all}, {"summary", summary}});
    return ok ? 0 : 1;
  };
}

}  // namespace wn::cli
