// `wormnet synth`: minimum-step, stepwise-contention-free broadcast and
// reduction schedules from a SAT solver (algorithms/synth), for one root or
// every root; found schedules go to --out and to the cache the synth-broadcast
// / synth-reduce algorithms read.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "algorithms/registry.h"
#include "algorithms/schedule_file.h"
#include "algorithms/synth/synth.h"
#include "app/commands.h"
#include "app/options.h"
#include "experiments/report_file.h"
#include "systemc/core/config_error.h"
#include "systemc/core/version.h"
#include "systemc/topology/port_model.h"

namespace wn::cli {

namespace {

struct SynthCli {
  std::string topology = "mesh:4x4", ports = "all", collective = "broadcast", avoid, out, op = "sum";
  uint64_t source = 0, steps = 0, max_hops = 0, fanout = 0;
  uint32_t bytes = 1024;
  double timeout = 60;
  bool all_sources = false, no_cache = false, min_hops = false;
  bool cmd_given_bytes = false, cmd_given_op = false;
};

// The found schedule as a schedule file: the broadcast declares its collective; the reduction's
// IN/OUT layout is its own (oracle: its ideal execution). The solver's facts go under `synth`.
std::string schedule_file(const Topology& topo, const alg::synth::Request& req, const alg::synth::Result& r,
                          const SynthCli& c) {
  const bool bcast = req.collective == alg::synth::Collective::Broadcast;
  const alg::OpId op = alg::find_combine_op(c.op);
  const alg::Schedule s = alg::synth::schedule_of(topo, r, req.collective, req.source, c.bytes / 4, op);
  alg::ScheduleFile f;
  f.name = bcast ? "synth-broadcast" : "synth-reduce";
  f.ranks = topo.nodes();
  f.memory_words = s.memory_words;
  f.programs = s.programs;
  if (bcast) f.collective = alg::CollectiveClaim{alg::CollectiveKind::Broadcast, c.bytes / 4, req.source, alg::kCopy};
  f.synth = nlohmann::json::parse(alg::synth::to_json(topo, req, r));
  f.synth.erase("messages");  // the programs say it
  f.meta = {{"written_by", "wormnet synth"}, {"wormnet", version_json()}};
  return alg::schedule_file_text(f);
}

void print_attempts(const alg::synth::Result& r) {
  if (r.build_timed_out) {
    fmt::print("  timeout after {:.2f} s while building the routes and candidate messages (--timeout)\n",
               r.build_seconds);
    return;
  }
  fmt::print(
      "  encoding: {} candidate messages, {} mirror image{} of the network fixing the root broken, built in "
      "{:.2f} s\n",
      r.candidates, r.symmetries, r.symmetries == 1 ? "" : "s", r.build_seconds);
  for (const auto& a : r.attempts) {
    if (a.result == "memory") {
      fmt::print("  {} steps: not encoded: about {} MiB in all, above the host limit of {} MiB ({})\n", a.steps,
                 a.memory_bytes >> 20, a.memory_limit >> 20, alg::node_memory_limit_source());
      continue;
    }
    if (a.result == "greedy") {
      fmt::print("  {} steps: greedy (the heuristic's schedule, {:.2f} s)\n", a.steps, a.seconds);
      continue;
    }
    fmt::print("  {} steps{}: {} ({} vars, {} clauses, {:.2f} s encoding, {:.2f} s solving){}\n", a.steps,
               a.max_total_hops >= 0 ? fmt::format(", <= {} hops in all", a.max_total_hops) : "", a.result, a.vars,
               a.clauses, a.encode_seconds, a.seconds,
               a.result != "UNSAT"     ? ""
               : a.max_total_hops >= 0 ? fmt::format(": none with {} hops or fewer", a.max_total_hops)
                                       : fmt::format(": no schedule with {} steps exists", a.steps));
  }
}

// A cache entry: written whole or not at all (write_file_atomic: a temporary file, renamed), never
// through a symlink or over a device. A cache that cannot be written is only slower: no error,
// and nothing partial left behind for a later run to trip over.
void save(const std::string& path, const std::string& text) {
  std::error_code ec;
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  std::string why;
  write_file_atomic(path, text, why);
}

}  // namespace

void add_synth_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners) {
  auto c = std::make_shared<SynthCli>();
  auto* cmd = app.add_subcommand("synth",
                                 "SAT-synthesized minimum-step broadcast / reduction with no stepwise "
                                 "contention (CaDiCaL)");
  cmd->add_option("--topology", c->topology, "mesh / torus / cube")->capture_default_str();
  cmd->add_option("--ports", c->ports, "port model: sends per node per step (broadcast), receives (reduce)")
      ->capture_default_str();
  cmd->add_option("--collective", c->collective, "broadcast | reduce")->capture_default_str();
  add_uint(cmd, "--source", c->source, "the root", 0, 4095);
  cmd->add_flag("--all-sources", c->all_sources, "every node as the root in turn (a table)");
  add_uint(cmd, "--steps", c->steps, "exactly this many steps (0: the minimum, from the lower bound up)", 0, 4095);
  add_real(cmd, "--timeout", c->timeout,
           "seconds for the whole synthesis (routes, encoding, greedy search, every solver call; per root with "
           "--all-sources)",
           0.001, 1e6);
  add_uint(cmd, "--max-hops", c->max_hops, "longest route a message may take (0: any)", 0, 4095);
  add_uint(cmd, "--fanout", c->fanout, "messages per node per step, below the port count (0: the port count)", 0, 64);
  cmd->add_option("--avoid", c->avoid, "faulty nodes (comma-separated): no message from, to or through them");
  cmd->add_option("--out", c->out,
                  "write the schedule here as a wormnet.schedule/1 file (the solver's facts under its `synth` key); "
                  "run it with `wormnet run --schedule FILE`");
  add_uint(cmd, "--bytes", c->bytes, "with --out: the block every message carries (a multiple of 4)", 4, 64u << 20);
  cmd->add_option("--op", c->op, "with --out and --collective reduce: the reduction operator (sum | max | min)")
      ->capture_default_str();
  cmd->add_flag("--min-hops", c->min_hops,
                "then the fewest hops summed over the messages among minimum-step schedules (the EDN top step's "
                "objective)");
  cmd->add_flag("--no-cache", c->no_cache, "do not write the cache (" + alg::synth::cache_dir() + ")");
  runners["synth"] = [c, cmd]() {
    c->cmd_given_bytes = cmd->count("--bytes") > 0;
    c->cmd_given_op = cmd->count("--op") > 0;
    const Topology topo = Topology::parse(c->topology);
    alg::synth::Request req;
    if (c->collective != "broadcast" && c->collective != "reduce")
      throw ConfigError("--collective", fmt::format("'{}'; allowed: broadcast, reduce", c->collective));
    req.collective = c->collective == "reduce" ? alg::synth::Collective::Reduce : alg::synth::Collective::Broadcast;
    req.ports = parse_port_model(c->ports, topo);
    if (c->fanout) {
      if (int(c->fanout) > req.ports)
        throw ConfigError("--fanout", fmt::format("{} exceeds the {} ports of --ports {}; allowed: 1..{}", c->fanout,
                                                  req.ports, c->ports, req.ports));
      req.ports = int(c->fanout);
    }
    if (c->source >= uint64_t(topo.nodes()))
      throw ConfigError("--source", fmt::format("{} is not a node; allowed: 0..{}", c->source, topo.nodes() - 1));
    req.source = int(c->source);
    req.steps = int(c->steps);
    req.timeout_s = c->timeout;
    req.max_hops = int(c->max_hops);
    req.min_total_hops = c->min_hops;
    if (!c->avoid.empty())
      for (const auto& v : split_list(c->avoid, "--avoid"))
        req.avoid.push_back(int(decimal(v, 0, uint64_t(topo.nodes()) - 1, "--avoid",
                                        fmt::format("node ids 0..{}, comma-separated", topo.nodes() - 1))));
    if (c->cmd_given_op && c->collective != "reduce")
      throw ConfigError("--op", "only a reduction has an operator; allowed: --op with --collective reduce");
    if (c->bytes % 4)
      throw ConfigError("--bytes", fmt::format("{} is not whole 32-bit words; allowed: a multiple of 4", c->bytes));
    if ((c->cmd_given_bytes || c->cmd_given_op) && c->out.empty())
      throw ConfigError(c->cmd_given_bytes ? "--bytes" : "--op", "sizes the file --out writes; allowed: with --out");
    if (c->all_sources && cmd->count("--source"))
      throw ConfigError("--source",
                        "--all-sources takes every node as the root; allowed: one of --source and "
                        "--all-sources");
    if (!c->out.empty() && c->all_sources)
      throw ConfigError("--out", "one file holds one root's schedule; allowed: --out without --all-sources");
    const alg::OpId op = alg::find_combine_op(c->op);
    if (c->collective == "reduce" && !alg::combine_ops()[op].commutative)
      throw ConfigError("--op",
                        fmt::format("'{}' is not commutative, and the tree combines in tree order; allowed: sum, "
                                    "max, min",
                                    c->op));
    if (!c->out.empty()) check_writable(c->out, "--out");
    alg::synth::check_memory(topo, req);  // before anything is printed or built (all roots alike)
    fmt::print("wormnet synth: {} on {}, at most {} message{} per node per step{}{}{} (CaDiCaL)\n", c->collective,
               topo.name(), req.ports, req.ports == 1 ? "" : "s",
               req.max_hops ? fmt::format(", routes <= {} hops", req.max_hops) : "",
               req.avoid.empty() ? "" : ", avoiding " + c->avoid,
               req.steps ? fmt::format(", exactly {} steps", req.steps) : "");
    if (c->all_sources) {
      fmt::print("{:>6} {:>6} {:>9} {:>9}\n", "root", "steps", "minimum", "seconds");
      int lo = 1 << 30, hi = 0, unproven = 0, missing = 0;
      // Roots in one orbit of the route-preserving symmetries need the same steps: solve one, map the rest.
      const auto syms = alg::synth::route_symmetries(topo, req.avoid);
      std::map<int, alg::synth::Result> solved;
      for (int s = 0; s < topo.nodes(); ++s) {
        if (std::find(req.avoid.begin(), req.avoid.end(), s) != req.avoid.end()) continue;
        req.source = s;
        const auto t0 = std::chrono::steady_clock::now();
        alg::synth::Result r;
        int from = -1;
        for (const auto& sigma : syms)
          for (const auto& [s2, r2] : solved)
            if (from < 0 && sigma[size_t(s2)] == s) from = s2, r = alg::synth::mapped(r2, sigma);
        if (from < 0) r = alg::synth::synthesize(topo, req), solved[s] = r;
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        fmt::print("{:>6} {:>6} {:>9} {:>9.2f}{}\n", s, r.found ? std::to_string(r.steps) : "-",
                   r.optimal ? "proven" : "no", sec,
                   from < 0 ? "" : fmt::format("  (mapped from root {} by a route symmetry)", from));
        if (!r.found) ++missing;
        if (r.found) lo = std::min(lo, r.steps), hi = std::max(hi, r.steps);
        unproven += r.found && !r.optimal;
        if (r.found && !c->no_cache) save(alg::synth::cache_file(topo, req), alg::synth::to_json(topo, req, r));
      }
      fmt::print("every root: {}..{} steps, {} not proven minimum, {} not found\n", lo, hi, unproven, missing);
      return missing ? 1 : 0;
    }
    const auto r = alg::synth::synthesize(topo, req);
    print_attempts(r);
    if (!r.found) {
      fmt::print("no schedule found (timeouts: raise --timeout)\n");
      return 1;
    }
    fmt::print("{}: {} steps (lower bound ceil(log_{} {}) = {}), {} messages, {} hops in all ({:.2f} per message{})\n",
               r.optimal   ? "minimum"
               : req.steps ? "found"
                           : "found (smaller step counts timed out)",
               r.steps, req.ports + 1, topo.nodes() - int(req.avoid.size()), r.lower_bound, r.messages.size(),
               r.total_hops, double(r.total_hops) / double(std::max<size_t>(1, r.messages.size())),
               !req.min_total_hops ? ""
               : r.hops_optimal    ? "; the fewest: one fewer is UNSAT"
                                   : "; fewer not proven impossible");
    for (int t = 0; t < r.steps; ++t) {
      std::string line;
      for (const auto& m : r.messages)
        if (m.step == t) line += fmt::format(" {}->{}", m.from, m.to);
      fmt::print("  step {}:{}\n", t, line);
    }
    const std::string text = alg::synth::to_json(topo, req, r);
    if (!c->out.empty()) {
      write_report(c->out, schedule_file(topo, req, r, *c), "--out");  // throws unless all of it is on disk
      if (c->out != "-")                                               // on stdout the file is the last thing printed
        fmt::print("written: {} (wormnet.schedule/1, {} bytes per message; wormnet run --topology {} --schedule {})\n",
                   c->out, c->bytes, topo.name(), c->out);
    }
    if (!c->no_cache && !c->fanout && !c->min_hops) save(alg::synth::cache_file(topo, req), text);
    return 0;
  };
}

}  // namespace wn::cli
