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
  in_.resize(size_t(n));
  seen_.resize(size_t(n));
  out_.resize(size_t(n));
  busy_.assign(size_t(n), 0);
  links_.assign(size_t(n) * kMaxPorts, {-1, -1});
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
      if (nb >= 0) links_[size_t(r) * kMaxPorts + size_t(o)] = {nb, topo.peer_port(o)};
    }
  }
  evaluated_.reserve(size_t(n));
}

Network::~Network() = default;

void Network::cycle() {
  const int n = topo_.nodes();
  evaluated_.clear();
  moves_ = 0;
  // 1. Evaluate every router that has state or input.
  for (int r = 0; r < n; ++r) {
    RouterIn& in = in_[size_t(r)];
    if (!busy_[size_t(r)] && !in.in_valid && !in.out_credit && !in.inj_valid) continue;
    RouterOut& out = out_[size_t(r)];
    try {
      routers_[size_t(r)]->cycle(in, out);
    } catch (const LockstepDivergence& e) {
      throw LockstepDivergence(fmt::format("cycle {} router {} ({}): {}", cycles_, r,
                                           fmt::join(topo_.coords(r), ","), e.what()));
    }
    ++router_evals_;
    busy_[size_t(r)] = out.busy;
    const int hops = __builtin_popcount(out.out_valid) + __builtin_popcount(out.ej_valid);
    flit_hops_ += uint64_t(hops);
    moves_ += __builtin_popcount(in.inj_valid) + hops;
    std::swap(seen_[size_t(r)], in);
    in.in_valid = in.out_credit = in.inj_valid = 0;
    evaluated_.push_back(r);
  }
  // 2. Carry registered outputs over the links into next cycle's inputs.
  for (int r : evaluated_) {
    const RouterOut& out = out_[size_t(r)];
    for (uint32_t m = out.out_valid; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      const auto [nb, p] = links_[size_t(r) * kMaxPorts + size_t(o)];
      in_[size_t(nb)].in_valid |= 1u << p;
      in_[size_t(nb)].in_flit[p] = out.out_flit[o];
    }
    for (uint32_t m = out.in_credit; m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      // Input p of r is fed by output peer_port(p) of the neighbour through port p.
      const auto [up, o] = links_[size_t(r) * kMaxPorts + size_t(p)];
      in_[size_t(up)].out_credit |= 1u << o;
      in_[size_t(up)].out_credit_vc[o] = out.in_credit_vc[p];
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
