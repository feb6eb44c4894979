// Algorithm families. A family is one folder under algorithms/families/ whose
// family.cpp defines `Family family_<folder>()`; the build discovers the
// folders and registers every family (cmake: generated families.cpp), so
// adding a family touches nothing outside its folder. A family declares which
// topologies it supports (a predicate), its own command-line options, and its
// algorithms: generator (with the oracle inside the schedule), argument checks
// and analytic cost. `wormnet list`, `run --help` and the option parsing are
// generated from it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "algorithms/combine_op.h"
#include "algorithms/cost_model.h"
#include "algorithms/schedule.h"
#include "systemc/core/config_error.h"
#include "systemc/topology/topology.h"

namespace wn::alg {

// A flag only one family reads (e.g. --order). Either a word from `choices`
// or, when `choices` is empty, an unsigned integer in 0..max.
struct OptionSpec {
  std::string flag;
  std::string help;
  std::string default_value;
  std::vector<std::string> choices;
  uint64_t max = UINT32_MAX;
  uint64_t min = 0;
  // An integer option may also take this one word (e.g. "auto"): word() is the
  // text as given, number() the integer (0 for the word).
  std::string keyword;
  // A switch (no value on the command line): "on" when given, else "off".
  bool switch_only = false;
  // Free text (a file name): word() is the text as given.
  bool text = false;
  // Read only when another family flag has this value (--kappa: --ccl-alg hybrid): given
  // otherwise, it is refused rather than ignored.
  std::string only_with_flag, only_with_value;
};

// Family options as parsed once from the command line (parse_options).
class OptionValues {
 public:
  // The value of a choice option / an integer option; throws std::logic_error
  // for a flag the family did not declare (a bug, not user input).
  const std::string& word(const std::string& flag) const;
  uint64_t number(const std::string& flag) const;
  void set_word(const std::string& flag, std::string v) { words_[flag] = std::move(v); }
  void set_number(const std::string& flag, uint64_t v) { numbers_[flag] = v; }

