// The clocked top of a co-simulation: on every rising edge of the SystemC
// clock it lets the nodes drive their injection channels, clocks the network
// (RTL, model or lock-step) once, then lets the nodes collect what the edge
// produced. The SystemC kernel owns time; this method is the only process that
// runs every cycle.
#pragma once
#include <exception>
#include <functional>
#include <systemc>

#include "systemc/network/network.h"

namespace wn {

class Fabric : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Fabric);
  sc_core::sc_in<bool> clk;

  // before(now): nodes drive; after(now): nodes collect, checks; returns false to stop.
  Fabric(const sc_core::sc_module_name& name, Network& net, std::function<void(uint64_t)> before,
         std::function<bool(uint64_t)> after)
      : sc_core::sc_module(name), net_(net), before_(std::move(before)), after_(std::move(after)) {
    // sc_stop() is how every run ends; the kernel's info messages are noise
    // on a results table (warnings and errors still print).
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    SC_METHOD(edge);
    sensitive << clk.pos();
    dont_initialize();
  }
  uint64_t now() const { return now_; }

  // Call after sc_start(): an exception raised inside the clocked method
  // (lock-step divergence, ...) stops the run and is rethrown here intact.
  void rethrow_if_failed() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void edge() {
    bool go_on = false;
    try {
      before_(now_);
      net_.cycle();
      go_on = after_(now_);
    } catch (...) {
      error_ = std::current_exception();
    }
    ++now_;
    if (!go_on) sc_core::sc_stop();
  }
  std::exception_ptr error_;
  Network& net_;
  std::function<void(uint64_t)> before_;
  std::function<bool(uint64_t)> after_;
  uint64_t now_ = 0;
};

}  // namespace wn
