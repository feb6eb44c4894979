// C++ cycle model of the wormnet router: rtl/README.md, rule for rule.
//
// Index spaces. The model uses compact indices: input VC q = p*VMAX + v for
// the cfg.ports network ports, then q = ports*VMAX + i for the cfg.inj
// injection channels; switch-allocation input ports s = p, then ports + i.
// The RTL uses the same orders padded to its radix. Both index maps are
// strictly increasing over the indices that can request, every round-robin
// search is cyclic "first requester at or after ptr", and every pointer is set
// to winner + 1; so "first requester after the last winner" is the same
// requester in both spaces (a pointer past the last used index wraps to the
// first requester, as padded indices in between never request). rtl/README.md §2.
//
// cycle() calls the units in the RTL's order and under their names (rtl/README.md §7):
// route + VC allocation decide (wn_route_unit, wn_vc_allocator), switch allocation and
// the crossbar decide and apply (wn_switch_allocator, wn_crossbar, wn_output_unit's
// credit counters), the VC grants apply at the edge, credits come in (wn_output_unit),
// flits are written (wn_input_unit). The routing function is route() itself
// (systemc/topology/route_function.h), shared with the checkers and the monitor.
//
// Speed: fixed arrays, one mask per state bit over q (64 bits up to radix 12, 128 above: the
// narrow one is faster and serves every 2D/3D network and cube:1..12), a ring FIFO per
// input VC, the route of a waiting head computed once (the route is a pure
// function of the head and the static configuration), and no work at all when
// every FIFO is empty.
#pragma once
#include <cstdint>
#include <memory>

#include "systemc/core/prefetch.h"
#include "systemc/router/router_unit.h"

namespace wn {

// Test-only faults of the model (lock-step tests prove the checker sees each).
enum class ModelFault : uint8_t {
  None,
  CreditLate,     // the first credit that arrives is applied one edge late
  SwitchSecond,   // the first switch-allocation output arbitration with two or more requesters grants
                  // the second requester in round-robin order (the pointer follows): a different from_port
  CreditLost,     // the first credit that arrives is lost
  CreditDropped,  // the first flit that leaves a network input returns no credit upstream
};

// Wide enough for kMaxPorts * kMaxVcs + kMaxPorts input VCs.
__extension__ typedef unsigned __int128 WideMask;

template <class Mask>
class BasicRouterModel final : public RouterUnit {
 public:
  // The largest radix whose input VCs (every port's VMAX, then one per injection channel) fit Mask.
  static constexpr int kPortsFit =
      int(sizeof(Mask) * 8) / (kMaxVcs + 1) < kMaxPorts ? int(sizeof(Mask) * 8) / (kMaxVcs + 1) : kMaxPorts;
  BasicRouterModel();
  void reset(const RouterConfig& cfg) override;
  void cycle(const RouterIn& in, RouterOut& out) override;
  const char* backend_name() const override { return "model"; }

  // Asks for the state cycle() reads first (the registers before the FIFOs) ahead of the call: a
  // large network's routers do not stay in the cache from one cycle to the next, and the network
  // knows which router comes next.
  void prefetch() const {
    const char* const p = reinterpret_cast<const char*>(this);
    const char* const end = reinterpret_cast<const char*>(fifo_);
    for (const char* a = p; a < end; a += 64) prefetch_line(a);
  }

  // Test-only fault injection, to prove that the lock-step checker catches a
  // divergence. Set before or after reset(); reset() keeps the kind.
  void set_fault(ModelFault kind) { fault_ = kind; }

 private:
  struct Grant {         // a VC allocation decided this cycle, applied at the edge
    uint8_t q, out, vc;  // out: network o, or kEjOut + j
  };
  static constexpr int kQ = kMaxPorts * kMaxVcs + kMaxPorts;  // input VCs
  static_assert(kQ <= int(sizeof(WideMask) * 8), "the wide model keeps one bit per input VC in its mask");
  // The limits come from rtl/wn_pkg.sv; the model's index arithmetic relies on these.
  static_assert(kMaxVcs >= 1 && (kMaxVcs & (kMaxVcs - 1)) == 0 && kMaxVcs <= 8,
                "the model wraps VC pointers with & (kMaxVcs - 1) and keeps a VC mask in uint8_t");
  static_assert((kMaxBuf & (kMaxBuf - 1)) == 0 && kMaxBuf < 127,
                "the model's FIFO rings wrap with & (kMaxBuf - 1); credits are int8_t (127: ejection)");
  static constexpr int kEjOut = kMaxPorts;  // output code: network o < kMaxPorts, ejection kEjOut + j
  static constexpr uint8_t kNoReq = 0xFF;   // cached route of a front that can not request

