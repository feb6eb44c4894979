#include "systemc/cosim/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <systemc>

#include "systemc/network/wait_explainer.h"

namespace wn {

namespace {
// Every program that links the engine (wormnet, the tests, user firmware) keeps stdout for its
// own output: libsystemc prints its banner when the kernel starts unless this is set, and
// static initialization runs before any SystemC object can exist.
const bool kNoSystemcBanner = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}  // namespace

// The clocked top of the co-simulation. The SystemC kernel owns time; the
// fabric's method is the only process that runs every cycle, and it calls the
// nodes in node order, so results do not depend on the scheduler's process
// order. It schedules its own edges (no sc_clock: an idle stretch of the run
// can then be one timed notification instead of one edge per cycle).
class Engine::Clocked {
 public:
  class Fabric : public sc_core::sc_module {
   public:
    SC_HAS_PROCESS(Fabric);
    Fabric(const sc_core::sc_module_name& name, Engine& engine) : sc_core::sc_module(name), engine_(engine) {
      // sc_stop() is how every run ends; the kernel's info messages are noise
      // on a results table (warnings and errors still print).
      sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
      SC_METHOD(tick);  // initialized: its first call, at time 0, schedules edge 0
    }

   private:
    // Edges at n + 0.5 ns: firmware threads own the whole nanoseconds (firmware/firmware_node.h).
    void tick() {
      if (!started_) {
        started_ = true;
        next_trigger(0.5, sc_core::SC_NS);
        return;
      }
      if (const uint64_t next = engine_.edge()) next_trigger(double(next), sc_core::SC_NS);
    }
    Engine& engine_;
    bool started_ = false;
  };

  explicit Clocked(Engine& engine) : fabric("fabric", engine) {}
  Fabric fabric;
};

namespace {
// Waveforms come from the fully verilated routers: the trimmed ones are built without tracing.
NetworkParams traced(NetworkParams p, const std::string& trace) {
  if (!trace.empty()) p.rtl_trimmed = false;
  return p;
}
}  // namespace

Engine::Engine(const Topology& topo, const NetworkParams& params, EngineOptions opt)
    : opt_(std::move(opt)),
      net_(topo, traced(params, opt_.trace)),
      store_(opt_.first_packet_id),
      sb_(topo, store_),
      watchdog_(opt_.watchdog) {
  // Without a watchdog there is no report to explain.
  explain_ = opt_.watchdog && opt_.explain_deadlock;
  if (explain_) {
    occupancy_ = std::make_unique<Occupancy>(net_, store_);
    engine_observes_ = true;
  }
}

Occupancy& Engine::observed_occupancy() {
  if (!occupancy_) occupancy_ = std::make_unique<Occupancy>(net_, store_);
  engine_observes_ = false;
  return *occupancy_;
}

Engine::~Engine() = default;

void Engine::run(Before before, After after, Quiet quiet) {
  before_ = std::move(before);
  after_ = std::move(after);
  quiet_ = std::move(quiet);
  clocked_ = std::make_unique<Clocked>(*this);
  if (!opt_.trace.empty()) net_.trace(opt_.trace);
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // An exception raised inside the clocked method stopped the run; it is rethrown here intact.
  if (error_) std::rethrow_exception(error_);
}

uint64_t Engine::edge() {
  bool go_on = false;
  uint64_t next = 1;
  try {
    before_(now_);
    net_.cycle();
    if (engine_observes_) occupancy_->observe(now_);
    go_on = after_(now_);
    if (go_on) next = next_cycle() - now_;
  } catch (...) {
    error_ = std::current_exception();
    go_on = false;
  }
  ++now_;
  if (!go_on) {
    sc_core::sc_stop();
    return 0;
  }
  if (next > 1) {
    net_.skip_idle(next - 1);
    skipped_ += next - 1;
    now_ += next - 1;
  }
  if (now_ >= next_progress_ && opt_.progress) {
    constexpr uint64_t kProgressCycles = 4096;  // a few ms of the slowest backend's time
    next_progress_ = now_ + kProgressCycles;
    opt_.progress(now_);
  }
  return next;
}

// The cycle of the next edge: now_ + 1, or later when the run and the
// network are idle and the kernel has nothing to do before then. Firmware
// acts at whole nanoseconds; what it does at ns t is seen by edge t.
uint64_t Engine::next_cycle() {
  const uint64_t soonest = now_ + 1;
  if (!quiet_ || !net_.idle()) return soonest;
  const uint64_t limit = quiet_(now_);
  if (limit <= soonest || !sc_core::sc_pending_activity()) return soonest;
  const double at = (sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity()).to_seconds() * 1e9;
  const uint64_t cycle = uint64_t(at + 0.25);  // whole ns: the cycle of that edge
  return std::max(soonest, std::min(cycle, limit));
}

void Engine::report_deadlock() {
  const DeadlockWording& w = opt_.wording;
  std::string r = w.title;
  if (w.summary)
    r += fmt::format(": no flit moved for {} cycles{}, {} flits in the network", watchdog_.window(),
                     w.since ? fmt::format(" (since cycle {})", watchdog_.last_move()) : std::string(),
                     net_.flits_in_network());
  r += '\n';
  r += explain_ ? explain_waits(*occupancy_, net_, store_) : w.rerun_hint.empty() ? std::string() : w.rerun_hint + "\n";
  deadlock_report_ = std::move(r);
}

}  // namespace wn
