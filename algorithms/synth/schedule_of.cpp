// A found schedule as the schedule IR: one message per (step, from, to) of the solver, each the
// whole block. Payload words follow algorithms/data_words.h, so the oracle checks
// which root's data arrived where.
#include "algorithms/data_words.h"
#include "algorithms/synth/synth.h"

#include <map>

namespace wn::alg::synth {

Schedule schedule_of(const Topology& topo, const Result& r, Collective c, int root, uint32_t m, OpId op) {
  const int n = topo.nodes();
  const bool bcast = c == Collective::Broadcast;
  Schedule s;
  s.nodes = n;
  s.steps = r.steps;
  s.memory_words = bcast ? m : 2 * m;
  s.programs.resize(size_t(n));
  std::vector<std::map<uint32_t, Step>> steps(static_cast<size_t>(n));
  auto step = [&](int v, uint32_t t) -> Step& {
    Step& st = steps[size_t(v)][t];
    st.tag = t;
    return st;
  };
  const Range buf{bcast ? 0 : m, m};
  if (!bcast)  // OUT = IN, then every child's partial result is combined in
    for (int v = 0; v < n; ++v) step(v, 0).locals.push_back({{{0, m}}, {buf}, {}, false});
  for (const Message& x : r.messages) {
    const uint32_t t = uint32_t(x.step);
    step(x.from, t).sends.push_back({x.to, {buf}, t, -1});
    step(x.to, t).recvs.push_back({x.from, {buf}, t, bcast ? Combine{} : Combine{op, false}});
  }
  for (int v = 0; v < n; ++v)
    for (auto& [t, st] : steps[size_t(v)]) s.programs[size_t(v)].push_back(std::move(st));
  if (bcast) {
    s.initial = [root, n, m](int v, uint32_t a) { return v == root ? data_word(v, 0, a, n, m) : scratch_word(v, a); };
    s.expected = [root, n, m](int, uint32_t a) -> std::optional<Word> { return data_word(root, 0, a, n, m); };
  } else {
    s.initial = [n, m](int v, uint32_t a) { return a < m ? data_word(v, 0, a, n, m) : scratch_word(v, a); };
    s.expected = [root, n, m, op](int v, uint32_t a) -> std::optional<Word> {
      if (a < m) return data_word(v, 0, a, n, m);
      if (v != root) return std::nullopt;
      std::vector<Word> xs;
      for (int u = 0; u < n; ++u) xs.push_back(data_word(u, 0, a - m, n, m));
      return fold(op, xs);
    };
  }
  return s;
}

}  // namespace wn::alg::synth
