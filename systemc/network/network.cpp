#include "systemc/network/network.h"

#include <algorithm>

#include <fmt/format.h>

#include "systemc/core/config_error.h"
#include "systemc/core/flit.h"
#include "systemc/network/router_pool.h"
#include "systemc/router/lockstep/lockstep_router.h"
#include "systemc/router/model/router_model.h"
#include "systemc/router/router_timing.h"
#include "systemc/router/rtl/router_rtl.h"
#include "systemc/topology/port_model.h"
#include "wormnet/rtl_radices.h"

namespace wn {

namespace {
// The C++ model for `ports` ports, with a test-only fault.
std::unique_ptr<RouterUnit> model_router(int ports, ModelFault fault) {
  auto m = make_model_router(ports);
  if (ports <= RouterModel::kPortsFit)
    static_cast<RouterModel&>(*m).set_fault(fault);
  else
    static_cast<WideRouterModel&>(*m).set_fault(fault);
  return m;
}
}  // namespace

Backend parse_backend(const std::string& s) {
  if (s == "rtl") return Backend::Rtl;
  if (s == "model") return Backend::Model;
  if (s == "lockstep") return Backend::Lockstep;
  throw ConfigError(Param::backend, fmt::format("unknown backend '{}'; allowed: rtl, model, lockstep", s));
}

const char* backend_name(Backend b) { return b == Backend::Rtl ? "rtl" : b == Backend::Model ? "model" : "lockstep"; }

NetworkSetup NetworkSetup::resolve(const std::string& topology, const std::string& ports, const NetworkParams& params) {
  NetworkSetup s;
  s.topology = Topology::parse(topology);
  s.ports = ports;
  s.params = params;
  s.params.inj = s.params.ej = parse_port_model(ports, s.topology);
  validate(s.topology, s.params);
  return s;
}

void validate(const Topology& topo, const NetworkParams& p) {
  if (p.vcs < 1 || p.vcs > kMaxVcs)
    throw ConfigError(Param::vcs, fmt::format("{} is out of range; allowed: 1..{}", p.vcs, kMaxVcs));
  if (topo.kind() == TopoKind::Torus && p.dateline && p.vcs % 2 != 0)
    throw ConfigError(Param::vcs, fmt::format("{} is odd; a torus needs an even number of VCs (2 or 4) for its two "
                                              "dateline classes",
                                              p.vcs));
  if (p.buf < 1 || p.buf > kMaxBuf)
    throw ConfigError(Param::buf, fmt::format("{} is out of range; allowed: 1..{} flits per VC", p.buf, kMaxBuf));
  if (p.backend != Backend::Model) {
    // The RTL backends run what this build verilated (WORMNET_RTL_RADICES, WORMNET_ROUTER_RTL).
    const int largest = kRtlRadices[sizeof kRtlRadices / sizeof kRtlRadices[0] - 1];
    if (topo.ports() > largest)
      throw ConfigError(Param::backend,
                        fmt::format("{} needs routers of {} ports, and this build verilated radices up to {} "
                                    "(WORMNET_RTL_RADICES); allowed: {} model, or a build with a radix >= {}",
                                    topo.name(), topo.ports(), largest, param_ref(Param::backend), topo.ports()));
    if (kForeignRouter && p.backend == Backend::Lockstep)
      throw ConfigError(Param::backend,
                        fmt::format("lockstep compares the RTL with the C++ model, which describes the shipped "
                                    "rtl/, not this build's router ({}, WORMNET_ROUTER_RTL); allowed: rtl",
                                    kRouterRtlDir));
  }
  if (p.inj < 1 || p.inj > topo.ports() || p.ej < 1 || p.ej > topo.ports())
    throw ConfigError(Param::ports, fmt::format("{} channels exceed the {} network ports of {}; allowed: one, all, "
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

RouterTiming router_timing(const NetworkParams& p, int ports) {
  return p.backend == Backend::Rtl ? rtl_router_timing(ports) : kShippedTiming;
}

struct Network::Tracer {
  RtlTraceFile file;
};

Network::Network(const Topology& topo, const NetworkParams& params) : topo_(topo), params_(params) {
  validate(topo, params);
  timing_ = router_timing(params, topo.ports());
  const int n = topo.nodes();
  buf_a_.resize(size_t(n));
  buf_b_.resize(size_t(n));
  in_ = buf_a_.data();
  seen_ = buf_b_.data();
  out_.resize(size_t(n));
  want_.assign(size_t(n), 0);
  want_next_.assign(size_t(n), 0);
  evaluated_scratch_.assign(size_t(n), 0);
  node_outputs_scratch_.assign(size_t(n), 0);
  links_.assign(size_t(n) * kMaxPorts, {-1, -1});
  const RouterConfig base = base_router_config(params);
  // The narrow model in one array, called directly in cycle() (no virtual call); the wide one through the unit.
  const bool narrow_model = params.backend == Backend::Model && topo.ports() <= RouterModel::kPortsFit;
  if (narrow_model) models_ = DenseVector<RouterModel>(size_t(n));
  for (int r = 0; r < n; ++r) {
    std::unique_ptr<RouterUnit> unit;
    switch (params.backend) {
      case Backend::Rtl:
        unit = params.rtl_trimmed ? make_rtl_router(topo.ports(), base, params.rtl_falling_eval)
                                  : make_rtl_router(topo.ports(), params.rtl_falling_eval);
        break;
      case Backend::Model:
        if (narrow_model)
          models_[size_t(r)].set_fault(params.model_fault);
        else
          unit = model_router(topo.ports(), params.model_fault);
        break;
      case Backend::Lockstep: {
        auto m = model_router(topo.ports(), params.model_fault);
        unit = std::make_unique<LockstepRouter>(params.rtl_trimmed
                                                    ? make_rtl_router(topo.ports(), base, params.rtl_falling_eval)
                                                    : make_rtl_router(topo.ports(), params.rtl_falling_eval),
                                                std::move(m));
        break;
      }
    }
    if (unit) {
      unit->reset(topo.router_config(r, base));
      routers_.push_back(std::move(unit));
    } else {
      models_[size_t(r)].reset(topo.router_config(r, base));
    }
    for (int o = 0; o < topo.ports(); ++o) {
      const int nb = topo.neighbor(r, o);
      if (nb >= 0) links_[size_t(r) * kMaxPorts + size_t(o)] = {nb, topo.peer_port(o)};
    }
  }
  // A network whose routers' state (sized by the model's) stays in a core's caches between two cycles
  // gains nothing from asking for it ahead: the instructions cost more than they hide. Fitted on
  // the 2-core development machine (1 MiB L2 per core): 256 routers (2.7 MB) are 8 % faster
  // without the prefetch in collective runs, 512 and 1024 routers the same within 2 %
  // (docs/results-other/performance.md).
  if (size_t(n) * (sizeof(RouterModel) + 3 * sizeof(RouterIn)) <= kCachedBytes) prefetch_ahead_ = n;
  evaluated_.reserve(size_t(n));
  start_pool(params.threads);
  node_outputs_.reserve(size_t(n));
}

Network::~Network() = default;

namespace {
// Bit count without a branch per bit (a loop over set bits mispredicts on
// every router) and without a libgcc call (the build does not assume POPCNT).
inline int popcount32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return int((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

// Carries the registered outputs of one router (its links: l[o] = {neighbour,
// its input port}) into the neighbours' next inputs; returns the flits sent.
inline int carry(const RouterOut& out, const std::pair<int, int>* l, RouterIn* next, uint8_t* want_next) {
  int sent = 0;
  for (uint32_t m = out.out_valid; m; m &= m - 1) {
    const int o = __builtin_ctz(m);
    const auto [nb, p] = l[o];
    next[nb].in_valid |= 1u << p;
    next[nb].in_flit[p] = out.out_flit[o];
    want_next[nb] = 1;
    ++sent;
  }
  for (uint32_t m = out.in_credit; m; m &= m - 1) {
    const int p = __builtin_ctz(m);
    // Input p of r is fed by output peer_port(p) of the neighbour through port p.
    const auto [up, o] = l[p];
    next[up].out_credit |= 1u << o;
    next[up].out_credit_vc[o] = out.in_credit_vc[p];
    want_next[up] = 1;
  }
  return sent;
}
}  // namespace

void Network::evaluate_unit(int r, const RouterIn& in, RouterOut& out) {
  try {
    routers_[size_t(r)]->cycle(in, out);
  } catch (const LockstepDivergence& e) {
    throw LockstepDivergence(
        fmt::format("cycle {} router {} ({}): {}", cycles_, r, fmt::join(topo_.coords(r), ","), e.what()));
  }
}

// A large network's routers leave the cache between two cycles: the loops that evaluate them
// ask for a router's state a few routers ahead of evaluating it.
void Network::prefetch_router(int r) const {
  if (!models_.empty()) models_[size_t(r)].prefetch();
  const char* const in = reinterpret_cast<const char*>(&in_[size_t(r)]);
  for (size_t b = 0; b < sizeof(RouterIn); b += 64) prefetch_line(in + b);
  prefetch_line(&out_[size_t(r)]);
}

void Network::cycle() {
  const int n = topo_.nodes();
  // With a pool the routers are evaluated first, on every thread; the loop below then only carries
  // their outputs, in router order as without one.
  if (pool_) {
    pool_error_ = nullptr;
    pool_error_at_ = n;
    pool_->run(n, pool_block_, pool_fn_);
    if (pool_error_) std::rethrow_exception(pool_error_);
  }
  // seen_ becomes next cycle's inputs; it held the inputs of the last cycle:
  // clear the valid bits of the routers that saw any (the evaluated ones).
  RouterIn* const next = seen_;
  for (int r : evaluated_) next[r].in_valid = next[r].out_credit = next[r].inj_valid = 0;
  // One pass: evaluate every router that has state or input, and carry its
  // outputs straight into next cycle's inputs (the current inputs in_ are
  // never written here, so the order of the routers does not matter).
  // node_outputs is filled without a branch per router (which would
  // mispredict): every router is written at its end, which only advances
  // when the router has something for its node.
  const uint8_t* const want = want_.data();
  uint8_t* const want_next = want_next_.data();
  RouterModel* const models = models_.empty() ? nullptr : models_.data();
  const std::pair<int, int>* const links = links_.data();
  int* const evaluated = evaluated_scratch_.data();
  int* const node_out = node_outputs_scratch_.data();
  size_t n_evaluated = 0, n_node_out = 0;
  int hops = 0, ejected = 0;
  for (int r = 0; r < n; ++r) {
    if (!want[r]) continue;
    RouterOut& out = out_[size_t(r)];
    if (!pool_) {
      if (r + prefetch_ahead_ < n && want[r + prefetch_ahead_]) prefetch_router(r + prefetch_ahead_);
      if (models)
        models[r].cycle(in_[size_t(r)], out);  // final class: a direct call
      else
        evaluate_unit(r, in_[size_t(r)], out);
    }
    want_next[r] |= uint8_t(out.busy);
    ejected += popcount32(out.ej_valid);
    hops += carry(out, links + size_t(r) * kMaxPorts, next, want_next);
    evaluated[n_evaluated++] = r;
    node_out[n_node_out] = r;
    n_node_out += (out.inj_credit | out.ej_valid) != 0;
  }
  evaluated_.assign(evaluated, evaluated + n_evaluated);
  node_outputs_.assign(node_out, node_out + n_node_out);
  router_evals_ += n_evaluated;
  std::swap(in_, seen_);
  want_.swap(want_next_);
  std::fill(want_next_.begin(), want_next_.end(), uint8_t{0});
  hops += ejected;
  flit_hops_ += uint64_t(hops);
  moves_ = injected_ + hops;
  flits_in_ += uint64_t(injected_) - uint64_t(ejected);
  injected_ = 0;
  if (tracer_) tracer_->file.dump(cycles_);
  ++cycles_;
}

void Network::trace(const std::string& fst_path) {
  if (params_.backend == Backend::Model)
    throw ConfigError(Param::trace,
                      "waveforms come from the RTL; allowed: " + param_ref(Param::backend) + " rtl or lockstep");
  tracer_ = std::make_unique<Tracer>();
  for (int r = 0; r < topo_.nodes(); ++r) {
    RouterUnit* u = routers_[size_t(r)].get();
    if (auto* ls = dynamic_cast<LockstepRouter*>(u)) u = &ls->rtl();
    tracer_->file.add(*u);
  }
  try {
    tracer_->file.open(fst_path);
  } catch (const std::exception& e) {
    throw ConfigError(Param::trace, e.what());
  }
}

}  // namespace wn
