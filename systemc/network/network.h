// The network: one RouterUnit per node (RTL, C++ model, or both in lock-step),
// wired by the topology. One call to cycle() is one rising clock edge for
// every router. Routers that are idle and receive nothing are not evaluated
// (rtl/README.md §6: their state can not change), which makes idle parts of a
// large network almost free.
#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "systemc/core/huge_pages.h"
#include "systemc/core/prefetch.h"
#include "systemc/router/model/router_model.h"
#include "systemc/router/router_unit.h"
#include "systemc/topology/topology.h"

namespace wn {

enum class Backend { Rtl, Model, Lockstep };
Backend parse_backend(const std::string& s);  // throws ConfigError(Param::backend)
const char* backend_name(Backend b);

struct NetworkParams {
  Backend backend = Backend::Model;
  int vcs = 2;
  int buf = 8;
  int inj = 1;  // injection channels per node
  int ej = 1;   // ejection channels per node
  bool dateline = true;
  ModelFault model_fault = ModelFault::None;  // test-only: a fault of the C++ model (lock-step must catch it)
  bool rtl_trimmed = true;        // test-only: false keeps the fully verilated router where a trimmed one fits
  bool rtl_falling_eval = false;  // test-only: evaluate the verilated routers at the falling edge too
  // Threads that evaluate a cycle's routers (1: the caller alone). Results do not depend on it.
  // A network too small to share out uses fewer (Network::threads()).
  int threads = 1;
};
// Validates params against the topology; throws ConfigError naming the field.
void validate(const Topology& topo, const NetworkParams& p);

// The network a run builds, resolved once from what the user typed: nothing
// below the experiments parses a topology or port-model string again.
struct NetworkSetup {
  Topology topology = Topology::mesh({2, 2});
  std::string ports = "one";  // the port model as given (reports echo it)
  NetworkParams params;       // injection/ejection channels resolved from `ports`, validated
  // Throws ConfigError(Param::topology / "--ports" / "--vcs" ...).
  static NetworkSetup resolve(const std::string& topology, const std::string& ports, const NetworkParams& params);
};
// The network-wide part of every router's configuration.
RouterConfig base_router_config(const NetworkParams& p);
// The zero-load timing of the routers `p` builds for `ports` ports: the model's (lock-step
// included: it checks the RTL against the model every cycle), or the verilated router's, probed.
RouterTiming router_timing(const NetworkParams& p, int ports);

template <class Mask>
class BasicRouterModel;
using RouterModel = BasicRouterModel<uint64_t>;

class RouterPool;

class Network {
 public:
  Network(const Topology& topo, const NetworkParams& params);
  ~Network();

  const Topology& topology() const { return topo_; }
  const NetworkParams& params() const { return params_; }
  const RouterTiming& timing() const { return timing_; }
  // The threads that evaluate the routers (params().threads, or fewer on a small network).
  int threads() const;

  // NI side. Before cycle(): set injection flits of this cycle.
  void inject(int node, int channel, uint64_t flit) {
    RouterIn& in = in_[size_t(node)];
    injected_ += ~in.inj_valid >> channel & 1;  // a channel driven twice in a cycle is one flit
    in.inj_valid |= 1u << channel;
    in.inj_flit[channel] = flit;
    want_[size_t(node)] = 1;
  }
  // A node's memory port held the flit it injects now back: its delay-ledger tag (delay_ledger.h),
  // which the flit carries into its router's injection buffer. Only NIs with a memory port call it.
  void inject_tag(int node, int channel, uint64_t tag) {
    if (inj_tags_.empty()) inj_tags_.assign(size_t(topo_.nodes()) * kMaxPorts, 0);
    inj_tags_[size_t(node) * kMaxPorts + size_t(channel)] = tag;
  }
  uint64_t injected_tag(int node, int channel) const {
    return inj_tags_.empty() ? 0 : inj_tags_[size_t(node) * kMaxPorts + size_t(channel)];
  }
  // Ask for the lines inject(node, ...) / out(node) use (an NI's loop over a big network's nodes).
  void prefetch_inject(int node) const { prefetch_line(&in_[size_t(node)].inj_valid); }
  void prefetch_out(int node) const {
    prefetch_line(&out_[size_t(node)].inj_credit);
    prefetch_line(&out_[size_t(node)].ej_flit[0]);
  }
  // After cycle(): registered outputs (ejection flits, injection credits).
  const RouterOut& out(int node) const { return out_[size_t(node)]; }
  // Routers evaluated in the last cycle (others produced nothing).
  const std::vector<int>& evaluated() const { return evaluated_; }
  // The evaluated routers whose outputs towards their node are valid (an
  // injection credit or an ejected flit), in increasing order: the only
  // nodes with something to collect after the last cycle.
  const std::vector<int>& node_outputs() const { return node_outputs_; }
  // Inputs the routers saw in the last cycle (for observers).
  const RouterIn& last_in(int node) const { return seen_[size_t(node)]; }

