// C++ cycle model of the wormnet router: rtl/README.md, rule for rule. It uses
// compact indices (only the ports the topology has); README §2 explains why
// that is equivalent to the padded RTL. Lock-step checks the equivalence.
#pragma once
#include <cstdint>
#include <memory>

#include "network/router_unit.h"

namespace wn {

class RouterModel : public RouterUnit {
 public:
  void reset(const RouterConfig& cfg) override;
  void cycle(const RouterIn& in, RouterOut& out) override;
  const char* backend_name() const override { return "model"; }
  // Test-only fault injection, to prove the lock-step checker can fail.
  // 1: the first credit returned to output 0 is lost (one fewer credit).
  // 2: from cycle 100 the switch allocator's output pointers stop advancing.
  void set_fault(int kind) { fault_ = kind; }

 private:
  static constexpr int kInputs = 2 * kMaxPorts;  // network ports, then injection ports
  static constexpr int kOutputs = 2 * kMaxPorts; // network outputs, then ejection channels (kMaxPorts + j)
  struct InputVc {
    uint64_t fifo[kMaxBuf];
    uint8_t head = 0, size = 0;
    bool active = false;
    uint8_t out = 0, out_vc = 0;  // out: network o, or kMaxPorts + j for ejection channel j
  };
  InputVc& ivc(int port, int vc) { return vcs_[port * kMaxVcs + vc]; }
  int va_index(int port, int vc) const { return port < cfg_.ports ? port * kMaxVcs + vc : cfg_.ports * kMaxVcs + (port - cfg_.ports); }

  RouterConfig cfg_;
  int inputs_ = 0;  // ports + inj
  InputVc vcs_[kInputs * kMaxVcs];
  int credits_[kMaxPorts][kMaxVcs] = {};
  bool out_busy_[kMaxPorts][kMaxVcs] = {};
  bool ej_busy_[kMaxPorts] = {};
  int va_ptr_[kMaxPorts] = {};
  int ej_ptr_ = 0;
  int sa_in_ptr_[kInputs] = {};
  int sa_out_ptr_[kOutputs] = {};
  int occupied_ = 0;  // flits in all FIFOs
  uint64_t cycles_ = 0;
  int fault_ = 0;
  bool fault_done_ = false;
};

std::unique_ptr<RouterUnit> make_model_router();

}  // namespace wn
