#include "algorithms/step_cost.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace wn::alg {

namespace {

// A message of a step as the channels see it: posted (after its sender's local work and
// startups), its own network time, and the cycles it holds a channel before the next may follow:
// its flit slots plus one bubble (rtl/README.md §4: an input VC is re-allocated the cycle after the
// tail leaves; a paced message holds its channel as long as its pacing lasts).
struct Flow {
  int src = 0, dst = 0;
  uint32_t tag = 0;
  int channel = -1;  // pinned injection channel; -1: the first free one
  uint32_t words = 0;
  double ready = 0, network = 0, busy = 0;
  double start = 0, done = 0;  // scheduled: head injected, tail delivered
};

Flow make_flow(const CostParams& c, const Topology& topo, int n, const Send& m, bool multiport, double ready) {
  const uint32_t w = total_words(m.src);
  const int h = topo.hops(n, m.dst);
  Flow f;
  f.src = n;
  f.dst = m.dst;
  f.tag = m.tag;
  f.channel = m.channel;
  f.words = w;
  f.ready = ready;
  f.network = multiport ? c.multiport_network_cycles(h, w) : c.network_cycles(h, w);
  const double fc = c.timing.flit_cycles;
  f.busy = std::max(fc * (c.flits(w) + c.packets(w)), f.network - double(c.timing.hop_cycles()) * (h + 1) + 2 * fc);
  return f;
}

// One node's injection channels stream its messages in the order it posts them: each takes its
// pinned channel or the one free first (lowest index on a tie, as the NI takes its queue), and
// starts once posted and that channel is free.
void inject(std::vector<Flow*>& flows, int ports) {
  std::vector<double> free(size_t(std::max(1, ports)), 0);
  for (Flow* f : flows) {
    const size_t c = f->channel >= 0 && size_t(f->channel) < free.size()
                         ? size_t(f->channel)
                         : size_t(std::min_element(free.begin(), free.end()) - free.begin());
    f->start = std::max(f->ready, free[c]);
    free[c] = f->start + f->busy;
    f->done = f->start + f->network;
  }
}

// One node's ejection channels deliver the messages sent to it in the order their tails would
// arrive alone, each tail at the earliest `busy` cycles after the previous one on its channel.
void eject(std::vector<Flow*> flows, int ports) {
  std::stable_sort(flows.begin(), flows.end(), [](const Flow* a, const Flow* b) { return a->done < b->done; });
  std::vector<double> last(size_t(std::max(1, ports)), -1e300);
  for (Flow* f : flows) {
    const size_t c = size_t(std::min_element(last.begin(), last.end()) - last.begin());
    last[c] = f->done = std::max(f->done, last[c] + f->busy);
  }
}

// A node's processor, as firmware/schedule_interpreter.cpp drives it: whole cycles, the fraction
// of one carried to its next operation (whole_cycles).
struct Processor {
  const CostParams& c;
  double& fraction;
  double t = 0;
  // Addresses of a list of local operations, computed at once.
  void index(const std::vector<LocalOp>& ops) {
    uint64_t words = 0, indexed = 0;
    for (const LocalOp& l : ops)
      if (l.indexed) {
        words += total_words(l.dst);
        ++indexed;
      }
    if (words > 0)
      t += whole_cycles(index_cost(words, indexed, c.index_setup_cycles, c.index_op_cycles, c.index_cycles_per_word),
                        fraction);
  }
  // A copy or combine (cost_model.h, local_cost): its processor cycles or, through a memory port,
  // its accesses, whichever is longer.
  void put(uint32_t words, const Combine& op, bool reorder) {
    const LocalCost cost = local_cost(words, op.op == kCopy, c.copy_cycles_per_word, c.combine_cycles_per_word,
                                      reorder ? c.reorder_cycles_per_word : 0);
    const double cpu = whole_cycles(words * cost.per_word, fraction);
    const double mem = c.mem_words_per_cycle > 0 ? std::ceil(double(cost.accesses) / c.mem_words_per_cycle) : 0;
    t += std::max(cpu, mem);
  }
  void locals(const std::vector<LocalOp>& ops) {
    index(ops);
    for (const LocalOp& l : ops) put(total_words(l.dst), l.combine, true);
  }
};

// One step, every node starting it together: when its last node is done.
double step_cycles(const std::vector<std::pair<int, const Step*>>& members, const Topology& topo, const CostParams& c,
                   std::vector<double>& fraction) {
  const size_t ports = size_t(c.ports < 1 ? 1 : c.ports);
  std::vector<Processor> cpu;
  std::vector<Flow> flows;
  for (const auto& [n, st] : members) {
    Processor p{c, fraction[size_t(n)]};
    p.locals(st->locals);
    // Startups on the processor, serialized; a multi-port operation posts `ports` sends at once.
    const double startup = c.alpha + (st->multiport_send ? c.multiport_startup : 0);
    const double posted = p.t;
    for (size_t k = 0; k < st->sends.size(); ++k) {
      const size_t group = st->multiport_send ? k / ports : k;
      p.t = posted + double(group + 1) * startup;
      flows.push_back(make_flow(c, topo, n, st->sends[k], st->multiport_send, p.t));
    }
    cpu.push_back(p);
  }
  std::map<int, std::vector<Flow*>> out, in;
  for (Flow& f : flows) out[f.src].push_back(&f);
  for (auto& [n, list] : out) inject(list, c.ports);
  // A memory port moves a node's words at its rate from its first message on, whatever the
  // channels could do: neither end of a message is done before (a lower bound; equal when the port
  // is the bottleneck throughout the step, as on a one-word port).
  if (c.mem_words_per_cycle > 0) {
    std::map<int, double> first, moved;
    for (const Flow& f : flows)
      for (int node : {f.src, f.dst}) {
        first[node] = first.count(node) ? std::min(first[node], f.start) : f.start;
        moved[node] += f.words;
      }
    for (Flow& f : flows)
      for (int node : {f.src, f.dst})
        f.done = std::max(f.done, first[node] + std::ceil(moved[node] / c.mem_words_per_cycle));
  }
  for (Flow& f : flows) in[f.dst].push_back(&f);
  for (auto& [n, list] : in) eject(list, c.ports);
  // Each node completes its receives in arrival order (gamma, then the store), then its local
  // work after them; the step ends when its last node is done and its last message delivered.
  // (src, dst, tag) -> its messages in posting order, each matched by one receive (a map, so that
  // a file with many messages between one pair costs a lookup, not a scan, per receive).
  std::map<std::tuple<int, int, uint32_t>, std::deque<const Flow*>> sent;
  for (const Flow& f : flows) sent[{f.src, f.dst, f.tag}].push_back(&f);
  double end = 0;
  for (const Flow& f : flows) end = std::max(end, f.done);
  for (size_t i = 0; i < members.size(); ++i) {
    const auto& [n, st] = members[i];
    Processor& p = cpu[i];
    std::vector<std::pair<double, const Recv*>> arrivals;
    for (const Recv& r : st->recvs) {
      double at = 0;  // a message of another step: there already
      auto it = sent.find({r.src, n, r.tag});
      if (it != sent.end() && !it->second.empty()) {
        at = it->second.front()->done;
        it->second.pop_front();
      }
      arrivals.push_back({at, &r});
    }
    std::stable_sort(arrivals.begin(), arrivals.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [at, r] : arrivals) {
      p.t = std::max(p.t, at) + c.gamma;
      p.put(total_words(r->dst), r->combine, false);
    }
    p.locals(st->after);
    end = std::max(end, p.t);
  }
  return end;
}

}  // namespace

