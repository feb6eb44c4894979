#include "systemc/router/rtl/router_rtl.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <stdexcept>
#include <type_traits>

#include "systemc/router/rtl/rtl_radices_check.h"
#include "wormnet/rtl_models.h"

namespace wn {

namespace {

// All routers share one context so that one trace file can hold them all.
VerilatedContext& context() {
  static VerilatedContext* ctx = [] {
    auto* c = new VerilatedContext;
    c->traceEverOn(true);
    return c;
  }();
  return *ctx;
}

// Bit-field access to a port that is a scalar (<= 64 bits) or a VlWide.
template <typename T>
uint64_t get_bits(const T& v, int lsb, int w) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t x = uint64_t(v) >> lsb;
    return w >= 64 ? x : x & ((uint64_t{1} << w) - 1);
  } else {
    uint64_t r = 0;
    for (int i = 0; i < w; ++i) {
      const int b = lsb + i;
      r |= uint64_t((v[size_t(b / 32)] >> (b % 32)) & 1u) << i;
    }
    return r;
  }
}
template <typename T>
uint64_t get_word64(const T& v, int idx) {  // 64-bit lane idx
  if constexpr (std::is_integral_v<T>) {
    return uint64_t(v);
  } else {
    return uint64_t(v[size_t(2 * idx)]) | (uint64_t(v[size_t(2 * idx + 1)]) << 32);
  }
}
template <typename T>
void set_word64(T& v, int idx, uint64_t x) {
  if constexpr (std::is_integral_v<T>) {
    v = T(x);
  } else {
    v[size_t(2 * idx)] = uint32_t(x);
    v[size_t(2 * idx + 1)] = uint32_t(x >> 32);
  }
}
template <typename T>
void set_bits(T& v, int lsb, int w, uint64_t x) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t m = ((uint64_t{1} << w) - 1) << lsb;
    v = T((uint64_t(v) & ~m) | ((x << lsb) & m));
  } else {
    for (int i = 0; i < w; ++i) {
      const int b = lsb + i;
      auto& word = v[size_t(b / 32)];
      word = (word & ~(1u << (b % 32))) | (uint32_t((x >> i) & 1) << (b % 32));
    }
  }
}

class RtlRouterBase : public RouterUnit {
 public:
  const char* backend_name() const override { return "rtl"; }
  virtual void add_to_trace(VerilatedFstC& fst) = 0;
};

template <typename V, int P>
class RtlRouter : public RtlRouterBase {
 public:
  RtlRouter() : v_(&context(), next_name().c_str()) {}

  void reset(const RouterConfig& cfg) override {
    ports_ = cfg.ports;
    v_.cfg_vcs_i = uint8_t(cfg.vcs);
    v_.cfg_buf_i = uint8_t(cfg.buf);
    v_.cfg_inj_i = uint8_t(cfg.inj);
    v_.cfg_ej_i = uint8_t(cfg.ej);
    v_.cfg_ports_i = uint8_t(cfg.ports);
    v_.cfg_kind_i = uint8_t(cfg.kind);
    v_.cfg_ndims_i = uint8_t(cfg.ndims);
    v_.cfg_addr_i = uint16_t(cfg.addr);
    v_.cfg_k0_i = uint16_t(cfg.k[0]);
    v_.cfg_k1_i = uint16_t(cfg.k[1]);
    v_.cfg_k2_i = uint16_t(cfg.k[2]);
    v_.cfg_w0_i = uint8_t(cfg.width[0]);
    v_.cfg_w1_i = uint8_t(cfg.width[1]);
    v_.cfg_w2_i = uint8_t(cfg.width[2]);
    v_.cfg_dateline_i = cfg.dateline;
    v_.in_valid_i = 0;
    v_.inj_valid_i = 0;
    v_.out_credit_i = 0;
    v_.reset_i = 1;
    for (int i = 0; i < 2; ++i) edge();
    v_.reset_i = 0;
    v_.clk_i = 0;
    v_.eval();
  }

