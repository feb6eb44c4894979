// `wormnet run`: one algorithm's schedule executed by the interpreter on the
// cycle-accurate co-simulation, checked word for word against its oracle and
// compared with its analytic cost.
#pragma once
#include <array>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/registry.h"
#include "algorithms/schedule_checker.h"
#include "experiments/json_stream.h"
#include "firmware/firmware_run.h"

namespace wn::fw {

struct ScheduleRunOptions {
  std::string topology = "mesh:4x4";
  std::string ports = "one";  // one | all | K
  NetworkParams net;          // inj/ej come from `ports`
  FirmwareRunOptions run;
  std::string algorithm = "rd-broadcast";
  std::string schedule;      // a wormnet.schedule/1 file: runs instead of `algorithm`
  std::string firmware;      // LIB[:ENTRY], a firmware plugin: runs instead of `algorithm` (program_run.h)
  std::string source = "0";  // node id, or "random" (drawn from --seed)
  uint32_t bytes = 1024;     // per block / message
  std::string op = "sum";
  std::vector<int> group;                             // empty = all nodes
  std::map<std::string, std::string> family_options;  // family flags as given (--order gray, ...)
  uint64_t seed = 1;
};

using ClassCycles = std::array<uint64_t, kContentionClasses>;

struct StepTiming {
  uint32_t tag = 0;
  uint64_t start = 0, end = 0;  // first message issued, last node to finish
  int nodes = 0;                // nodes with a step of this tag
  // Delay view: cycles this step's messages were delivered later than at zero load, by class.
  ClassCycles delay{};
  int delayed_messages = 0;  // messages of this step with any delay
  uint64_t port_wait = 0;    // their waits for an injection channel before the head went in (not delay)
  ClassCycles resource{};    // resource view: packet-cycles its messages were blocked, by class
};

struct ScheduleRunResult {
  ScheduleRunOptions options;  // as run (source resolved)
  NetworkSetup network;        // the network, resolved once
  int source = 0;
  FirmwareRunResult run;
  alg::Prediction predicted;
  bool data_ok = false;
  bool data_checked =
      true;  // false: firmware of your own without a check (data_ok then says only that the run completed)
  std::string data_error;  // "node N addr A: expected X got Y"
  std::string oracle;      // what the data check compared against, when the algorithm's name does not say it
  std::vector<StepTiming> steps;
  uint64_t messages = 0, words = 0;
  // Delay view per message: run.message_delay. Whole run:
  ClassCycles delay{};
  uint64_t port_wait = 0;
  uint64_t delayed_messages = 0;
  // Resource view (packet-cycles blocked at outputs, incl. the NI's port wait), by message id and whole run.
  std::vector<ClassCycles> message_resource;
  ClassCycles resource{};
  // The thesis's latency metrics (Tsai's thesis), in cycles from the first send of the run
  // (the source's, for a rooted operation) to each receiving node's last receive completed:
  // the mean over the nodes that receive, and the maximum. 0 when nothing was received.
  double average_latency = 0;
  uint64_t maximum_latency = 0;
  bool ok() const { return run.ok && data_ok; }
  double microseconds() const { return double(run.cycles) * options.run.profile.clock_ns / 1000.0; }
  // Deterministic (no wall time). Without detail: the summary only, no
  // per-channel, per-message and per-node-step lists (GBs on big cubes).
  nlohmann::json to_json(bool detail = true) const;
  // to_json(true) as a streamed report: those lists are built element by element while they are
  // written (stream_json_report). It reads this result: keep the result until it is written.
  StreamedJson to_json_streamed() const;
  std::string summary() const;  // human-readable, several lines
  // The CSV tables per channel and per message, whole or row by row (header first) to `out`.
  using CsvOut = std::function<void(std::string_view)>;
  std::string channels_csv() const;
  std::string messages_csv() const;
  void channels_csv(const CsvOut& out) const;
  void messages_csv(const CsvOut& out) const;
};

// The network of the options (topology, port model, network parameters), resolved once.
NetworkSetup resolve_network(const ScheduleRunOptions& opt);
// The algorithm the options name: the schedule file's, else the built-in `algorithm`.
const alg::AlgorithmInfo& algorithm_of(const ScheduleRunOptions& opt);
// The root node (--source: a node id or random, drawn from the seed) and the block in words
// (--bytes); throw ConfigError.
int source_of(const ScheduleRunOptions& opt, const Topology& topo);
uint32_t words_of(const ScheduleRunOptions& opt);
// Resolves the algorithm and its arguments from the options; throws ConfigError.
alg::AlgorithmArgs algorithm_args(const ScheduleRunOptions& opt, const NetworkSetup& net, int* source_out = nullptr);
ScheduleRunResult run_schedule(const ScheduleRunOptions& opt, const NetworkSetup& net);
// What every run reports after the simulation: step timings, latency, both contention views.
void measure_run(ScheduleRunResult& res);
inline ScheduleRunResult run_schedule(const ScheduleRunOptions& opt) { return run_schedule(opt, resolve_network(opt)); }
// `wormnet check --simulate`: per step, the static prediction against the
// measured stepwise contention (delay view: cycles it made the step's messages
// late). A step the checker calls contention-free whose messages were delayed
// by stepwise contention is a disagreement (a bug in the router, the checker
// or the schedule); conflicts predicted but not observed are possible (skew
// separates the messages in time) and only reported.
struct SimulatedCheck {
  bool agrees = true;
  std::string text;
  nlohmann::json json;
};
SimulatedCheck compare_check(const alg::ScheduleCheck& c, const ScheduleRunResult& r);
// JSON of a static check (schema wormnet.check/1).
nlohmann::json check_to_json(const alg::ScheduleCheck& c, const Topology& topo, const ScheduleRunOptions& opt,
                             int source);

}  // namespace wn::fw
