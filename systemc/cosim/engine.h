// The co-simulation engine every run shares (traffic, firmware, packet
// scenarios): the network with its packet store and scoreboard, the deadlock
// watchdog, the occupancy shadow (occupancy.h: where every flit sits; it
// explains a deadlock and the contention monitor measures on it), the SystemC
// clock and the one clocked process that runs every cycle.
//
// A cycle is: before(now) (nodes drive), one edge of every router, the
// shadow's observation (by the engine, or by the run's contention monitor
// inside after()), after(now) (nodes collect, the run's own checks and stop
// conditions; false stops). A run that knows when its nodes are idle may let
// the engine jump over idle cycles (quiet(), below). Collecting never changes
// what the shadow reads (the routers' outputs and last inputs, injection
// times), so observing before or after collecting is the same.
//
// The order of the checks inside after() differs between runs (which
// verdict wins when two fire at the same cycle), so after() decides when to
// ask deadlocked(now); the engine words the report once for everybody.
#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "systemc/core/packet.h"
#include "systemc/network/deadlock_watchdog.h"
#include "systemc/network/network.h"
#include "systemc/network/occupancy.h"
#include "systemc/network/scoreboard.h"

namespace wn {

// The first line of a deadlock report. Commands word it differently and the
// words are part of their pinned outputs:
//   <title>[: no flit moved for W cycles[ (since cycle L)], F flits in the network]
// followed by the wait-for analysis, or by the caller's hint (the app words it: it owns the
// option that turns the analysis on).
struct DeadlockWording {
  std::string title = "deadlock";
  bool summary = true;     // the ": no flit moved ..." part
  bool since = false;      // name the cycle of the last movement
  std::string rerun_hint;  // the line after the report when waits are not tracked ("": none)
};

struct EngineOptions {
  uint64_t watchdog = 2000;  // cycles without flit movement, flits inside = deadlock (0: never)
  // Observe every flit so that a deadlock report names its cycle of waits;
  // costs a good part of the model's speed, hence off unless asked for.
  bool explain_deadlock = false;
  DeadlockWording wording;
  std::string trace;  // FST path (RTL and lock-step backends)
  // Told the cycle every kProgressCycles simulated cycles or so (skipped idle stretches count):
  // a progress display; it must not touch the run.
  std::function<void(uint64_t now)> progress;
  // Tests only: the first packet id (ids, and the flit's msg tags, can start
  // near 2^WN_MSG_W to exercise the wrap-around; see PacketStore).
  uint64_t first_packet_id = 0;
};

class Engine {
 public:
  using Before = std::function<void(uint64_t now)>;
  using After = std::function<bool(uint64_t now)>;  // false: stop after this cycle
  // Asked after after(now) returned true: the last cycle the run may jump to
  // when nothing happens before it (<= now + 1: no jump). A run answers > now + 1
  // only when none of its nodes has work for the fabric (outboxes and NIs empty)
  // and its checks would give the same verdicts on every skipped cycle; the
  // engine then jumps only if the network is idle too (a router that is idle
  // and receives nothing keeps its state: rtl/README.md §6) and lands on the
  // cycle of the kernel's next pending activity (a firmware thread waking up),
  // so cycle counts, packet ids and every output are those of the full run.
  using Quiet = std::function<uint64_t(uint64_t now)>;

  // `topo` must outlive the engine (the network keeps a reference).
  Engine(const Topology& topo, const NetworkParams& params, EngineOptions opt);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Network& network() { return net_; }
  PacketStore& store() { return store_; }
  Scoreboard& scoreboard() { return sb_; }
  const Network& network() const { return net_; }
  const PacketStore& store() const { return store_; }
  const Scoreboard& scoreboard() const { return sb_; }
  bool explaining() const { return explain_; }
  // The run's occupancy shadow, created on the first call; from then on the
  // caller observes it once per cycle (after the edge, before asking
  // deadlocked()) — the contention monitor does. Without such a caller, the
  // engine observes it itself when it explains deadlocks.
  Occupancy& observed_occupancy();

  // Runs the simulation until after() returns false; once per process
  // (SystemC elaborates once). The nodes must exist by now: the clock and
  // the clocked process are created here, after them, as they always were.
  // Rethrows an exception raised inside a cycle (lock-step divergence, ...).
  void run(Before before, After after, Quiet quiet = nullptr);

  // Cycles run so far (during a cycle: the cycle's number).
  uint64_t now() const { return now_; }
  double wall_seconds() const { return wall_seconds_; }
  // Cycles jumped over (counted in now(), never evaluated).
  uint64_t cycles_skipped() const { return skipped_; }

  // For after(): the watchdog's verdict at cycle `now`; call it once per
  // cycle. When true, deadlock_report() holds the report.
  bool deadlocked(uint64_t now) {
    if (!watchdog_.check(now, net_.moves(), net_.flits_in_network())) return false;
    report_deadlock();
    return true;
  }
  const std::string& deadlock_report() const { return deadlock_report_; }

 private:
  class Clocked;
  // One cycle; returns the cycles until the next one (0: stop).
  uint64_t edge();
  uint64_t next_cycle();
  void report_deadlock();

  EngineOptions opt_;
  Network net_;
  PacketStore store_;
  Scoreboard sb_;
  bool explain_ = false;
  std::unique_ptr<Occupancy> occupancy_;  // when explaining deadlocks or measuring contention
  bool engine_observes_ = false;          // nobody else observes occupancy_
  DeadlockWatchdog watchdog_;
  std::string deadlock_report_;
  Before before_;
  After after_;
  Quiet quiet_;
  std::unique_ptr<Clocked> clocked_;
  std::exception_ptr error_;
  uint64_t now_ = 0;
  uint64_t skipped_ = 0;
  uint64_t next_progress_ = 0;
  double wall_seconds_ = 0;
};

}  // namespace wn
