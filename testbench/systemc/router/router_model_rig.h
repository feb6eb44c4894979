// A one-router test rig for the C++ router model (an NI per injection channel
// sending as credits allow, a recorder of every output event) and a chain of
// rigs wired by hand. Cycle convention: see router_model_test.cpp.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "systemc/core/flit.h"
#include "systemc/router/model/router_model.h"
#include "testbench/systemc/router/router_config_helpers.h"

namespace wn::test {

constexpr int kEj = 100;  // event output code for ejection channel j: kEj + j

// Packet of L flits: head (msg id) then bodies whose payload is (msg << 8 | index).
inline std::vector<uint64_t> packet(uint32_t dest, uint32_t msg, int L) {
  std::vector<uint64_t> p;
  p.push_back(flit::make_head(L == 1, dest, 0, 0, msg));
  for (int i = 1; i < L; ++i) p.push_back(flit::make_body(i == L - 1, (uint64_t(msg) << 8) | uint64_t(i)));
  return p;
}

struct Event {
  int call;
  int out;  // network output o, or kEj + j
  uint64_t flit;
  int from_port, from_vc;
};

// One model router with an NI per injection channel that sends queued flits
// as injection credits allow, and a recorder of every output event.
class Rig {
 public:
  explicit Rig(const RouterConfig& cfg, ModelFault fault = ModelFault::None) : cfg_(cfg) {
    r_.set_fault(fault);
    r_.reset(cfg);
    icred_.fill(cfg.buf);
  }
  void send(int ch, const std::vector<uint64_t>& flits) {
    for (uint64_t f : flits) q_[size_t(ch)].push_back(f);
  }
  void arrive(int port, int vc, uint64_t f) {  // on a network input, at the next step
    in_.in_valid |= 1u << port;
    in_.in_flit[port] = flit::with_vc(f, unsigned(vc));
  }
  void credit(int o, int vc) {
    in_.out_credit |= 1u << o;
    in_.out_credit_vc[o] = uint8_t(vc);
  }
  void step() {
    for (int ch = 0; ch < cfg_.inj; ++ch)
      if (!q_[size_t(ch)].empty() && icred_[size_t(ch)] > 0) {
        in_.inj_valid |= 1u << ch;
        in_.inj_flit[ch] = q_[size_t(ch)].front();
        q_[size_t(ch)].pop_front();
        --icred_[size_t(ch)];
      }
    r_.cycle(in_, out);
    in_ = RouterIn{};
    for (uint32_t m = out.inj_credit; m; m &= m - 1) ++icred_[size_t(__builtin_ctz(m))];
    for (uint32_t m = out.out_valid; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      events.push_back({t, o, out.out_flit[o], out.from_port[o], out.from_vc[o]});
    }
    for (uint32_t m = out.ej_valid; m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      events.push_back({t, kEj + j, out.ej_flit[j], out.from_port[kMaxPorts + j], out.from_vc[kMaxPorts + j]});
    }
    ++t;
  }
  void run(int n) {
    for (int i = 0; i < n; ++i) step();
  }
  // Calls at which output `o` carried a flit.
  std::vector<int> times(int o) const {
    std::vector<int> v;
    for (const Event& e : events)
      if (e.out == o) v.push_back(e.call);
    return v;
  }
  std::vector<Event> on(int o) const {
    std::vector<Event> v;
    for (const Event& e : events)
      if (e.out == o) v.push_back(e);
    return v;
  }

  RouterConfig cfg_;
  RouterModel r_;
  RouterIn in_;
  RouterOut out;
  std::array<std::deque<uint64_t>, kMaxPorts> q_;
  std::array<int, kMaxPorts> icred_{};
  std::vector<Event> events;
  int t = 0;  // calls made so far
};

// n model routers in a row (mesh n x 1): router x output 0 (+X) feeds router
// x+1 input 1, output 1 (-X) feeds router x-1 input 0; credits flow back.
class Chain {
 public:
  explicit Chain(int n, int vcs = 2, int buf = 8) {
    for (int x = 0; x < n; ++x) rigs_.push_back(std::make_unique<Rig>(grid(TopoKind::Mesh, {n, 1}, {x, 0}, vcs, buf)));
  }
  Rig& at(int x) { return *rigs_[size_t(x)]; }
  uint32_t addr(int x) const { return rigs_[size_t(x)]->cfg_.addr; }
  void step() {
    for (auto& r : rigs_) r->step();
    const int n = int(rigs_.size());
    for (int x = 0; x < n; ++x) {
      const RouterOut& o = rigs_[size_t(x)]->out;
      auto link = [&](int out_port, int nb, int in_port) {
        if (o.out_valid >> out_port & 1) {
          rigs_[size_t(nb)]->in_.in_valid |= 1u << in_port;
          rigs_[size_t(nb)]->in_.in_flit[in_port] = o.out_flit[out_port];
        }
      };
      if (x + 1 < n) link(0, x + 1, 1);
      if (x > 0) link(1, x - 1, 0);
      // Credit for input p goes to the router feeding it, on its output p ^ 1.
      if ((o.in_credit & 2u) && x > 0) rigs_[size_t(x - 1)]->credit(0, o.in_credit_vc[1]);
      if ((o.in_credit & 1u) && x + 1 < n) rigs_[size_t(x + 1)]->credit(1, o.in_credit_vc[0]);
    }
  }
  void run(int n) {
    for (int i = 0; i < n; ++i) step();
  }

 private:
  std::vector<std::unique_ptr<Rig>> rigs_;
};

inline std::vector<int> range(int from, int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(from + i);
  return v;
}

}  // namespace wn::test
