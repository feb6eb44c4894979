#include "systemc/router/model/router_model.h"

#include <cstring>
#include <stdexcept>

#include "systemc/core/flit.h"
#include "systemc/topology/route_function.h"

namespace wn {

namespace {
inline int ctz(uint32_t m) { return __builtin_ctz(m); }
inline int ctz(uint64_t m) { return __builtin_ctzll(m); }
inline int ctz(WideMask m) {
  const auto lo = uint64_t(m);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(uint64_t(m >> 64));
}
// Round robin (wn_rr_arbiter): the first set bit at or after `ptr`, else the
// first set bit. `mask` must be non-zero.
template <class M>
inline int rr_first(M mask, unsigned ptr) {
  const M hi = ptr >= sizeof(M) * 8 ? M{0} : M(mask & (~M{0} << ptr));
  return ctz(hi ? hi : mask);
}
template <class M>
inline M bit(int i) {
  return M{1} << i;
}
}  // namespace

std::unique_ptr<RouterUnit> make_model_router(int ports) {
  if (ports <= RouterModel::kPortsFit) return std::make_unique<RouterModel>();
  return std::make_unique<WideRouterModel>();
}

template <class Mask>
BasicRouterModel<Mask>::BasicRouterModel() {
  reset(RouterConfig{});
}

template <class Mask>
void BasicRouterModel<Mask>::reset(const RouterConfig& cfg) {
  // The network picks the mask width by the radix (make_model_router); a caller that does not is a bug.
  if (cfg.ports > kPortsFit || cfg.inj > cfg.ports || cfg.ports < 1)
    throw std::logic_error("router model: the radix does not fit this model's input-VC mask");
  cfg_ = cfg;
  P_ = cfg.ports;
  qinj_ = P_ * kMaxVcs;
  in_mask_ = (1u << P_) - 1;
  inj_mask_ = (1u << cfg.inj) - 1;
  ej_mask_ = (1u << cfg.ej) - 1;
  nvc_ = cfg.vcs;
  std::memset(fifo_, 0, sizeof fifo_);
  std::memset(head_, 0, sizeof head_);
  std::memset(size_, 0, sizeof size_);
  std::memset(act_out_, 0, sizeof act_out_);
  std::memset(act_vc_, 0, sizeof act_vc_);
  std::memset(rt_out_, 0, sizeof rt_out_);
  std::memset(rt_mask_, 0, sizeof rt_mask_);
  ne_ = act_ = rv_ = cr_ = 0;
  std::memset(owner_, 0, sizeof owner_);
  for (int o = 0; o < 2 * kMaxPorts; ++o)  // ejection channels always accept: never 0
    for (int8_t& c : credits_[o]) c = int8_t(o < kEjOut ? cfg.buf : 127);
  std::memset(obusy_, 0, sizeof obusy_);
  ejbusy_ = 0;
  std::memset(va_ptr_, 0, sizeof va_ptr_);
  ej_ptr_ = 0;
  std::memset(sa_in_ptr_, 0, sizeof sa_in_ptr_);
  std::memset(sa_out_ptr_, 0, sizeof sa_out_ptr_);
  fault_done_ = false;
  delayed_ = false;
}

// wn_route_unit: the route of the front of IDLE input VC q (rtl/README.md §3), cached until the VC
// is allocated: the front of an IDLE VC does not change, nor does the route.
template <class Mask>
void BasicRouterModel<Mask>::route_front(int q) {
  rv_ |= bit<Mask>(q);
  const uint64_t f = fifo(q, head_[q]);
  if (!flit::is_head(f)) {  // only a broken upstream can do this; the RTL never requests either
    rt_out_[q] = kNoReq;
    return;
  }
  const bool net = q < qinj_;
  const Route r = route(cfg_, flit::dest(f), net ? q / kMaxVcs : -1, net ? q % kMaxVcs : 0);
  if (r.eject) {
    rt_out_[q] = kEjOut;
    rt_mask_[q] = 0;
  } else {
    rt_out_[q] = uint8_t(r.out);
    rt_mask_[q] = r.vc_lo <= r.vc_hi ? uint8_t(((1u << (r.vc_hi + 1)) - 1) & ~((1u << r.vc_lo) - 1)) : 0;
  }
}

// Every decision of a cycle uses the registered state at its start: VA is decided first and
// applied last (vc_grant), because SA applies as it decides (a tail frees its output VC and IDLEs
// its input VC only at the edge).
template <class Mask>
void BasicRouterModel<Mask>::cycle(const RouterIn& in, RouterOut& out) {
  out.out_valid = out.in_credit = out.inj_credit = out.ej_valid = 0;
  if (ne_) {
    Grant grants[2 * kMaxPorts];
    const int n = vc_allocate(grants);
    switch_allocate(out);
    vc_grant(grants, n);
  }
  credits_in(in);  // same-edge decrement (switch_allocate) and increment cancel
  buffer_write(in);
  // §6: any FIFO non-empty, or any output / credit register valid.
  out.busy = ne_ || out.out_valid || out.ej_valid || out.in_credit || out.inj_credit;
}

// wn_vc_allocator, decide: per network output one grant, round robin over q from va_ptr[o], the
// winner taking the lowest free VC in its range; ejection channels free in increasing j, each to
// the next requester from ej_ptr (ej_ptr <- last granted + 1).
template <class Mask>
inline int BasicRouterModel<Mask>::vc_allocate(Grant* grants) {
  int ngrants = 0;
  const Mask idle = ne_ & ~act_;
  if (!idle) return 0;
  for (Mask m = idle & ~rv_; m; m &= m - 1) route_front(ctz(m));
  Mask req_net[kMaxPorts];
  uint32_t nets = 0;
  Mask req_ej = 0;
  for (Mask m = idle; m; m &= m - 1) {
    const int q = ctz(m);
    const int o = rt_out_[q];
    if (o == kEjOut) {
      req_ej |= bit<Mask>(q);
    } else if (o != kNoReq && (rt_mask_[q] & ~obusy_[o])) {  // a free VC in its range
      if (!(nets >> o & 1)) {
        nets |= 1u << o;
        req_net[o] = 0;
      }
      req_net[o] |= bit<Mask>(q);
    }
  }
  for (; nets; nets &= nets - 1) {
    const int o = __builtin_ctz(nets);
    const int q = rr_first(req_net[o], va_ptr_[o]);
    va_ptr_[o] = uint8_t(q + 1);
    grants[ngrants++] = {uint8_t(q), uint8_t(o), uint8_t(__builtin_ctz(rt_mask_[q] & ~obusy_[o]))};
  }
  if (req_ej) {
    int last = -1;
    for (uint32_t free = ej_mask_ & ~ejbusy_; free && req_ej; free &= free - 1) {
      const int q = rr_first(req_ej, ej_ptr_);
      req_ej &= ~bit<Mask>(q);
      grants[ngrants++] = {uint8_t(q), uint8_t(kEjOut + __builtin_ctz(free)), 0};
      last = q;
    }
    if (last >= 0) ej_ptr_ = uint8_t(last + 1);
  }
  return ngrants;
}

// wn_switch_allocator (separable, input first) and wn_crossbar: decide and apply.
template <class Mask>
inline void BasicRouterModel<Mask>::switch_allocate(RouterOut& out) {
  const Mask ready = ne_ & act_;
  if (!ready) return;
  uint8_t pick[2 * kMaxPorts];
  uint32_t req_out[2 * kMaxPorts];
  uint32_t outs = 0;
  auto request = [&](int s, int o) {
    req_out[o] = ((outs >> o & 1) ? req_out[o] : 0) | (1u << s);
    outs |= 1u << o;
  };
  // Stage 1, network ports: candidates are ACTIVE non-empty VCs with a credit (cr_; ejection
  // rows of credits_ never reach 0); round robin over v from sa_in_ptr[p].
  const Mask cand_all = ready & cr_;
  for (Mask m = cand_all & (bit<Mask>(qinj_) - 1); m;) {
    const int p = ctz(m) / kMaxVcs;
    const int q0 = p * kMaxVcs;
    const uint32_t cand = uint32_t(m >> q0) & ((1u << kMaxVcs) - 1);
    m &= ~(Mask((1u << kMaxVcs) - 1) << q0);
    const int v = rr_first(cand, sa_in_ptr_[p]);
    pick[p] = uint8_t(v);
    request(p, act_out_[q0 + v]);
  }
  // Stage 1, injection ports (one VC each).
  for (Mask m = cand_all >> qinj_; m; m &= m - 1) {
    const int i = ctz(m);
    const int q = qinj_ + i;
    pick[P_ + i] = 0;
    request(P_ + i, act_out_[q]);
  }
  // Stage 2: per output, round robin over input ports s from sa_out_ptr[o]. Applying a winner
  // touches only its own output and input VC, which no other output's stage 2 reads.
  for (; outs; outs &= outs - 1) {
    const int o = __builtin_ctz(outs);
    const uint32_t req = req_out[o];
    int s = rr_first(req, sa_out_ptr_[o]);
    if (fault_ == ModelFault::SwitchSecond && !fault_done_ && (req & (req - 1))) {
      fault_done_ = true;  // test-only: grant the second requester instead
      s = rr_first(req & ~(1u << s), unsigned(s + 1));
    }
    sa_out_ptr_[o] = uint8_t(s + 1);
    const int v = pick[s];
    sa_in_ptr_[s] = uint8_t((v + 1) & (kMaxVcs - 1));
    const int q = s < P_ ? s * kMaxVcs + v : qinj_ + (s - P_);
    const uint64_t f = fifo(q, head_[q]);
    head_[q] = uint8_t((head_[q] + 1) & (kMaxBuf - 1));
    ne_ &= ~(Mask(--size_[q] == 0) << q);
    const uint32_t tail = uint32_t(flit::is_tail(f));
    if (o < kEjOut) {
      const int w = act_vc_[q];
      out.out_valid |= 1u << o;
      out.out_flit[o] = flit::with_vc(f, unsigned(w));
      if (--credits_[o][w] == 0) cr_ &= ~bit<Mask>(q);
      obusy_[o] &= uint8_t(~(tail << w));
    } else {
      const int j = o - kEjOut;
      out.ej_valid |= 1u << j;
      out.ej_flit[j] = flit::with_vc(f, 0);
      ejbusy_ &= ~(tail << j);
    }
    out.from_vc[o] = uint8_t(v);  // o == kMaxPorts + j for ejection channel j
    if (s < P_) {
      out.from_port[o] = uint8_t(s);
      const bool dropped = fault_ == ModelFault::CreditDropped && !fault_done_;  // test-only: no credit
      fault_done_ |= dropped;
      out.in_credit |= uint32_t(!dropped) << s;
      out.in_credit_vc[s] = uint8_t(v);
    } else {
      out.from_port[o] = uint8_t(kInjBase + (s - P_));
      out.inj_credit |= 1u << (s - P_);
    }
    act_ &= ~(Mask(tail) << q);
    cr_ &= ~(Mask(tail) << q);
  }
}

// wn_vc_allocator, apply: the granted input VCs become ACTIVE on their output VC.
template <class Mask>
inline void BasicRouterModel<Mask>::vc_grant(const Grant* grants, int n) {
  for (int g = 0; g < n; ++g) {
    const Grant& gr = grants[g];
    act_ |= bit<Mask>(gr.q);
    rv_ &= ~bit<Mask>(gr.q);
    act_out_[gr.q] = gr.out;
    act_vc_[gr.q] = gr.vc;
    if (gr.out < kEjOut) {
      obusy_[gr.out] |= uint8_t(1u << gr.vc);
      owner_[gr.out][gr.vc] = gr.q;
      if (credits_[gr.out][gr.vc] > 0)
        cr_ |= bit<Mask>(gr.q);
      else
        cr_ &= ~bit<Mask>(gr.q);
    } else {
      ejbusy_ |= 1u << (gr.out - kEjOut);
      cr_ |= bit<Mask>(gr.q);  // ejection channels always accept
    }
  }
}

// wn_output_unit: credits returned by the downstream routers.
template <class Mask>
inline void BasicRouterModel<Mask>::credits_in(const RouterIn& in) {
  uint32_t cm = in.out_credit & in_mask_;
  if (fault_ != ModelFault::None) {
    if (delayed_) {
      delayed_ = false;
      credit_up(delayed_o_, delayed_w_);
    }
    if ((fault_ == ModelFault::CreditLate || fault_ == ModelFault::CreditLost) && !fault_done_ && cm) {
      fault_done_ = true;
      const int o = __builtin_ctz(cm);
      cm &= cm - 1;
      if (fault_ == ModelFault::CreditLate) {
        delayed_ = true;
        delayed_o_ = uint8_t(o);
        delayed_w_ = uint8_t(in.out_credit_vc[o] & (kMaxVcs - 1));
      }
    }
  }
  for (; cm; cm &= cm - 1) {
    const int o = __builtin_ctz(cm);
    credit_up(o, in.out_credit_vc[o] & (kMaxVcs - 1));
  }
}

// wn_input_unit: the flits of this edge into their VC FIFOs (at the front one cycle later at the
// earliest).
template <class Mask>
inline void BasicRouterModel<Mask>::buffer_write(const RouterIn& in) {
  for (uint32_t m = in.in_valid & in_mask_; m; m &= m - 1) {
    const int p = __builtin_ctz(m);
    const uint64_t f = in.in_flit[p];
    const int q = p * kMaxVcs + flit::vc(f);
    fifo(q, head_[q] + size_[q]) = f;
    ++size_[q];
    ne_ |= bit<Mask>(q);
  }
  for (uint32_t m = in.inj_valid & inj_mask_; m; m &= m - 1) {
    const int i = __builtin_ctz(m);
    const int q = qinj_ + i;
    fifo(q, head_[q] + size_[q]) = in.inj_flit[i];
    ++size_[q];
    ne_ |= bit<Mask>(q);
  }
}

template class BasicRouterModel<uint64_t>;
template class BasicRouterModel<WideMask>;

}  // namespace wn