  RouterConfig cfg_;
  int P_ = 0;     // network ports
  int qinj_ = 0;  // first injection q = P_ * kMaxVcs
  uint32_t in_mask_ = 0, inj_mask_ = 0, ej_mask_ = 0;

  // Per input VC q.
  uint8_t head_[kQ];
  uint8_t size_[kQ];
  uint8_t act_out_[kQ];  // ACTIVE: output code
  uint8_t act_vc_[kQ];   // ACTIVE: output VC (0 for ejection)
  uint8_t rt_out_[kQ];   // cached route of an IDLE front head: network o, kEjOut, or kNoReq
  uint8_t rt_mask_[kQ];  // its VC range as a bit mask
  Mask ne_ = 0;          // FIFO non-empty
  Mask act_ = 0;         // ACTIVE
  Mask rv_ = 0;          // rt_* valid (IDLE VC with its front routed)
  Mask cr_ = 0;          // ACTIVE VC whose output VC has a credit (valid under act_)

  // Outputs.
  int8_t credits_[2 * kMaxPorts][kMaxVcs];  // by output code; ejection rows stay > 0
  uint8_t obusy_[kMaxPorts];                // bit w: output VC (o, w) busy
  uint32_t ejbusy_ = 0;                     // bit j: ejection channel j busy
  uint8_t owner_[kMaxPorts][kMaxVcs];       // busy output VC (o, w): the input VC q holding it

  // Round-robin pointers (compact index spaces, see above).
  uint8_t va_ptr_[kMaxPorts];
  uint8_t ej_ptr_ = 0;
  uint8_t sa_in_ptr_[2 * kMaxPorts];
  uint8_t sa_out_ptr_[2 * kMaxPorts];

  // Test-only faults (off the hot path but for one predicted branch in switch allocation).
  ModelFault fault_ = ModelFault::None;
  bool fault_done_ = false;
  bool delayed_ = false;
  uint8_t delayed_o_ = 0, delayed_w_ = 0;

  // Flit storage last: the state above, read every cycle, stays on few cache
  // lines. Rings of kMaxBuf (the RTL's FIFO depth: a unit test may fill an
  // injection FIFO beyond `buf`), rows packed by the VCs and channels in use:
  // a busy 2D-torus router touches 1.1 KB of flits instead of rows spread over 7.5 KB.
  int nvc_ = kMaxVcs;  // cfg.vcs
  alignas(64) uint64_t fifo_[kQ * kMaxBuf];
  uint64_t& fifo(int q, int i) {
    const int row = q < qinj_ ? (q / kMaxVcs) * nvc_ + q % kMaxVcs : P_ * nvc_ + (q - qinj_);
    return fifo_[row * kMaxBuf + (i & (kMaxBuf - 1))];
  }

  // The units, in cycle() order.
  void route_front(int q);                    // wn_route_unit: the front head of an IDLE VC
  int vc_allocate(Grant* grants);             // wn_vc_allocator: decide
  void switch_allocate(RouterOut& out);       // wn_switch_allocator + wn_crossbar: decide and apply
  void vc_grant(const Grant* grants, int n);  // wn_vc_allocator: apply at the edge
  void credits_in(const RouterIn& in);        // wn_output_unit: credits from downstream
  void buffer_write(const RouterIn& in);      // wn_input_unit: flits into the VC FIFOs
  // One credit back for network output VC (o, w); keeps cr_ in step.
  void credit_up(int o, int w) {
    if (credits_[o][w]++ == 0 && (obusy_[o] >> w & 1)) cr_ |= Mask{1} << owner_[o][w];
  }
};

// The model for a router of `ports` network ports (the narrow mask when it fits).
using RouterModel = BasicRouterModel<uint64_t>;
using WideRouterModel = BasicRouterModel<WideMask>;
extern template class BasicRouterModel<uint64_t>;
extern template class BasicRouterModel<WideMask>;
std::unique_ptr<RouterUnit> make_model_router(int ports = RouterModel::kPortsFit);

}  // namespace wn