  void cycle(const RouterIn& in, RouterOut& out) override {
    v_.in_valid_i = in.in_valid;
    v_.inj_valid_i = in.inj_valid;
    v_.out_credit_i = in.out_credit;
    uint32_t credit_vc = 0;
    for (uint32_t m = in.in_valid; m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      set_word64(v_.in_flit_i, p, in.in_flit[p]);
    }
    for (uint32_t m = in.inj_valid; m; m &= m - 1) {
      const int i = __builtin_ctz(m);
      set_word64(v_.inj_flit_i, i, in.inj_flit[i]);
    }
    for (uint32_t m = in.out_credit; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      credit_vc |= uint32_t(in.out_credit_vc[o] & 3) << (2 * o);
    }
    v_.out_credit_vc_i = credit_vc;
    edge();
    out.out_valid = uint32_t(v_.out_valid_o);
    out.ej_valid = uint32_t(v_.ej_valid_o);
    out.in_credit = uint32_t(v_.in_credit_o);
    out.inj_credit = uint32_t(v_.inj_credit_o);
    out.busy = v_.busy_o;
    for (uint32_t m = out.out_valid; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      out.out_flit[o] = get_word64(v_.out_flit_o, o);
      observe(out, o, o);
    }
    for (uint32_t m = out.ej_valid; m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      out.ej_flit[j] = get_word64(v_.ej_flit_o, j);
      observe(out, P + j, kMaxPorts + j);
    }
    for (uint32_t m = out.in_credit; m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      out.in_credit_vc[p] = uint8_t(get_bits(v_.in_credit_vc_o, 2 * p, 2));
    }
  }

  void add_to_trace(VerilatedFstC& fst) override { v_.trace(&fst, 99); }

 private:
  static std::string next_name() {
    static int n = 0;
    return "router" + std::to_string(n++);
  }
  // RTL output index k (network o, or P + j) -> RouterOut index `slot`.
  void observe(RouterOut& out, int k, int slot) {
    const int from = int(get_bits(v_.obs_from_port_o, 5 * k, 5));
    out.from_port[slot] = uint8_t(from < P ? from : kInjBase + (from - P));
    out.from_vc[slot] = uint8_t(get_bits(v_.obs_from_vc_o, 2 * k, 2));
  }
  void edge() {
    v_.clk_i = 1;
    v_.eval();
    v_.clk_i = 0;
    v_.eval();
  }
  V v_;
  int ports_ = P;
};

}  // namespace

int rtl_radix_for(int ports) {
  for (int r : kRtlRadices)
    if (ports <= r) return r;
  throw std::invalid_argument("no verilated router has " + std::to_string(ports) + " ports");
}

std::unique_ptr<RouterUnit> make_rtl_router(int ports) {
  const int radix = rtl_radix_for(ports);
#define WN_MAKE_RTL(P) \
  if (radix == P) return std::make_unique<RtlRouter<Vwn_router_p##P, P>>();
  WN_FOR_EACH_RTL_RADIX(WN_MAKE_RTL)
#undef WN_MAKE_RTL
  throw std::logic_error("rtl_radix_for returned a radix that is not verilated");
}

struct RtlTraceFile::Impl {
  VerilatedFstC fst;
  bool open = false;
};

RtlTraceFile::RtlTraceFile() : impl_(std::make_unique<Impl>()) {}
RtlTraceFile::~RtlTraceFile() {
  if (impl_->open) impl_->fst.close();
}
void RtlTraceFile::add(RouterUnit& u) {
  auto* r = dynamic_cast<RtlRouterBase*>(&u);
  if (!r) throw std::invalid_argument("waveforms need RTL routers");
  r->add_to_trace(impl_->fst);
}
void RtlTraceFile::open(const std::string& path) {
  impl_->fst.open(path.c_str());
  impl_->open = impl_->fst.isOpen();
  if (!impl_->open) throw std::runtime_error("cannot open waveform file " + path);
}
void RtlTraceFile::dump(uint64_t cycle) {
  if (impl_->open) impl_->fst.dump(cycle);
}

}  // namespace wn
