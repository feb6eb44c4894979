// What a router costs: yosys synthesizes rtl/cost/wn_router_cost.sv (the
// router with its configuration fixed at elaboration) and the cell counts are
// weighed in NAND2 equivalents (rtl/README.md §8). `wormnet cost` prints them;
// `wormnet compare --cost` puts them next to the measured cycles.
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "systemc/topology/topology.h"

namespace wn::cli {

struct CostRequest {
  std::string topology;  // as given, e.g. "mesh:8x8"
  std::string ports;     // "one" | "all" | K
  int vcs = 2;
  int buf = 8;
};

struct CostReport {
  CostRequest req;
  std::string kind;                   // mesh | torus | cube
  int radix = 0;                      // network ports of the router
  int channels = 0;                   // injection = ejection channels built
  std::map<std::string, long> cells;  // yosys cell type -> count
  long cell_count = 0, flops = 0;
  double logic_nand2 = 0, flop_nand2 = 0;
  double yosys_seconds = 0;  // of the run that produced the numbers (also when read from the cache)
  bool cached = false;
  double nand2() const { return logic_nand2 + flop_nand2; }
  nlohmann::json to_json() const;
};

// Throws ConfigError naming the field for a request that can not be built
// (a FIFO depth that is not a power of two, an odd VC count on a torus, ...).
void validate_cost(const CostRequest& req);
// Synthesizes (or reads the cache: $WORMNET_COST_CACHE, else
// $XDG_CACHE_HOME/wormnet/cost, else ~/.cache/wormnet/cost; the key hashes the
// RTL sources, so an RTL change re-synthesizes). Throws std::runtime_error if
// yosys is missing or fails.
CostReport synthesize_cost(const CostRequest& req, bool use_cache = true);
// The per-cell weights (NAND2 equivalents) the estimate uses.
const std::vector<std::pair<std::string, double>>& cell_weights();

// Every combination of the comma-separated lists, validated (ConfigError names the field).
std::vector<CostRequest> cost_requests(const std::string& topologies, const std::string& ports, const std::string& vcs,
                                       const std::string& buf);
// Synthesizes each request in its own process, `jobs` at once; `print`: the table rows as they come.
std::vector<CostReport> synthesize_costs(const std::vector<CostRequest>& reqs, unsigned jobs, bool use_cache,
                                         bool print);
// compare --cost: each summary row gains "area_nand2" (its port model's router), and a table of
// cycles, area and performance per area against the first port model of the same variant and size.
void print_area_table(nlohmann::json& summary, const std::vector<std::string>& ports,
                      const std::vector<CostReport>& costs);

}  // namespace wn::cli
