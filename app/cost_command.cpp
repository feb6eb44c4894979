// `wormnet cost`: the synthesized area of the router for every combination of
// topologies, port models, VC counts and buffer depths asked for (yosys, one
// configuration per process, cached), as a table and as JSON (wormnet.cost/1).
#include <fmt/format.h>

#include <memory>

#include "app/commands.h"
#include "app/options.h"
#include "app/rtl_cost.h"
#include "experiments/report_file.h"
#include "experiments/sweep.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

namespace {

struct CostCli {
  std::string topology = "mesh:8x8", ports = "one,all", vcs = "2", buf = "8", json;
  unsigned jobs = 1;
  bool no_cache = false;
};

int parse_int_item(const std::string& item, const std::string& field) {
  if (!uint_in(1, 64)(item).empty())
    throw ConfigError(field, fmt::format("'{}' is not a count; allowed: integers, comma-separated", item));
  return std::stoi(item);
}

}  // namespace

std::vector<CostRequest> cost_requests(const std::string& topologies, const std::string& ports, const std::string& vcs,
                                       const std::string& buf) {
  std::vector<CostRequest> out;
  for (const auto& t : split_list(topologies, "--topology"))
    for (const auto& p : split_list(ports, "--ports"))
      for (const auto& v : split_list(vcs, "--vcs"))
        for (const auto& b : split_list(buf, "--buf")) {
          CostRequest r{t, p, parse_int_item(v, "--vcs"), parse_int_item(b, "--buf")};
          validate_cost(r);
          out.push_back(r);
        }
  return out;
}

void print_cost_header() {
  fmt::print("{:<12} {:>5} {:>4} {:>3} {:>3} {:>7} {:>6} {:>10} {:>10} {:>10} {:>7}\n", "topology", "ports", "chan",
             "vcs", "buf", "cells", "flops", "logic-nand2", "flop-nand2", "kNAND2", "yosys-s");
}

void print_cost_row(const CostReport& r) {
  fmt::print("{:<12} {:>5} {:>4} {:>3} {:>3} {:>7} {:>6} {:>10.1f} {:>10.1f} {:>10.2f} {:>7.1f}{}\n", r.req.topology,
             r.req.ports, r.channels, r.req.vcs, r.req.buf, r.cell_count, r.flops, r.logic_nand2, r.flop_nand2,
             r.nand2() / 1000.0, r.yosys_seconds, r.cached ? " (cached)" : "");
}

CostReport cost_from_json(const CostRequest& req, const nlohmann::json& j) {
  CostReport r;
  r.req = req;
  r.kind = j["kind"].get<std::string>();
  r.radix = j["radix"].get<int>();
  r.channels = j["channels"].get<int>();
  r.cells = j["cells"].get<std::map<std::string, long>>();
  r.cell_count = j["cell_count"].get<long>();
  r.flops = j["flops"].get<long>();
  r.logic_nand2 = j["logic_nand2"].get<double>();
  r.flop_nand2 = j["flop_nand2"].get<double>();
  r.yosys_seconds = j["yosys_seconds"].get<double>();
  r.cached = j.value("cached", false);
  return r;
}

std::vector<CostReport> synthesize_costs(const std::vector<CostRequest>& reqs, unsigned jobs, bool use_cache,
                                         bool print) {
  std::vector<SweepPoint> points;
  for (const auto& r : reqs)
    points.push_back({fmt::format("cost {} ports={} vcs={} buf={}", r.topology, r.ports, r.vcs, r.buf), [r, use_cache] {
                        const CostReport c = synthesize_cost(r, use_cache);
                        nlohmann::json j = c.to_json();
                        j["cached"] = c.cached;
                        return j;
                      }});
  std::vector<CostReport> out(reqs.size());
  if (print) print_cost_header();
  run_sweep(
      points,
      [&](size_t i, const nlohmann::json& j) {
        out[i] = cost_from_json(reqs[i], j);
        if (print) print_cost_row(out[i]);
      },
      jobs);
  return out;
}

