#include "model/router_model.h"

#include "core/flit.h"
#include "model/route_function.h"

namespace wn {

namespace {
// Round-robin: the first set bit at or after `ptr`, else the first set bit.
inline int rr_first(uint64_t mask, int ptr) {
  const uint64_t hi = ptr >= 64 ? 0 : mask & (~uint64_t{0} << ptr);
  return __builtin_ctzll(hi ? hi : mask);
}
}  // namespace

std::unique_ptr<RouterUnit> make_model_router() { return std::make_unique<RouterModel>(); }

void RouterModel::reset(const RouterConfig& cfg) {
  cfg_ = cfg;
  inputs_ = cfg.ports + cfg.inj;
  for (auto& v : vcs_) v = InputVc{};
  for (auto& o : credits_)
    for (int& c : o) c = cfg.buf;
  for (auto& o : out_busy_)
    for (bool& b : o) b = false;
  for (bool& b : ej_busy_) b = false;
  for (int& p : va_ptr_) p = 0;
  ej_ptr_ = 0;
  for (int& p : sa_in_ptr_) p = 0;
  for (int& p : sa_out_ptr_) p = 0;
  occupied_ = 0;
  cycles_ = 0;
  fault_done_ = false;
}

void RouterModel::cycle(const RouterIn& in, RouterOut& out) {
  out.out_valid = out.in_credit = out.inj_credit = out.ej_valid = 0;
  const int P = cfg_.ports, V = cfg_.vcs;

  // Grants decided from the state at the start of the cycle, applied at the edge.
  struct VaGrant {
    int port, vc, out, out_vc;
  };
  VaGrant va[kMaxPorts * 2];
  int nva = 0;
  struct SaGrant {
    int port, vc;
  };
  SaGrant sa[kOutputs];
  int nsa = 0;

  if (occupied_) {
    // ---- 1. route compute + VC allocation -------------------------------
    uint64_t req_net[kMaxPorts] = {};
    uint64_t req_ej = 0;
    // Lowest VC of each waiting head's class range; only requesters' entries
    // are written and read (a Route array would be re-initialized every cycle).
    int8_t route_lo[kInputs * kMaxVcs];
    for (int p = 0; p < inputs_; ++p) {
      const bool inj = p >= P;
      const int nv = inj ? 1 : V;
      for (int v = 0; v < nv; ++v) {
        InputVc& iv = ivc(p, v);
        if (iv.active || !iv.size || !flit::is_head(iv.fifo[iv.head])) continue;
        const Route r = route(cfg_, flit::dest(iv.fifo[iv.head]), inj ? -1 : p, v);
        const int q = va_index(p, v);
        route_lo[p * kMaxVcs + v] = int8_t(r.vc_lo);
        if (r.eject) {
          req_ej |= uint64_t{1} << q;
        } else {
          bool free_vc = false;
          for (int w = r.vc_lo; w <= r.vc_hi; ++w) free_vc |= !out_busy_[r.out][w];
          if (free_vc) req_net[r.out] |= uint64_t{1} << q;
        }
      }
    }
    auto port_of = [&](int q, int& port, int& vc) {
      if (q < P * kMaxVcs) {
        port = q / kMaxVcs;
        vc = q % kMaxVcs;
      } else {
        port = P + (q - P * kMaxVcs);
        vc = 0;
      }
    };
    for (int o = 0; o < P; ++o) {
      if (!req_net[o]) continue;
      const int q = rr_first(req_net[o], va_ptr_[o]);
      int port, vc;
      port_of(q, port, vc);
      int w = route_lo[port * kMaxVcs + vc];
      while (out_busy_[o][w]) ++w;  // lowest free VC in range (one exists)
      va[nva++] = {port, vc, o, w};
      va_ptr_[o] = q + 1;
    }
    if (req_ej) {
      uint64_t left = req_ej;
      int last = -1;
      for (int j = 0; j < cfg_.ej && left; ++j) {
        if (ej_busy_[j]) continue;
        const int q = rr_first(left, ej_ptr_);
        left &= ~(uint64_t{1} << q);
        int port, vc;
        port_of(q, port, vc);
        va[nva++] = {port, vc, kMaxPorts + j, 0};
        last = q;
      }
      if (last >= 0) ej_ptr_ = last + 1;
    }

    // ---- 2. switch allocation (separable, input first) ------------------
    int pick[kInputs];
    uint32_t req_out[kOutputs] = {};
    for (int p = 0; p < inputs_; ++p) {
      pick[p] = -1;
      const int nv = p >= P ? 1 : V;
      uint32_t cand = 0;
      for (int v = 0; v < nv; ++v) {
        const InputVc& iv = ivc(p, v);
        if (!iv.active || !iv.size) continue;
        if (iv.out < kMaxPorts && credits_[iv.out][iv.out_vc] <= 0) continue;
        cand |= 1u << v;
      }
      if (!cand) continue;
      const int v = rr_first(cand, sa_in_ptr_[p]);
      pick[p] = v;
      req_out[ivc(p, v).out] |= 1u << p;  // compact input index: network p, injection P + i
    }
    for (int o = 0; o < kOutputs; ++o) {
      if (!req_out[o]) continue;
      const int p = rr_first(req_out[o], sa_out_ptr_[o]);
      sa[nsa++] = {p, pick[p]};
      if (!(fault_ == 2 && cycles_ >= 100)) sa_out_ptr_[o] = p + 1;
    }
  }

  // ---- apply at the edge -------------------------------------------------
  for (int g = 0; g < nsa; ++g) {
    const int p = sa[g].port, v = sa[g].vc;
    InputVc& iv = ivc(p, v);
    const uint64_t f = iv.fifo[iv.head];
    iv.head = uint8_t((iv.head + 1) % kMaxBuf);
    --iv.size;
    --occupied_;
    const int o = iv.out;
    const uint8_t from = uint8_t(p < P ? p : kInjBase + (p - P));
    if (o < kMaxPorts) {
      out.out_valid |= 1u << o;
      out.out_flit[o] = flit::with_vc(f, iv.out_vc);
      --credits_[o][iv.out_vc];
      if (flit::is_tail(f)) out_busy_[o][iv.out_vc] = false;
    } else {
      const int j = o - kMaxPorts;
      out.ej_valid |= 1u << j;
      out.ej_flit[j] = flit::with_vc(f, 0);
      if (flit::is_tail(f)) ej_busy_[j] = false;
    }
    out.from_port[o] = from;
    out.from_vc[o] = uint8_t(v);
    if (p < P) {
      out.in_credit |= 1u << p;
      out.in_credit_vc[p] = uint8_t(v);
    } else {
      out.inj_credit |= 1u << (p - P);
    }
    sa_in_ptr_[p] = (v + 1) % kMaxVcs;
    if (flit::is_tail(f)) iv.active = false;
  }
  for (int g = 0; g < nva; ++g) {
    InputVc& iv = ivc(va[g].port, va[g].vc);
    iv.active = true;
    iv.out = uint8_t(va[g].out);
    iv.out_vc = uint8_t(va[g].out_vc);
    if (va[g].out < kMaxPorts)
      out_busy_[va[g].out][va[g].out_vc] = true;
    else
      ej_busy_[va[g].out - kMaxPorts] = true;
  }
  for (uint32_t m = in.out_credit; m; m &= m - 1) {
    const int o = __builtin_ctz(m);
    if (fault_ == 1 && !fault_done_ && o == 0) {
      fault_done_ = true;
      continue;
    }
    ++credits_[o][in.out_credit_vc[o]];
  }
  auto write = [&](int port, int vc, uint64_t f) {
    InputVc& iv = ivc(port, vc);
    if (iv.size >= kMaxBuf) return;  // only an upstream credit bug can do this
    iv.fifo[(iv.head + iv.size) % kMaxBuf] = f;
    ++iv.size;
    ++occupied_;
  };
  for (uint32_t m = in.in_valid; m; m &= m - 1) {
    const int p = __builtin_ctz(m);
    write(p, flit::vc(in.in_flit[p]), in.in_flit[p]);
  }
  for (uint32_t m = in.inj_valid; m; m &= m - 1) {
    const int i = __builtin_ctz(m);
    write(P + i, 0, in.inj_flit[i]);
  }
  out.busy = occupied_ || out.out_valid || out.ej_valid || out.in_credit || out.inj_credit;
  ++cycles_;
}

}  // namespace wn