  void cycle();
  // Nothing to evaluate next cycle: the last cycle evaluated no router (so none
  // has state or input) and nothing was injected since. Idle cycles change no
  // router state (rtl/README.md §6), so they may be skipped: skip_idle(k)
  // counts k of them without evaluating anything.
  bool idle() const { return evaluated_.empty() && injected_ == 0; }
  void skip_idle(uint64_t k) { cycles_ += k; }
  uint64_t cycles() const { return cycles_; }
  uint64_t router_evals() const { return router_evals_; }
  // Flit movements (router outputs + injections) in the last cycle.
  int moves() const { return moves_; }
  // Flits that left a router (network outputs and ejections), whole run.
  uint64_t flit_hops() const { return flit_hops_; }
  // Flits injected and not yet ejected (in FIFOs, output registers, on links):
  // two counters, so the deadlock watchdog costs nothing per flit.
  uint64_t flits_in_network() const { return flits_in_; }

  // Where output port `o` of router r leads: {neighbour, its input port}, or {-1,-1}.
  std::pair<int, int> link(int r, int o) const { return links_[size_t(r) * kMaxPorts + size_t(o)]; }
  // The network's state does not stay in a core's cache from one cycle to the next: worth asking
  // for a router's lines ahead of its turn (observers of the network follow the same rule).
  bool prefetches() const { return prefetch_ahead_ < topo_.nodes(); }
  void prefetch_links(int r, int ports) const {
    prefetch_line(&links_[size_t(r) * kMaxPorts]);
    prefetch_line(&links_[size_t(r) * kMaxPorts + size_t(ports - 1)]);
  }

  RouterUnit& router(int node) { return models_.empty() ? *routers_[size_t(node)] : models_[size_t(node)]; }
  // Opens an FST waveform of the RTL routers (RTL or lock-step backend only).
  void trace(const std::string& fst_path);

 private:
  const Topology& topo_;
  NetworkParams params_;
  RouterTiming timing_;
  std::vector<std::unique_ptr<RouterUnit>> routers_;  // RTL, lock-step and the wide model
  // Model backend up to RouterModel::kPortsFit ports: the routers in one array (called directly,
  // no virtual call; huge_pages.h).
  DenseVector<RouterModel> models_;
  // Inputs are double-buffered: in_ collects the inputs of the next cycle
  // (inject() and the links), seen_ holds those of the last cycle; cycle()
  // swaps the two buffers instead of copying. Only the valid bits of a
  // buffer are ever cleared (flit words under a clear bit are stale).
  DenseVector<RouterIn> buf_a_, buf_b_;
  RouterIn* in_ = nullptr;
  RouterIn* seen_ = nullptr;
  DenseVector<RouterOut> out_;
  // Router is busy or has input: evaluate it. Double-buffered like the
  // inputs: want_ for the coming cycle (inject() and the last cycle set it),
  // want_next_ filled while this cycle's outputs are carried over the links.
  std::vector<uint8_t> want_, want_next_;
  std::vector<std::pair<int, int>> links_;
  std::vector<int> evaluated_;
  std::vector<int> node_outputs_;
  // n slots each: the lists are built here without a branch per router, then copied.
  std::vector<int> evaluated_scratch_, node_outputs_scratch_;
  uint64_t cycles_ = 0, router_evals_ = 0, flit_hops_ = 0;
  int moves_ = 0;
  int injected_ = 0;  // injection flits presented since the last cycle()
  uint64_t flits_in_ = 0;
  std::vector<uint64_t> inj_tags_;  // per node and injection channel: inject_tag()

  static constexpr int kPrefetchAhead = 4;  // routers between the one prefetched and the one evaluated
  int prefetch_ahead_ = kPrefetchAhead;     // past the last router (never) where the network stays cached
  static constexpr size_t kCachedBytes = size_t{4} << 20;
  void prefetch_router(int r) const;
  // One edge of router r through the RouterUnit interface (RTL, lock-step).
  void evaluate_unit(int r, const RouterIn& in, RouterOut& out);
  // The wanted routers of [lo, hi) evaluated (on a pool thread).
  void evaluate_range(int lo, int hi);
  void start_pool(int threads);
  std::unique_ptr<RouterPool> pool_;
  int pool_block_ = 1;  // routers per block handed to a pool thread
  std::function<void(int, int)> pool_fn_;
  std::mutex pool_error_mutex_;
  std::exception_ptr pool_error_;
  int pool_error_at_ = 0;
  struct Tracer;
  std::unique_ptr<Tracer> tracer_;
};

}  // namespace wn
