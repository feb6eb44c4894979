// Tuning tables (`wormnet tune`, schema wormnet.tuning/1): for one CCL operation on one network,
// port model and profile, message-size ranges -> the algorithm and knobs that measured fastest.
// Like MPICH's JSON tuning files, a range is "up to max_bytes" (inclusive) above the previous
// range's bound; the last range has no bound and serves every larger size. `--ccl-alg tuned
// --tuning FILE` looks a run's size up here. The file is input: every field is checked on
// reading, and a bad one is a ConfigError naming the option that gave the file, the field and
// what is allowed.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/ccl/ccl.h"
#include "algorithms/registry.h"

namespace wn::alg::ccl {

inline constexpr const char* kTuningSchema = "wormnet.tuning/1";

// A candidate as run: its family flags ("--ccl-alg" always; "--kappa", "--packet", "--radix"
// where the algorithm reads them), values as the command line takes them.
using TunedOptions = std::map<std::string, std::string>;
std::string tuned_label(const TunedOptions& o);  // "hybrid/kappa=3", "ring"

struct TuningRange {
  uint64_t max_bytes = 0;  // inclusive; 0 on the last range: every larger size
  TunedOptions options;
};

// What a table was measured on; a run must match it (a table of one network says nothing of another).
struct TuningScope {
  std::string operation;  // "ccl-combine"
  std::string topology;   // as given, e.g. "mesh:8x8"
  int nodes = 0;          // the group size
  int ports = 0;          // injection = ejection channels per node
  std::string op;         // the reduction operator ("" when the operation does not reduce)
  // The profile's costs that rank algorithms (start-up, per-word, copy and combine cycles, ...):
  // a table measured with other costs says nothing of this run.
  std::map<std::string, double> cost;
};

struct TuningTable {
  TuningScope scope;
  std::string profile;
  std::vector<TuningRange> ranges;  // ascending max_bytes, the last unbounded
  const TunedOptions& pick(uint64_t bytes) const;
};

// Ranges from the winners at measured sizes (ascending, distinct): each winner serves up to its
// size, consecutive equal winners merge, and the largest size's winner serves everything above.
std::vector<TuningRange> tuning_ranges(const std::vector<std::pair<uint64_t, TunedOptions>>& winners);
nlohmann::json tuning_ranges_json(const std::vector<TuningRange>& ranges);
nlohmann::json tuning_scope_json(const TuningScope& s);

// The linear model of `--ccl-alg auto` (the paper's T = C1 t_s + C2 t_c, §IV.A) on a profile:
// t_s = alpha + gamma + two hops, t_c = one word's share of a flit (cycles).
double model_ts(const CostParams& c);
double model_tc(const CostParams& c);
// `--ccl-alg auto` on a call whose alg is "" (index: Bruck at c.radix, which `radix_given` says the
// user set; a call with a packet size: nesbt where it can; else choose_by_model). `why` says why.
Call auto_call(const Call& c, const CostParams& cost, bool radix_given, std::string* why);
// ring-2d's ranks per row for a group of `topo` (members in rank order): a mesh's or torus's rows
// when the group is the whole network in node order, so the rings run between neighbours; else 0
// (the default of ring_2d_cols).
int ring_2d_cols_for(const Topology& topo, const std::vector<int>& group);
// A resolved call's algorithm and the knobs it reads, as tune varies them (--packet in bytes).
TunedOptions tuned_options(const Call& c);

// The scope of a run of `operation` ("ccl-combine") over `nodes` ranks of `topology` (its name).
TuningScope tuning_scope(const std::string& operation, const std::string& topology, int nodes,
                         const AlgorithmArgs& args);

// Reads and checks a table (ConfigError(`option`) on anything wrong, before any simulation).
TuningTable read_tuning(const std::string& path, const std::string& option);
// --ccl-alg tuned: `c` with the algorithm and knobs the table at `path` measured fastest for its
// size; ConfigError(option) when there is no path, the file is bad, it was measured for another
// scope than `run`, or its pick cannot run the call.
Call tuned_call(Call c, const std::string& path, const std::string& option, const TuningScope& run);
// "" when `table` was measured for `run`, else what differs, naming both values.
std::string tuning_mismatch(const TuningScope& table, const TuningScope& run);

}  // namespace wn::alg::ccl