 private:
  std::map<std::string, std::string> words_;
  std::map<std::string, uint64_t> numbers_;
};

struct AlgorithmArgs {
  int source = 0;          // root of rooted collectives (broadcast, reduce, gather, scatter)
  uint32_t words = 1;      // 32-bit words per block (the per-message / per-node unit)
  int ports = 1;           // k of the k-port variants (from the port model)
  OpId op = 1;             // reduction operator (default sum)
  CostParams cost;         // the run's profile (for tuning, e.g. --radix auto); set by the caller
  uint64_t seed = 1;       // the run's seed (schedule files draw their data pattern from it)
  std::vector<int> group;  // --group as given (empty: all nodes); for `groups` algorithms the
                           // pipeline replaces it with the resolved member list before building
  OptionValues options;    // the family's own options
  int source_rank = 0;     // set by the pipeline: the rank of `source` in `group` (rooted, groups)
};

struct AlgorithmInfo {
  std::string name;
  // Other names users type for it (MPI's and NCCL's operation names: "allreduce"); reports
  // always carry `name`.
  std::vector<std::string> aliases;
  std::string file;  // the schedule file it was read from ("" for a family's algorithm)
  std::string summary;
  std::string params;                // the common flags it reads, e.g. "--source --bytes --op"
  std::vector<std::string> options;  // the family flags it reads, e.g. {"--order"}
  bool rooted = false;               // reads --source
  bool groups = false;               // built over ranks 0..n-1 of --group; the pipeline remaps
  bool tuned = false;                // its schedule depends on the profile (a radix or algorithm chosen by the model)
  bool exactly_once = false;         // every node receives at most one message (broadcast, scatter)
  // The wormnet.schedule/1 collective whose layout (docs/schedule-format.md) the schedule keeps,
  // with words = --bytes / 4, root = the source's rank, op = --op: `wormnet export` declares it,
  // so the file's oracle checks the operation. "" when the layout is the family's own.
  std::string collective;
  // Optional: narrower than the family's `supports` ("" when it runs on `topo`, else why and what is allowed).
  std::function<std::string(const Topology&)> supports;
  // Throws ConfigError for a size or argument it cannot run (after the topology checks).
  std::function<void(const Topology&, const AlgorithmArgs&)> check;
  // An upper bound on the schedule's messages, known before it is built: the
  // pipeline refuses a schedule that would not fit in memory (check_schedule_size).
  std::function<uint64_t(const Topology&, const AlgorithmArgs&)> max_messages;
  // The schedule over ranks (groups) or physical nodes.
  std::function<Schedule(const Topology&, const AlgorithmArgs&)> build;
  // The analytic prediction for the schedule the pipeline built (physical nodes).
  std::function<Prediction(const Topology&, const AlgorithmArgs&, const CostParams&, const Schedule&)> cost;
};

struct Family {
  std::string name;
  std::string summary;
  std::string topologies;  // for people (`wormnet list`); `supports` decides
  // "" when the family runs on `topo`, otherwise the reason and what is allowed.
  std::function<std::string(const Topology&)> supports;
  std::vector<OptionSpec> options;
  std::vector<AlgorithmInfo> algorithms;
};

// Sets AlgorithmInfo::collective of the named algorithms of `f` (a name it lacks is a bug).
void declare_collectives(Family& f, const std::map<std::string, std::string>& algorithm_to_collective);
// Adds aliases (other names users type) to the named algorithms of `f` (a name it lacks is a bug).
void declare_aliases(Family& f, const std::map<std::string, std::vector<std::string>>& algorithm_to_aliases);

// The condition of `spec.only_with_*` on the family flags `given` (unset flags: their defaults).
bool option_applies(const Family& f, const OptionSpec& spec, const std::map<std::string, std::string>& given);

// A family's `supports` for "any network of at least 2 nodes" (collectives need a partner).
std::function<std::string(const Topology&)> any_network(const std::string& family);

// Throws std::logic_error naming the family, the algorithm and the field when a registration
// lacks what the pipeline calls (name, summary, supports; per algorithm: name, summary, check,
// max_messages, build, cost) or reads a family option the family does not declare. families()
// runs it on every family once, before any is used.
void validate_family(const Family& f);
const std::vector<Family>& families();
const std::vector<AlgorithmInfo>& algorithms();  // every family's, in family order
// Throws ConfigError(Param::algorithm, allowed names) when unknown.
const AlgorithmInfo& find_algorithm(const std::string& name);  // a name or an alias
// `name` with an alias replaced by the algorithm's name (anything else unchanged).
std::string canonical_algorithm(const std::string& name);
const Family& family_of(const AlgorithmInfo& info);
// "" when `info` runs on `topo` (its family's predicate and its own), else the reason.
std::string unsupported(const AlgorithmInfo& info, const Topology& topo);
bool reads_option(const AlgorithmInfo& info, const std::string& flag);
// Whether `info` reads a common flag: --source (rooted), --group (groups), or one its `params` names.
bool reads_param(const AlgorithmInfo& info, const std::string& flag);
// Every family option, once per flag (families that share a flag must declare it alike).
std::vector<OptionSpec> all_options();

// Simulated node memory is real host memory, and a run needs about twice
// it in all: a schedule may take at most a third of this machine's RAM
// (at least 1 GiB), and at most half of the address-space limit (`ulimit -v`).
// Throws ConfigError(Param::bytes, sizes) beyond that.
uint64_t node_memory_limit_bytes();
// What that limit is here, for messages: "a third of this machine's RAM" or the ulimit's half.
std::string node_memory_limit_source();
void check_node_memory(const Topology& topo, uint64_t words_per_node);
// The same for a built schedule whose nodes' memories differ (Schedule::node_words).
void check_node_memory(const Topology& topo, const Schedule& s);
// A schedule, its static check and a run's message log take about this much host
// memory per message (measured: `wormnet check` on cube:8 and cube:10 direct-alltoall,
// 1.6 KiB); the same limit as node memory. Throws ConfigError(field, sizes): the
// parameter that multiplies the message count (the network, or a packet count).
constexpr uint64_t kHostBytesPerMessage = 2048;
void check_schedule_size(const std::string& algorithm, const Topology& topo, uint64_t messages,
                         const ConfigField& field = Param::topology, const std::string& smaller = "a smaller network");

}  // namespace wn::alg
