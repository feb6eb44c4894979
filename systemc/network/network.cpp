#include "network/network.h"

#include <fmt/format.h>

#include "core/config_error.h"
#include "core/flit.h"
#include "model/router_model.h"
#include "network/lockstep_router.h"
#include "network/rtl/router_rtl.h"

namespace wn {

Backend parse_backend(const std::string& s) {
  if (s == "rtl") return Backend::Rtl;
  if (s == "model") return Backend::Model;
  if (s == "lockstep") return Backend::Lockstep;
  throw ConfigError("--backend", fmt::format("unknown backend '{}'; allowed: rtl, model, lockstep", s));
}

const char* backend_name(Backend b) {
  return b == Backend::Rtl ? "rtl" : b == Backend::Model ? "model" : "lockstep";
}

void validate(const Topology& topo, const NetworkParams& p) {
  if (p.vcs < 1 || p.vcs > kMaxVcs)
    throw ConfigError("--vcs", fmt::format("{} is out of range; allowed: 1..{}", p.vcs, kMaxVcs));
  if (topo.kind() == TopoKind::Torus && p.dateline && p.vcs % 2 != 0)
    throw ConfigError("--vcs", fmt::format("{} is odd; a torus needs an even number of VCs (2 or 4) for its two "
                                           "dateline classes",
                                           p.vcs));
  if (p.buf < 1 || p.buf > kMaxBuf)
    throw ConfigError("--buf", fmt::format("{} is out of range; allowed: 1..{} flits per VC", p.buf, kMaxBuf));
  if (p.inj < 1 || p.inj > topo.ports() || p.ej < 1 || p.ej > topo.ports())
    throw ConfigError("--ports", fmt::format("{} channels exceed the {} network ports of {}; allowed: one, all, "
                                             "or K = 1..{}",
                                             std::max(p.inj, p.ej), topo.ports(), topo.name(), topo.ports()));
}

RouterConfig base_router_config(const NetworkParams& p) {
  RouterConfig base;
  base.vcs = p.vcs;
  base.buf = p.buf;
  base.inj = p.inj;
  base.ej = p.ej;
  base.dateline = p.dateline;
  return base;
}

struct Network::Tracer {
  RtlTraceFile file;
};

Network::Network(const Topology& topo, const NetworkParams& params) : topo_(topo), params_(params) {
  validate(topo, params);
  const int n = topo.nodes();
  buf_a_.resize(size_t(n));
  buf_b_.resize(size_t(n));
  in_ = buf_a_.data();
  seen_ = buf_b_.data();
  out_.resize(size_t(n));
  want_.assign(size_t(n), 0);
  links_.assign(size_t(n) * kMaxPorts, {-1, -1});
  link_dst_.assign(size_t(n) * kMaxPorts, 0);
  const RouterConfig base = base_router_config(params);
  for (int r = 0; r < n; ++r) {
    std::unique_ptr<RouterUnit> unit;
    switch (params.backend) {
      case Backend::Rtl: unit = make_rtl_router(topo.ports()); break;
      case Backend::Model: {
        auto m = make_model_router();
        static_cast<RouterModel&>(*m).set_fault(params.model_fault);
        unit = std::move(m);
        break;
      }
      case Backend::Lockstep: {
        auto m = make_model_router();
        static_cast<RouterModel&>(*m).set_fault(params.model_fault);
        unit = std::make_unique<LockstepRouter>(make_rtl_router(topo.ports()), std::move(m));
        break;
      }
    }
    unit->reset(topo.router_config(r, base));
    routers_.push_back(std::move(unit));
    for (int o = 0; o < topo.ports(); ++o) {
      const int nb = topo.neighbor(r, o);
      if (nb >= 0) {
        links_[size_t(r) * kMaxPorts + size_t(o)] = {nb, topo.peer_port(o)};
        link_dst_[size_t(r) * kMaxPorts + size_t(o)] = nb * kMaxPorts + topo.peer_port(o);
      }
    }
  }
  evaluated_.reserve(size_t(n));
}

Network::~Network() = default;

namespace {
// Bit count without a libgcc call (the build does not assume POPCNT).
inline int popcount32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return int((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
}  // namespace

void Network::cycle() {
  const int n = topo_.nodes();
  // The buffer that becomes next cycle's inputs held the inputs of the last
  // cycle: clear the valid bits of the routers that saw any (the evaluated ones).
  for (int r : evaluated_) {
    RouterIn& s = seen_[size_t(r)];
    s.in_valid = s.out_credit = s.inj_valid = 0;
  }
  evaluated_.clear();
  moves_ = 0;
  int hops = 0;
  // 1. Evaluate every router that has state or input.
  uint8_t* want = want_.data();
  for (int r = 0; r < n; ++r) {
    if (!want[r]) continue;
    RouterIn& in = in_[size_t(r)];
    RouterOut& out = out_[size_t(r)];
    try {
      routers_[size_t(r)]->cycle(in, out);
    } catch (const LockstepDivergence& e) {
      throw LockstepDivergence(fmt::format("cycle {} router {} ({}): {}", cycles_, r,
                                           fmt::join(topo_.coords(r), ","), e.what()));
    }
    want[r] = uint8_t(out.busy);
    hops += popcount32(out.out_valid) + popcount32(out.ej_valid);
    moves_ += popcount32(in.inj_valid);
    evaluated_.push_back(r);
  }
  router_evals_ += evaluated_.size();
  flit_hops_ += uint64_t(hops);
  moves_ += hops;
  std::swap(in_, seen_);
  // 2. Carry registered outputs over the links into next cycle's inputs.
  RouterIn* next = in_;
  const int* dst = link_dst_.data();
  for (int r : evaluated_) {
    const RouterOut& out = out_[size_t(r)];
    const int* d = dst + size_t(r) * kMaxPorts;
    for (uint32_t m = out.out_valid; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      const int nb = d[o] / kMaxPorts, p = d[o] % kMaxPorts;
      next[nb].in_valid |= 1u << p;
      next[nb].in_flit[p] = out.out_flit[o];
      want[nb] = 1;
    }
    for (uint32_t m = out.in_credit; m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      // Input p of r is fed by output peer_port(p) of the neighbour through port p.
      const int up = d[p] / kMaxPorts, o = d[p] % kMaxPorts;
      next[up].out_credit |= 1u << o;
      next[up].out_credit_vc[o] = out.in_credit_vc[p];
      want[up] = 1;
    }
  }
  if (tracer_) tracer_->file.dump(cycles_);
  ++cycles_;
}

void Network::trace(const std::string& fst_path) {
  if (params_.backend == Backend::Model)
    throw ConfigError("--trace", "waveforms come from the RTL; use --backend rtl or lockstep");
  tracer_ = std::make_unique<Tracer>();
  for (int r = 0; r < topo_.nodes(); ++r) {
    RouterUnit* u = routers_[size_t(r)].get();
    if (auto* ls = dynamic_cast<LockstepRouter*>(u)) u = &ls->rtl();
    tracer_->file.add(*u);
  }
  try {
    tracer_->file.open(fst_path);
  } catch (const std::exception& e) {
    throw ConfigError("--trace", e.what());
  }
}

}  // namespace wn
