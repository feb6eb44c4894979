#include "algorithms/step_cost.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace wn::alg {

namespace {

// Cycles the busiest of `ports` channels streams when the step's messages are
// dealt to them largest first: their flits, plus one bubble between two
// packets that follow each other on a channel (rtl/README.md §4: an input VC
// is re-allocated the cycle after the tail leaves). 0 when every message has
// a channel of its own (the per-message network time covers it).
double serialized_flits(std::vector<uint32_t> flits, int ports) {
  const size_t k = size_t(ports < 1 ? 1 : ports);
  if (flits.size() <= k) return 0;
  std::sort(flits.rbegin(), flits.rend());
  std::vector<double> load(k, 0);
  std::vector<int> count(k, 0);
  for (uint32_t f : flits) {
    const size_t c = size_t(std::min_element(load.begin(), load.end()) - load.begin());
    load[c] += f + (count[c]++ > 0 ? 1 : 0);
  }
  return *std::max_element(load.begin(), load.end());
}

// The network time of a channel streaming `serialized` flit slots back to back over `hops` hops
// (the zero load with F = serialized; below one message's own time when 0).
double zero_load_of(const CostParams& c, int hops, double serialized) {
  return double(c.timing.hop_cycles()) * (hops + 1) + double(c.timing.flit_cycles) * (serialized - 1);
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
  // Per step: the most startups any node serializes, the slowest message's
  // network time, the most receive completions + local work any node does.
  struct Parts {
    double startups = 0, network = 0, completions = 0;
  };
  std::map<uint32_t, Parts> steps;
  for (int n = 0; n < s.nodes; ++n) {
    double fraction = 0;  // of the node's processor work, carried from step to step (whole_cycles)
    for (const Step& st : s.programs[size_t(n)]) {
      Parts& p = steps[st.tag];
      double work = 0;
      std::vector<uint32_t> out_flits, in_flits;
      int hops = 0;
      for (const Send& m : st.sends) {
        const int h = topo.hops(n, m.dst);
        p.network = std::max(p.network, st.multiport_send ? c.multiport_network_cycles(h, total_words(m.src))
                                                          : c.network_cycles(h, total_words(m.src)));
        out_flits.push_back(c.flits(total_words(m.src)) + c.packets(total_words(m.src)) - 1);
        hops = std::max(hops, topo.hops(n, m.dst));
      }
      double moved = 0;  // words the node's memory port reads and writes for the step's messages
      for (const Send& m : st.sends) moved += total_words(m.src);
      for (const Recv& r : st.recvs) {
        in_flits.push_back(c.flits(total_words(r.dst)) + c.packets(total_words(r.dst)) - 1);
        hops = std::max(hops, topo.hops(r.src, n));
        moved += total_words(r.dst);
      }
      // A memory port moves the step's words at its rate, whatever the channels could do.
      if (c.mem_words_per_cycle > 0) p.network = std::max(p.network, std::ceil(moved / c.mem_words_per_cycle));
      // More messages than channels: the busiest injection (ejection) channel
      // streams its messages one after another.
      p.network = std::max(p.network, zero_load_of(c, hops, serialized_flits(out_flits, c.ports)));
      p.network = std::max(p.network, zero_load_of(c, hops, serialized_flits(in_flits, c.ports)));
      // Each local operation takes its processor cycles or, through a memory port, its accesses
      // (firmware_node.cpp: a copy that costs cycles reads and writes each word, a combine reads
      // both operands), whichever is longer.
      auto local = [&c](uint32_t words, const Combine& op, bool indexed, bool reorder) {
        const bool copy = op.op == kCopy;
        const double per_word =
            copy ? c.copy_cycles_per_word + (reorder ? c.reorder_cycles_per_word : 0) : c.combine_cycles_per_word;
        const double cpu = words * (per_word + (indexed ? c.index_cycles_per_word : 0));
        const double mem = c.mem_words_per_cycle > 0 && per_word > 0
                               ? std::ceil(words * (copy ? 2.0 : 3.0) / c.mem_words_per_cycle)
                               : 0;
        return std::max(cpu, mem);
      };
      for (const Recv& r : st.recvs) work += local(total_words(r.dst), r.combine, false, false);
      for (const auto* list : {&st.locals, &st.after})
        for (const LocalOp& l : *list) work += local(total_words(l.dst), l.combine, l.indexed, true);
      work = whole_cycles(work, fraction);
      const size_t ports = size_t(c.ports < 1 ? 1 : c.ports);
      const size_t startups = st.multiport_send ? (st.sends.size() + ports - 1) / ports : st.sends.size();
      p.startups = std::max(p.startups, double(startups) * (c.alpha + (st.multiport_send ? c.multiport_startup : 0)));
      p.completions = std::max(p.completions, double(st.recvs.size()) * c.gamma + work);
    }
  }
  double total = 0;
  for (const auto& [tag, p] : steps) total += p.startups + p.network + p.completions;
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
