#include "systemc/router/lockstep/lockstep_router.h"

#include <fmt/format.h>

#include "systemc/core/flit.h"

namespace wn {

namespace {
bool bit(uint32_t m, int i) { return (m >> i) & 1; }
}  // namespace

void LockstepRouter::reset(const RouterConfig& cfg) {
  cfg_ = cfg;
  rtl_->reset(cfg);
  model_->reset(cfg);
  cycles_ = 0;
}

void LockstepRouter::cycle(const RouterIn& in, RouterOut& out) {
  rtl_->cycle(in, out);
  model_->cycle(in, model_out_);
  Snapshot& s = history_[cycles_ % kHistory];
  s.cycle = cycles_;
  s.in = in;
  s.out = out;
  const std::string d = diff_outputs(out, model_out_, cfg_.ports);
  if (!d.empty()) {
    std::string msg =
        fmt::format("lock-step divergence at router-local edge {}: {}\n  rtl:   {}\n  model: {}\n", cycles_, d,
                    describe_outputs(out, cfg_.ports), describe_outputs(model_out_, cfg_.ports));
    msg += "  history (oldest first, rtl side):\n";
    for (uint64_t c = cycles_ >= kHistory ? cycles_ - kHistory + 1 : 0; c <= cycles_; ++c) {
      const Snapshot& h = history_[c % kHistory];
      msg += fmt::format("    edge {}: in {{{}}} -> out {{{}}}\n", h.cycle, describe_inputs(h.in, cfg_.ports),
                         describe_outputs(h.out, cfg_.ports));
    }
    throw LockstepDivergence(msg);
  }
  ++cycles_;
}

std::string diff_outputs(const RouterOut& a, const RouterOut& b, int ports) {
  std::string d;
  auto add = [&](const std::string& s) { d += (d.empty() ? "" : "; ") + s; };
  if (a.out_valid != b.out_valid) add(fmt::format("out_valid {:#x} vs {:#x}", a.out_valid, b.out_valid));
  if (a.ej_valid != b.ej_valid) add(fmt::format("ej_valid {:#x} vs {:#x}", a.ej_valid, b.ej_valid));
  if (a.in_credit != b.in_credit) add(fmt::format("in_credit {:#x} vs {:#x}", a.in_credit, b.in_credit));
  if (a.inj_credit != b.inj_credit) add(fmt::format("inj_credit {:#x} vs {:#x}", a.inj_credit, b.inj_credit));
  if (a.busy != b.busy) add(fmt::format("busy {} vs {}", a.busy, b.busy));
  for (int p = 0; p < ports; ++p) {
    if (bit(a.out_valid & b.out_valid, p)) {
      if (a.out_flit[p] != b.out_flit[p])
        add(fmt::format("out{} flit {:#018x} vs {:#018x}", p, a.out_flit[p], b.out_flit[p]));
      if (a.from_port[p] != b.from_port[p] || a.from_vc[p] != b.from_vc[p])
        add(fmt::format("out{} from {}.{} vs {}.{}", p, a.from_port[p], a.from_vc[p], b.from_port[p], b.from_vc[p]));
    }
    if (bit(a.ej_valid & b.ej_valid, p)) {
      const int j = kMaxPorts + p;
      if (a.ej_flit[p] != b.ej_flit[p])
        add(fmt::format("ej{} flit {:#018x} vs {:#018x}", p, a.ej_flit[p], b.ej_flit[p]));
      if (a.from_port[j] != b.from_port[j] || a.from_vc[j] != b.from_vc[j])
        add(fmt::format("ej{} from {}.{} vs {}.{}", p, a.from_port[j], a.from_vc[j], b.from_port[j], b.from_vc[j]));
    }
    if (bit(a.in_credit & b.in_credit, p) && a.in_credit_vc[p] != b.in_credit_vc[p])
      add(fmt::format("in_credit{} vc {} vs {}", p, a.in_credit_vc[p], b.in_credit_vc[p]));
  }
  return d;
}

std::string describe_outputs(const RouterOut& o, int ports) {
  std::string s;
  for (int p = 0; p < ports; ++p) {
    if (bit(o.out_valid, p)) s += fmt::format(" out{}<-{}.{}:{:#x}", p, o.from_port[p], o.from_vc[p], o.out_flit[p]);
    if (bit(o.ej_valid, p))
      s += fmt::format(" ej{}<-{}.{}:{:#x}", p, o.from_port[kMaxPorts + p], o.from_vc[kMaxPorts + p], o.ej_flit[p]);
    if (bit(o.in_credit, p)) s += fmt::format(" cr{}.{}", p, o.in_credit_vc[p]);
    if (bit(o.inj_credit, p)) s += fmt::format(" injcr{}", p);
  }
  return s + (o.busy ? " busy" : " idle");
}

std::string describe_inputs(const RouterIn& in, int ports) {
  std::string s;
  for (int p = 0; p < ports; ++p) {
    if (bit(in.in_valid, p)) s += fmt::format(" in{}:{:#x}", p, in.in_flit[p]);
    if (bit(in.inj_valid, p)) s += fmt::format(" inj{}:{:#x}", p, in.inj_flit[p]);
    if (bit(in.out_credit, p)) s += fmt::format(" cr{}.{}", p, in.out_credit_vc[p]);
  }
  return s.empty() ? " -" : s;
}

}  // namespace wn