void print_area_table(nlohmann::json& summary, const std::vector<std::string>& ports,
                      const std::vector<CostReport>& costs) {
  std::map<std::string, double> area;
  for (size_t i = 0; i < ports.size(); ++i) area[ports[i]] = costs[i].nand2();
  fmt::print("router area (yosys, {} VCs x {} flits):", costs.front().req.vcs, costs.front().req.buf);
  for (const auto& p : ports) fmt::print(" {} {:.2f} kNAND2", p, area[p] / 1000.0);
  fmt::print("\n{:<24} {:>8} {:<5} {:>12} {:>8} {:>8} {:>8} {:>10}\n", "variant", "bytes", "ports", "cycles", "kNAND2",
             "speedup", "area-x", "perf/area");
  // Rows of one variant and size are consecutive per port model; the first port model is the reference.
  std::map<std::string, double> first_cycles;
  for (auto& row : summary) {
    const std::string p = row["ports"].get<std::string>();
    row["area_nand2"] = area[p];
    const std::string key = fmt::format("{}|{}", row["variant"].get<std::string>(), row["bytes"].get<uint64_t>());
    const double cyc = row["mean_cycles"].get<double>();
    if (p == ports.front()) first_cycles[key] = cyc;
    if (!first_cycles.count(key) || cyc <= 0) continue;
    const double speedup = first_cycles[key] / cyc, ax = area[p] / area[ports.front()];
    fmt::print("{:<24} {:>8} {:<5} {:>12.0f} {:>8.2f} {:>7.2f}x {:>7.2f}x {:>9.2f}x\n",
               row["variant"].get<std::string>(), row["bytes"].get<uint64_t>(), p, cyc, area[p] / 1000.0, speedup, ax,
               speedup / ax);
  }
  fmt::print(
      "speedup and area-x against the first port model ({}); perf/area = speedup / area-x: above 1x the "
      "extra ports pay for their area\n",
      ports.front());
}

void add_cost_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners) {
  auto c = std::make_shared<CostCli>();
  auto* cmd = app.add_subcommand("cost",
                                 "synthesized router area (yosys) per topology x port model x VCs x buffer "
                                 "depth, configuration fixed at elaboration");
  cmd->add_option("--topology", c->topology, "topologies, comma-separated (only the router's radix and kind matter)")
      ->capture_default_str();
  cmd->add_option("--ports", c->ports, "port models: one | all | K, comma-separated")->capture_default_str();
  cmd->add_option("--vcs", c->vcs, "VCs per network port, comma-separated (1..4; even on a torus)")
      ->capture_default_str();
  cmd->add_option("--buf", c->buf, "FIFO depth per VC in flits, comma-separated (2, 4, 8, 16)")->capture_default_str();
  add_uint(cmd, "--jobs,-j", c->jobs, "yosys runs at once", 1, 256);
  cmd->add_option("--json", c->json, "write wormnet.cost/1 JSON here");
  cmd->add_flag("--no-cache", c->no_cache, "synthesize even if the cache has the configuration");
  runners["cost"] = [c]() {
    const auto reqs = cost_requests(c->topology, c->ports, c->vcs, c->buf);
    check_writable(c->json, "--json");
    const auto reports = synthesize_costs(reqs, c->jobs, !c->no_cache, true);
    fmt::print(
        "kNAND2: area in thousands of NAND2 equivalents (rtl/README.md §8: ABC-mapped NAND2/NOR2/NOT + "
        "flip-flops, per-cell weights); the node address is an input, everything else a constant\n");
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : reports) rows.push_back(r.to_json());
    nlohmann::json weights = nlohmann::json::object();
    for (const auto& [type, w] : cell_weights()) weights[type] = w;
    write_json_report(c->json, {{"schema", "wormnet.cost/1"}, {"weights_nand2", weights}, {"rows", rows}});
    return 0;
  };
}

}  // namespace wn::cli