Prediction step_model_prediction(const Schedule& s, const Topology& topo, const CostParams& c, std::string formula) {
  Prediction p;
  p.steps = s.steps;
  p.cycles = step_model_cycles(s, topo, c);
  p.formula = std::move(formula);
  return p;
}

double step_model_cycles(const Schedule& s, const Topology& topo, const CostParams& c) {
  std::map<uint32_t, std::vector<std::pair<int, const Step*>>> steps;
  for (int n = 0; n < s.nodes; ++n)
    for (const Step& st : s.programs[size_t(n)]) steps[st.tag].push_back({n, &st});
  std::vector<double> fraction(size_t(s.nodes), 0);  // of each node's processor work (whole_cycles)
  double total = 0;
  for (const auto& [tag, members] : steps) total += step_cycles(members, topo, c, fraction);
  return total;
}

int max_hops(const Schedule& s, const Topology& topo) {
  int h = 0;
  for (int n = 0; n < s.nodes; ++n)
    for (const Step& st : s.programs[size_t(n)])
      for (const Send& m : st.sends) h = std::max(h, topo.hops(n, m.dst));
  return h;
}

uint32_t max_message_words(const Schedule& s) {
  uint32_t w = 0;
  for (const auto& prog : s.programs)
    for (const Step& st : prog)
      for (const Send& m : st.sends) w = std::max(w, total_words(m.src));
  return w;
}

}  // namespace wn::alg
