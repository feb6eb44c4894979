// The EDN family (Tsai & McKinley, Tsai's thesis): broadcast on all-port
// (3-port suffices) 2^k x 2^k meshes by extended dominating nodes.
#include <fmt/format.h>

#include "algorithms/families/edn/edn.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

void edn::check_message(const Topology& topo, const AlgorithmArgs& args, uint64_t words_per_node) {
  if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 4");
  check_node_memory(topo, words_per_node);
}

namespace {

// The meshes with an EDN hierarchy (edn::mesh_hierarchy), as the errors list them.
constexpr const char* kEdnMeshes =
    "mesh:A x B with A = a * 2^k and B = b * 2^k, a, b in 4..7, k >= 0 (e.g. 5x5, 6x6, 7x7, 8x8, 10x10, 12x12, 14x14, "
    "16x16, 20x20, 24x24, 28x28, 5x7, 10x12)";

std::string edn_sizes(const Topology& topo) {
  return edn::mesh_hierarchy(topo) || edn::mesh3_supported(topo) || edn::torus_d(topo) || edn::torus3_d(topo)
             ? std::string()
             : fmt::format(
                   "edn-broadcast runs on {}, mesh:A x B x Z with such planes and Z >= 2, torus:2^d x 2^d and "
                   "torus:2^d x 2^d x z (d >= 2, z >= 2), not {}; "
                   "allowed: e.g. mesh:5x5, mesh:8x8, mesh:10x12, mesh:4x4x4, mesh:8x8x12, torus:8x8, torus:4x4x7",
                   kEdnMeshes, topo.name());
}

std::string dim_sizes(const Topology& topo) {
  return edn::mesh_k(topo) || edn::torus_d(topo) || edn::torus3_d(topo)
             ? std::string()
             : fmt::format(
                   "dim- and sc-broadcast run on square meshes and tori of side 2^k, not {}; allowed: "
                   "mesh:4x4, mesh:8x8, mesh:16x16, mesh:32x32, torus:4x4, torus:8x8, torus:16x16, "
                   "torus:32x32, torus:2^d x 2^d x z (z >= 2)",
                   topo.name());
}

std::string edn_mesh(const Topology& topo) {
  return edn::mesh_hierarchy(topo) ? std::string()
                                   : fmt::format(
                                         "edn-reduce and edn-gather run on {}, not {}; allowed: e.g. "
                                         "mesh:4x4, mesh:5x5, mesh:8x8, mesh:10x12",
                                         kEdnMeshes, topo.name());
}

// The step count of a mesh schedule's two phases: the thesis's k+1 on 2^k x 2^k (Table 3.1's k'+3),
// else the height of our hierarchy (Tables 3.2-3.4: k+2 on 5, 6, 7 * 2^k) and the rest, the startup
// or completion (1 or 2 steps).
std::string mesh_steps(const Topology& topo, const Schedule& s, bool reduce) {
  if (const int k = edn::mesh_k(topo))
    return reduce ? fmt::format("k+1 = {} steps (tree k-1, completion 2)", k + 1)
                  : fmt::format("k+1 = {} steps (startup 2, descent k-1)", k + 1);
  const int height = int(edn::mesh_hierarchy(topo)->descent.size()), rest = s.steps - height;
  return reduce ? fmt::format("{} steps (tree {}, completion {})", s.steps, height, rest)
                : fmt::format("{} steps (startup {}, descent {})", s.steps, rest, height);
}

uint64_t one_per_node(const Topology& topo, const AlgorithmArgs&) { return uint64_t(topo.nodes()); }

void message_fits(const Topology& topo, const AlgorithmArgs& args) { edn::check_message(topo, args, args.words); }

// Every entry below sets each field it reads; none is a copy of another.
AlgorithmInfo edn_broadcast_info() {
  AlgorithmInfo a;
  a.name = "edn-broadcast";
  a.summary =
      "broadcast: mesh: 2-step startup to the 4 top EDNs, then one dominating level per step (k+1 "
      "steps on 2^k x 2^k; k+3 or k+4 on 5, 6, 7 * 2^k); torus: Y/T phases and an F step (d steps)";
  a.params = "--source --bytes --ports (3 ports per node suffice)";
  a.rooted = true;
  a.exactly_once = true;
  a.supports = edn_sizes;
  a.check = message_fits;
  a.max_messages = one_per_node;
  a.build = edn::build_edn_broadcast;
  a.cost = [](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    std::string steps;
    if (edn::mesh_hierarchy(topo)) {
      steps = mesh_steps(topo, s, false);
    } else if (edn::mesh3_supported(topo)) {
      const int height = edn::mesh3_height(topo);
      steps = fmt::format("{} steps (startup {}, descent {})", s.steps, s.steps - height, height);
    } else {
      steps = fmt::format("d = {} steps ({{YT}} phases{})", edn::torus_d(topo), edn::torus_d(topo) % 2 ? " and F" : "");
    }
    return step_model_prediction(
        s, topo, c,
        fmt::format("{}; step model: per step the most serialized "
                    "sends (alpha={}), the slowest route, the most receives (gamma={}); F={} flits, {}",
                    steps, c.alpha, c.gamma, c.flits(args.words), fmt::format("h <= {}", max_hops(s, topo))));
  };
  return a;
}

AlgorithmInfo dim_broadcast_info() {
  AlgorithmInfo a;
  a.name = "dim-broadcast";
  a.summary =
      "dimensional broadcast (thesis Ch 5): recursive doubling along the source's row, then along every "
      "column (2n steps on 2^n x 2^n)";
  a.params = "--source --bytes";
  a.rooted = true;
  a.exactly_once = true;
  a.supports = dim_sizes;
  a.check = message_fits;
  a.max_messages = one_per_node;
  a.build = edn::build_dim_broadcast;
  a.cost = [](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    return step_model_prediction(
        s, topo, c,
        fmt::format("2n = {} steps; thesis: 2n alpha + 2 beta (2^n - 1) + 2n gamma + 2n beta L; step model "
                    "with alpha={} gamma={}, F={} flits, h <= {}",
                    s.steps, c.alpha, c.gamma, c.flits(args.words), max_hops(s, topo)));
  };
  return a;
}

AlgorithmInfo sc_broadcast_info() {
  AlgorithmInfo a;
  a.name = "sc-broadcast";
  a.summary =
      "scatter-collect broadcast (thesis Ch 5): scatter N pieces along the row and down the columns, then "
      "ring collects along rows and columns (2n + 2(2^n - 1) steps; the message padded to N pieces)";
  a.params = "--source --bytes";
  a.rooted = true;
  a.exactly_once = false;  // the ring collects deliver w - 1 messages to every node twice over
  a.supports = dim_sizes;
  a.check = [](const Topology& topo, const AlgorithmArgs& args) {
    edn::check_message(topo, args, uint64_t(topo.nodes()) * ((args.words + uint64_t(topo.nodes()) - 1) / topo.nodes()));
  };
  a.max_messages = [](const Topology& topo, const AlgorithmArgs&) {
    return 2 * uint64_t(topo.nodes()) * uint64_t(topo.radix()[0]);
  };
  a.build = edn::build_sc_broadcast;
  a.cost = [](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    return step_model_prediction(
        s, topo, c,
        fmt::format("2n + 2(2^n - 1) = {} steps; step model with alpha={} gamma={}, pieces of {} words", s.steps,
                    c.alpha, c.gamma, (args.words + uint32_t(topo.nodes()) - 1) / uint32_t(topo.nodes())));
  };
  return a;
}

// edn-gather runs on the reduction's schedule, and its prediction is the reduction's.
Prediction reduce_cost(const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
  return step_model_prediction(
      s, topo, c,
      fmt::format("{}; step model with alpha={} gamma={}, F={} flits, combine {} cycles/word",
                  mesh_steps(topo, s, true), c.alpha, c.gamma, c.flits(args.words), c.combine_cycles_per_word));
}

AlgorithmInfo edn_reduce_info() {
  AlgorithmInfo a;
  a.name = "edn-reduce";
  a.summary =
      "reduction to --source: the broadcast tree rotated 90 degrees and reversed (3 children per parent "
      "per step), then the reversed 2-step startup (k+1 steps); --tree plain: un-rotated (contention)";
  a.params = "--source (root) --bytes --op --ports (3 ports per node suffice)";
  a.options = {"--tree"};
  a.rooted = true;
  a.supports = edn_mesh;
  a.check = [](const Topology& topo, const AlgorithmArgs& args) {
    edn::check_message(topo, args, 4 * uint64_t(args.words));
  };
  a.max_messages = one_per_node;
  a.build = edn::build_edn_reduce;
  a.cost = reduce_cost;
  return a;
}

AlgorithmInfo edn_gather_info() {
  AlgorithmInfo a;
  a.name = "edn-gather";
  a.summary = "gather to --source on the reduction's schedule, blocks concatenated (k+1 steps)";
  a.params = "--source (root) --bytes (per node) --ports (3 ports per node suffice)";
  a.rooted = true;
  a.supports = edn_mesh;
  a.check = [](const Topology& topo, const AlgorithmArgs& args) {
    edn::check_message(topo, args, uint64_t(topo.nodes()) * args.words);
  };
  a.max_messages = one_per_node;
  a.build = edn::build_edn_gather;
  a.cost = reduce_cost;
  return a;
}

}  // namespace

