// One firmware co-simulation: topology -> network (RTL, model or lock-step)
// -> one FirmwareNode per node (NI + memory + firmware thread). Runs until
// every firmware returns and the network is empty, or stops on a network
// deadlock, on firmware that waits for a message nobody sends, on a scoreboard
// error, or at max_cycles.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "firmware/delay_view.h"
#include "firmware/firmware_node.h"
#include "firmware/machine_profile.h"
#include "firmware/message_log.h"
#include "systemc/core/config_error.h"
#include "systemc/network/channel_timeline.h"
#include "systemc/network/contention_monitor.h"
#include "systemc/network/network.h"

namespace wn::fw {

struct FirmwareRunOptions {
  MachineProfile profile;  // ideal unless set
  // --sync barrier: the interpreter waits at a global barrier before every step (firmware/step_barrier.h),
  // each release costing barrier_cycles; false: free-running nodes (data-driven, steps overlap).
  bool barrier = false;
  uint64_t barrier_cycles = 0;
  // Synchronous sends (firmware/rendezvous.h): a send waits until its receiver posted the receive.
  bool synchronous_sends = false;
  uint64_t max_cycles = 100'000'000;
  ParamWords words = neutral_param_word;  // names max_cycles in the stop message (app/ words it)
  // Jump over idle stretches (nothing in flight, nodes computing): the same
  // results; false evaluates every cycle (--no-idle-skip, to check exactly that).
  bool skip_idle = true;
  uint64_t watchdog = 20000;       // cycles without flit movement with flits inside = deadlock
  bool explain_deadlock = false;   // track every flit so a deadlock names its cycle of waits (slower)
  std::string deadlock_hint;       // printed after a deadlock report without that analysis (app/ words it)
  uint64_t expected_messages = 0;  // hint: reserve the message log (a big cube's log is GBs)
  std::string trace;               // FST file (RTL backend)
  // Progress display: the cycle, and an estimate of the last one (0: none).
  std::function<void(uint64_t now, uint64_t end)> progress;
  uint64_t expected_cycles = 0;  // the estimate progress is given (the prediction)
  bool snapshots = false;        // keep every node's memory at the end of each of its steps
  // Record a timeline: every channel's holds and waits (systemc/network/channel_timeline.h) and
  // every node's local operations (off: neither costs anything).
  bool timeline = false;
  int fault_node = -1;  // test-only: corrupt the first message this node receives
  alg::Word fault_mask = 0;
};

struct FirmwareRunResult {
  bool ok = true;
  std::string error;    // first problem (deadlock, stuck firmware, scoreboard, limit)
  uint64_t cycles = 0;  // operation time: last firmware return
  uint64_t cycles_simulated = 0;
  uint64_t cycles_skipped = 0;                 // of those, idle ones jumped over (engine.h, Quiet)
  std::vector<std::vector<alg::Word>> memory;  // final memory per node
  std::vector<std::vector<StepSpan>> steps;    // per node
  MessageLog log;
  uint64_t packets = 0, flits_injected = 0, flit_hops = 0;
  double wall_seconds = 0;
  int inj_channels = 1;
  RouterTiming timing;  // the routers' zero-load timing (Network::timing()): the delay view's zero loads
  // Contention measurement (systemc/network/contention_monitor.h).
  std::vector<PacketRecord> packet_records;  // by packet id
  // Delay view (exact: latency - zero load by class and blocker).
  std::vector<PacketDelay> packet_delay;    // by packet id
  std::vector<MessageDelay> message_delay;  // by message id
  uint64_t delay_unexplained = 0;           // 0 (ContentionMonitor::unexplained)
  // Resource view (packet-cycles blocked, per packet and per output).
  std::vector<PacketContention> packet_contention;  // by packet id (may be shorter: no waits)
  std::map<std::pair<int, int>, ChannelCounters> channels;
  std::map<std::pair<int, int>, ContentionMonitor::InjectionCounters> injection;
  // With FirmwareRunOptions::timeline only: the channels' intervals, each node's local operations.
  std::shared_ptr<const ChannelTimeline> timeline;
  std::vector<std::vector<LocalSpan>> local_ops;  // per node
  // Resource view: blocked cycles of message m by class (summed over its packets).
  std::array<uint64_t, kContentionClasses> message_blocked(uint32_t m) const;
};

// On the network `net`: `firmware(node)` gives each node's firmware, `memory_words`/`init` its memory.
FirmwareRunResult run_firmware(const NetworkSetup& net, const FirmwareRunOptions& opt,
                               const std::function<FirmwareFn(int)>& firmware, uint32_t memory_words,
                               const std::function<alg::Word(int, uint32_t)>& init);
// The same with node i's memory `node_words[i]` words long (one entry per node).
FirmwareRunResult run_firmware(const NetworkSetup& net, const FirmwareRunOptions& opt,
                               const std::function<FirmwareFn(int)>& firmware, const std::vector<uint32_t>& node_words,
                               const std::function<alg::Word(int, uint32_t)>& init);

}  // namespace wn::fw
