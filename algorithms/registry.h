// Registry of collective algorithms: name, legal topologies, parameters, the
// schedule generator, and the analytic cost. `wormnet list`, `run`, `compare`
// and (later) `check` are generated from it; a topology/algorithm mismatch is
// a ConfigError naming the field and what is allowed.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "algorithms/combine_op.h"
#include "algorithms/cost_model.h"
#include "algorithms/schedule.h"
#include "systemc/topology/topology.h"

namespace wn::alg {

struct AlgorithmArgs {
  int source = 0;             // root of rooted collectives (broadcast, reduce, gather, scatter)
  uint32_t words = 1;         // 32-bit words per block (the per-message / per-node unit)
  int ports = 1;              // k of the k-port variants (from the port model)
  OpId op = 1;                // reduction operator (default sum)
  std::vector<int> group;     // CCL process group (physical node ids); empty = all nodes
  bool gray = false;          // hypercube data order: Gray-coded node order (default binary)
  bool move_indices = false;  // d-cycles: indices travel with the data (default: computed locally)
  uint32_t total_elements = 0;  // hc-dcycles-reduce: M elements per node in the CM-200's uneven blocks (0: N x M')
};

struct AlgorithmInfo {
  std::string name;
  std::string summary;
  std::string topologies;  // human-readable legal set, e.g. "any" or "cube"
  std::string params;      // which AlgorithmArgs it reads, e.g. "--source --bytes --op"
  bool exactly_once = false;  // every node receives at most one message (broadcast, scatter)
  // Throws ConfigError for a topology/size/argument it cannot run.
  std::function<void(const Topology&, const AlgorithmArgs&)> check;
  std::function<Schedule(const Topology&, const AlgorithmArgs&)> build;
  std::function<Prediction(const Topology&, const AlgorithmArgs&, const CostParams&)> cost;
  // Optional: the same prediction from the schedule already built for a run
  // (cost models that walk the schedule need not build it a second time).
  std::function<Prediction(const Topology&, const AlgorithmArgs&, const CostParams&, const Schedule&)> cost_of_schedule;
};

const std::vector<AlgorithmInfo>& algorithms();
// Throws ConfigError("--algorithm", allowed names) when unknown.
const AlgorithmInfo& find_algorithm(const std::string& name);

// Simulated node memory is real host memory, and a run needs about twice
// it in all: a schedule may take at most a third of this machine's RAM
// (at least 1 GiB). Throws ConfigError("--bytes", sizes) beyond that.
uint64_t node_memory_limit_bytes();
void check_node_memory(const Topology& topo, uint64_t words_per_node);

}  // namespace wn::alg