Family family_edn() {
  Family f;
  f.name = "edn";
  f.summary = "Tsai & McKinley: extended-dominating-node collectives for all-port wormhole meshes";
  f.topologies =
      "mesh:2^k x 2^k and torus:2^d x 2^d, k, d >= 2 (4x4, 8x8, 16x16, 32x32); edn-broadcast, -reduce and -gather "
      "also mesh:A x B with A = a * 2^k, B = b * 2^k, a, b in 4..7 (5x5, 6x6, 7x7, 10x10, 5x7, ...); edn-broadcast "
      "also mesh:A x B x Z with such planes, Z >= 2 (4x4x4, 4x4x5, 8x8x12, 5x5x5, ...) and torus:2^d x 2^d x z, "
      "z >= 2; sld-broadcast mesh:2^k x 2^k only; ft-broadcast any mesh, torus or cube";
  // ft-broadcast runs anywhere, so the family admits every topology and each algorithm narrows it.
  f.supports = [](const Topology&) { return std::string(); };
  f.options = {{"--tree",
                "edn-reduce: the reversed tree rotated by 90 degrees, or plain (the thesis's negative "
                "example)",
                "rotated",
                {"rotated", "plain"}},
               {"--packets", "ft-broadcast: packets K the message is cut into (1..its words)", "1", {}, UINT32_MAX, 1}};
  f.algorithms = {edn_broadcast_info(), dim_broadcast_info(), sc_broadcast_info(), edn_reduce_info(),
                  edn_gather_info(),    sld_info(),           ft_info(),           edn::transpose_info()};
  // The layouts that are the schedule format's (`wormnet export` declares them; it checks each by ideal execution).
  declare_collectives(f, {{"edn-broadcast", "broadcast"},
                          {"dim-broadcast", "broadcast"},
                          {"sc-broadcast", "broadcast"},
                          {"sld-broadcast", "broadcast"},
                          {"ft-broadcast", "broadcast"},
                          {"edn-reduce", "reduce"},
                          {"edn-gather", "gather"}});
  return f;
}

}  // namespace wn::alg
