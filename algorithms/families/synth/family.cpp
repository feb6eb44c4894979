// The synth family: broadcast and reduction on the schedules `wormnet synth`
// finds (algorithms/synth): minimum steps, no stepwise contention, at most K
// messages per node per step. The schedule for (topology, ports, root) comes
// from the cache or is searched once
// (60 s per solver call) and cached.
#include <fmt/format.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "algorithms/registry.h"
#include "algorithms/step_cost.h"
#include "algorithms/synth/synth.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

namespace {

namespace sy = synth;

// The schedule a run uses (memoised per process: check, build and cost ask three times).
const sy::Result& schedule_for(const Topology& topo, const AlgorithmArgs& args, sy::Collective c) {
  static std::map<std::string, sy::Result> memo;
  sy::Request req;
  req.collective = c;
  req.source = args.source;
  req.ports = std::max(1, args.ports);
  const std::string key = fmt::format("{}|{}", topo.name(), sy::cache_file(topo, req));
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  sy::Result r;
  const std::string path = sy::cache_file(topo, req);
  bool cached = false;
  if (std::ifstream in(path); in) {
    std::stringstream ss;
    ss << in.rdbuf();
    sy::Request got;
    try {
      r = sy::from_json(ss.str(), topo, &got);
      cached = got.collective == c && got.source == req.source && got.ports <= req.ports;
    } catch (const ConfigError&) {
      cached = false;  // a damaged or foreign cache entry is searched again and replaced
    }
  }
  if (!cached) {
    req.timeout_s = 60;
    r = sy::synthesize(topo, req);
    if (r.found) {
      std::error_code ec;
      std::filesystem::create_directories(sy::cache_dir(), ec);
      // A cache that cannot be written is only slower; a partial entry is never left: a temporary
      // file beside it, renamed over it when whole.
      const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
      std::ofstream out(tmp, std::ios::trunc);
      out << sy::to_json(topo, req, r);
      out.close();
      if (!out || std::rename(tmp.c_str(), path.c_str()) != 0) std::remove(tmp.c_str());
    }
  }
  if (!r.found)
    throw ConfigError(Param::topology,
                      fmt::format("no schedule for {} from node {} with {} ports found within the time "
                                  "limit; allowed: `wormnet synth --timeout S --out F` first, then "
                                  "`wormnet run --schedule F`",
                                  topo.name(), req.source, req.ports));
  return memo.emplace(key, std::move(r)).first->second;
}

Schedule build(const Topology& topo, const AlgorithmArgs& args, sy::Collective c) {
  Schedule s = sy::schedule_of(topo, schedule_for(topo, args, c), c, args.source, args.words, args.op);
  s.algorithm = c == sy::Collective::Broadcast ? "synth-broadcast" : "synth-reduce";
  return s;
}

AlgorithmInfo entry(sy::Collective c) {
  const bool bcast = c == sy::Collective::Broadcast;
  AlgorithmInfo a;
  a.name = bcast ? "synth-broadcast" : "synth-reduce";
  a.summary = bcast ? "broadcast on a SAT-synthesized schedule: fewest steps with no stepwise contention, <= K sends "
                      "per node per step (wormnet synth)"
                    : "reduction to --source on a SAT-synthesized schedule (the broadcast tree reversed, child -> "
                      "parent routes contention-free; commutative operators)";
  a.params = bcast ? "--source --bytes --ports" : "--source (root) --bytes --op --ports";
  a.rooted = true;
  a.exactly_once = bcast;
  a.check = [c, bcast](const Topology& topo, const AlgorithmArgs& args) {
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 4 (one word)");
    if (!bcast && !combine_ops()[args.op].commutative)
      throw ConfigError(Param::op,
                        fmt::format("synth-reduce combines subtrees in tree order, so '{}' (non-commutative) is "
                                    "not allowed; allowed: sum, max, min",
                                    combine_ops()[args.op].name));
    check_node_memory(topo, 2 * uint64_t(args.words));
    schedule_for(topo, args, c);
  };
  a.max_messages = [](const Topology& topo, const AlgorithmArgs&) { return uint64_t(topo.nodes()); };
  a.build = [c](const Topology& topo, const AlgorithmArgs& args) { return build(topo, args, c); };
  a.cost = [c](const Topology& topo, const AlgorithmArgs& args, const CostParams& cp, const Schedule& s) {
    const sy::Result& r = schedule_for(topo, args, c);
    return step_model_prediction(
        s, topo, cp,
        fmt::format("synthesized: {} steps ({}; lower bound ceil(log_(K+1) N) = {}), no two messages of a step share "
                    "a channel",
                    r.steps, r.optimal ? "minimum: every fewer is UNSAT" : "not proven minimum", r.lower_bound));
  };
  return a;
}

}  // namespace

Family family_synth() {
  Family f;
  f.name = "synth";
  f.summary = "schedules found by a SAT solver (wormnet synth): minimum-step, contention-free broadcast and reduction";
  f.topologies = "any mesh, torus or cube (the search grows with N^2 routes: up to ~16x16 in minutes)";
  f.supports = any_network("synth");
  f.algorithms = {entry(sy::Collective::Broadcast), entry(sy::Collective::Reduce)};
  // The layouts that are the schedule format's (`wormnet export` declares them; it checks each by ideal execution).
  declare_collectives(f, {{"synth-broadcast", "broadcast"}});
  return f;
}

}  // namespace wn::alg
