#include "systemc/router/rtl/router_rtl.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <stdexcept>
#include <type_traits>

#include "systemc/router/rtl/rtl_pkg_check.h"
#include "systemc/router/rtl/rtl_radices_check.h"
#include "wormnet/rtl_models.h"

namespace wn {

namespace {

// Port field widths, from rtl/wn_pkg.sv: a VC index, and an output code (network output, or
// ports + ejection channel; rtl/README.md §6).
constexpr int kVcW = pkg::vc_width_gp;
constexpr int kOutW = pkg::out_code_width_gp;

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

// rtl/README.md §4: every state changes at the rising edge of clk_i. The falling edge's eval() then
// changes nothing but the scheduler's record of clk_i, which the next rising edge's trigger compares
// with (and it recomputes the input logic from the same inputs: about 5 % of an RTL run's
// instructions). Where the verilated model's only trigger is that edge (Verilator 5's scheduler;
// any other model, or a router with more triggers, takes the falling eval()), the record is set
// directly; `RtlFallingEdge.*` compares both ways.
template <typename V, typename = void>
struct RisingEdgeOnly : std::false_type {};
template <typename V>
struct RisingEdgeOnly<V, std::void_t<decltype(std::declval<V&>().rootp->__Vtrigrprev__TOP__clk_i),
                                     decltype(std::declval<V&>().rootp->__VactTriggered)>>
    : std::is_same<std::decay_t<decltype(std::declval<V&>().rootp->__VactTriggered)>, VlTriggerVec<1>> {};

class RtlRouterBase : public RouterUnit {
 public:
  const char* backend_name() const override { return "rtl"; }
  virtual void add_to_trace(VerilatedFstC& fst) = 0;
};

// kTraced: V was verilated with tracing (the full models; the trimmed ones are not, which spares
// every evaluation the trace's activity bookkeeping).
template <typename V, int P, bool kTraced = true>
class RtlRouter : public RtlRouterBase {
 public:
  explicit RtlRouter(bool falling_eval) : v_(&context(), next_name().c_str()), falling_eval_(falling_eval) {}

  void reset(const RouterConfig& cfg) override {
    // cfg_i is the package's cfg_s: every field at the offset CMake derived from its declaration.
    namespace c = pkg::cfg_s;
    static_assert(sizeof(v_.cfg_i) * 8 >= c::bits, "the verilated cfg_i is narrower than cfg_s");
    ports_ = cfg.ports;
    set_bits(v_.cfg_i, c::vcs_lsb, c::vcs_width, uint64_t(cfg.vcs));
    set_bits(v_.cfg_i, c::buf_depth_lsb, c::buf_depth_width, uint64_t(cfg.buf));
    set_bits(v_.cfg_i, c::inj_lsb, c::inj_width, uint64_t(cfg.inj));
    set_bits(v_.cfg_i, c::ej_lsb, c::ej_width, uint64_t(cfg.ej));
    set_bits(v_.cfg_i, c::ports_lsb, c::ports_width, uint64_t(cfg.ports));
    set_bits(v_.cfg_i, c::kind_lsb, c::kind_width, uint64_t(cfg.kind));
    set_bits(v_.cfg_i, c::ndims_lsb, c::ndims_width, uint64_t(cfg.ndims));
    set_bits(v_.cfg_i, c::addr_lsb, c::addr_width, uint64_t(cfg.addr));
    for (int d = 0; d < kMaxDims; ++d) {
      set_bits(v_.cfg_i, c::k_lsb + d * c::k_width, c::k_width, uint64_t(cfg.k[d]));
      set_bits(v_.cfg_i, c::w_lsb + d * c::w_width, c::w_width, uint64_t(cfg.width[d]));
    }
    set_bits(v_.cfg_i, c::dateline_lsb, c::dateline_width, uint64_t(cfg.dateline));
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
      credit_vc |= uint32_t(in.out_credit_vc[o] & ((1u << kVcW) - 1)) << (kVcW * o);
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
      out.in_credit_vc[p] = uint8_t(get_bits(v_.in_credit_vc_o, kVcW * p, kVcW));
    }
  }

  void add_to_trace(VerilatedFstC& fst) override {
    if constexpr (kTraced) {
      v_.trace(&fst, 99);
      traced_ = true;
    } else {
      throw std::logic_error("a trimmed router has no trace; a traced run uses the full models");
    }
  }

 private:
  static std::string next_name() {
    static int n = 0;
    return "router" + std::to_string(n++);
  }
  // RTL output index k (network o, or P + j) -> RouterOut index `slot`.
  void observe(RouterOut& out, int k, int slot) {
    const int from = int(get_bits(v_.obs_from_port_o, kOutW * k, kOutW));
    out.from_port[slot] = uint8_t(from < P ? from : kInjBase + (from - P));
    out.from_vc[slot] = uint8_t(get_bits(v_.obs_from_vc_o, kVcW * k, kVcW));
  }
  void edge() {
    v_.clk_i = 1;
    v_.eval();
    v_.clk_i = 0;
    if constexpr (RisingEdgeOnly<V>::value) {
      // A waveform records the falling edge too.
      if (!traced_ && !falling_eval_) {
        v_.rootp->__Vtrigrprev__TOP__clk_i = 0;
        return;
      }
    }
    v_.eval();
  }
  V v_;
  int ports_ = P;
  bool falling_eval_;
  bool traced_ = false;
};

}  // namespace

int rtl_radix_for(int ports) {
  for (int r : kRtlRadices)
    if (ports <= r) return r;
  throw std::invalid_argument("no verilated router has " + std::to_string(ports) + " ports");
}

std::unique_ptr<RouterUnit> make_rtl_router(int ports, bool falling_eval) {
  const int radix = rtl_radix_for(ports);
#define WN_MAKE_RTL(P) \
  if (radix == P) return std::make_unique<RtlRouter<Vwn_router_p##P, P>>(falling_eval);
  WN_FOR_EACH_RTL_RADIX(WN_MAKE_RTL)
#undef WN_MAKE_RTL
  throw std::logic_error("rtl_radix_for returned a radix that is not verilated");
}

std::unique_ptr<RouterUnit> make_rtl_router(int ports, const RouterConfig& cfg, bool falling_eval) {
  const int radix = rtl_radix_for(ports);
  if (cfg.inj == 1 && cfg.ej == 1 && cfg.vcs <= kTrimmedVcs && cfg.buf <= kTrimmedBuf) {
#define WN_MAKE_TRIMMED(P) \
  if (radix == P) return std::make_unique<RtlRouter<Vwn_router_p##P##_trim, P, false>>(falling_eval);
    WN_FOR_EACH_TRIMMED_RADIX(WN_MAKE_TRIMMED)
#undef WN_MAKE_TRIMMED
  }
  return make_rtl_router(ports, falling_eval);
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
