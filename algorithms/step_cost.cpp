#include "algorithms/step_cost.h"

#include <algorithm>
#include <map>

namespace wn::alg {

double step_model_cycles(const Schedule& s, const Topology& topo, const CostParams& c) {
  // Per step: the most startups any node serializes, the slowest message's
  // network time, the most receive completions + local work any node does.
  struct Parts {
    double startups = 0, network = 0, completions = 0;
  };
  std::map<uint32_t, Parts> steps;
  for (int n = 0; n < s.nodes; ++n) {
    for (const Step& st : s.programs[size_t(n)]) {
      Parts& p = steps[st.tag];
      double work = 0;
      for (const Send& m : st.sends)
        p.network = std::max(p.network, c.network_cycles(topo.hops(n, m.dst), total_words(m.src)));
      for (const Recv& r : st.recvs)
        work += total_words(r.dst) * (r.combine.op == kCopy ? c.copy_cycles_per_word : c.combine_cycles_per_word);
      for (const auto* list : {&st.locals, &st.after})
        for (const LocalOp& l : *list)
          work += total_words(l.dst) * ((l.combine.op == kCopy ? c.copy_cycles_per_word : c.combine_cycles_per_word) +
                                        (l.indexed ? c.index_cycles_per_word : 0));
      const size_t ports = size_t(c.ports < 1 ? 1 : c.ports);
      const size_t startups = st.multiport_send ? (st.sends.size() + ports - 1) / ports : st.sends.size();
      p.startups = std::max(p.startups, double(startups) * c.alpha);
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
