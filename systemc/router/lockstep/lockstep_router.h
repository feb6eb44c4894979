// Lock-step: the RTL router and the C++ model see identical inputs every
// cycle; any difference in any registered output (flits, credits, where each
// flit came from, busy) stops the run with both sides and recent history.
#pragma once
#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "systemc/router/router_unit.h"

namespace wn {

class LockstepDivergence : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class LockstepRouter : public RouterUnit {
 public:
  LockstepRouter(std::unique_ptr<RouterUnit> rtl, std::unique_ptr<RouterUnit> model)
      : rtl_(std::move(rtl)), model_(std::move(model)) {}
  void reset(const RouterConfig& cfg) override;
  void cycle(const RouterIn& in, RouterOut& out) override;
  const char* backend_name() const override { return "lockstep"; }
  RouterUnit& rtl() { return *rtl_; }
  RouterUnit& model() { return *model_; }
  uint64_t compared_cycles() const { return cycles_; }

 private:
  static constexpr int kHistory = 6;
  struct Snapshot {
    uint64_t cycle = 0;
    RouterIn in;
    RouterOut out;
  };
  std::unique_ptr<RouterUnit> rtl_, model_;
  RouterConfig cfg_;
  RouterOut model_out_;
  std::array<Snapshot, kHistory> history_{};
  uint64_t cycles_ = 0;
};

// Human-readable difference of two router outputs ("" when equal).
std::string diff_outputs(const RouterOut& a, const RouterOut& b, int ports);
std::string describe_outputs(const RouterOut& o, int ports);
std::string describe_inputs(const RouterIn& in, int ports);

}  // namespace wn
