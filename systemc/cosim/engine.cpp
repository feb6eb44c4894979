#include "systemc/cosim/engine.h"

#include <fmt/format.h>

#include <chrono>
#include <systemc>

namespace wn {

// The clock and the clocked top of the co-simulation. The SystemC kernel owns
// time; the fabric's method is the only process that runs every cycle, and
// it calls the nodes in node order, so results do not depend on the
// scheduler's process order.
class Engine::Clocked {
 public:
  class Fabric : public sc_core::sc_module {
   public:
    SC_HAS_PROCESS(Fabric);
    sc_core::sc_in<bool> clk;
    Fabric(const sc_core::sc_module_name& name, Engine& engine) : sc_core::sc_module(name), engine_(engine) {
      // sc_stop() is how every run ends; the kernel's info messages are noise
      // on a results table (warnings and errors still print).
      sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
      SC_METHOD(edge);
      sensitive << clk.pos();
      dont_initialize();
    }

   private:
    void edge() { engine_.edge(); }
    Engine& engine_;
  };

  // Edges at n + 0.5 ns: firmware threads own the whole nanoseconds (firmware/firmware_node.h).
  explicit Clocked(Engine& engine)
      : clk("clk", 1, sc_core::SC_NS, 0.5, 0.5, sc_core::SC_NS, true), fabric("fabric", engine) {
    fabric.clk(clk);
  }
  sc_core::sc_clock clk;
  Fabric fabric;
};

Engine::Engine(const Topology& topo, const NetworkParams& params, EngineOptions opt)
    : opt_(std::move(opt)), net_(topo, params), store_(opt_.first_packet_id), sb_(topo, store_), watchdog_(opt_.watchdog) {
  // Without a watchdog there is no report to explain.
  if (opt_.watchdog && opt_.explain_deadlock) tracker_ = std::make_unique<FlitTracker>(net_);
}

Engine::~Engine() = default;

void Engine::run(Before before, After after) {
  before_ = std::move(before);
  after_ = std::move(after);
  clocked_ = std::make_unique<Clocked>(*this);
  if (!opt_.trace.empty()) net_.trace(opt_.trace);
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // An exception raised inside the clocked method stopped the run; it is rethrown here intact.
  if (error_) std::rethrow_exception(error_);
}

void Engine::edge() {
  bool go_on = false;
  try {
    before_(now_);
    net_.cycle();
    if (tracker_) tracker_->observe(net_);
    go_on = after_(now_);
  } catch (...) {
    error_ = std::current_exception();
  }
  ++now_;
  if (!go_on) sc_core::sc_stop();
}

void Engine::report_deadlock() {
  const DeadlockWording& w = opt_.wording;
  std::string r = w.title;
  if (w.summary)
    r += fmt::format(": no flit moved for {} cycles{}, {} flits in the network", watchdog_.window(),
                     w.since ? fmt::format(" (since cycle {})", watchdog_.last_move()) : std::string(),
                     net_.flits_in_network());
  r += '\n';
  r += tracker_ ? tracker_->explain_waits(net_, store_)
                : fmt::format("rerun with --explain-deadlock{} for the wait-for analysis\n", w.rerun_note);
  deadlock_report_ = std::move(r);
}

}  // namespace wn
