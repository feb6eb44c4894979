// edn-broadcast: on a 2^k x 2^k mesh steps 0-1 are the startup and steps
// 2..k the descent (a parent never sends to the source: it holds the
// message); on a 2^d x 2^d torus the d steps of the Y/T/F patterns. Every
// other node receives exactly once. Memory: M words; the source holds
// data_word(source, 0, o), every other node scratch; afterwards all hold the
// source's words.
#include <algorithm>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

void set_broadcast_memory(Schedule& s, int source) {
  auto payload = [source](uint32_t o) -> Word { return 0x50000000u + (uint32_t(source) << 16) + o; };
  s.initial = [source, payload](int n, uint32_t a) -> Word {
    return n == source ? payload(a) : 0xe0000000u ^ (uint32_t(n) << 16) ^ a;
  };
  s.expected = [payload](int, uint32_t a) -> std::optional<Word> { return payload(a); };
}

namespace {}  // namespace

int square_log2(const Topology& topo, TopoKind kind, int dims) {
  if (topo.kind() != kind || topo.dims() != dims || topo.radix()[0] != topo.radix()[1]) return 0;
  const int w = topo.radix()[0];
  if (w < 4 || (w & (w - 1)) != 0) return 0;
  return __builtin_ctz(unsigned(w));
}

int mesh_k(const Topology& topo) { return square_log2(topo, TopoKind::Mesh, 2); }
int torus_d(const Topology& topo) { return square_log2(topo, TopoKind::Torus, 2); }
int torus3_d(const Topology& topo) { return square_log2(topo, TopoKind::Torus, 3); }

namespace {

std::vector<IdSends> ids(const Topology& topo, const std::vector<StepSends>& steps) {
  std::vector<IdSends> out;
  for (const StepSends& st : steps) {
    out.emplace_back();
    for (const auto& [f, t] : st)
      out.back().push_back({topo.node_at({f.first, f.second}), topo.node_at({t.first, t.second})});
  }
  return out;
}

}  // namespace

Schedule build_dim_broadcast(const Topology& topo, const AlgorithmArgs& args) {
  const auto c = topo.coords(args.source);
  return broadcast_schedule("dim-broadcast", topo, args.source, args.words,
                            ids(topo, dimensional_steps(topo.radix()[0], {c[0], c[1]})));
}

Schedule build_edn_broadcast(const Topology& topo, const AlgorithmArgs& args) {
  const int src = args.source;
  if (torus3_d(topo)) return broadcast_schedule("edn-broadcast", topo, src, args.words, torus3_steps(topo, src));
  if (mesh3_supported(topo)) return broadcast_schedule("edn-broadcast", topo, src, args.words, mesh3_steps(topo, src));
  const auto c = topo.coords(src);
  const Node source{c[0], c[1]};
  std::vector<StepSends> steps;
  if (const int d = torus_d(topo)) {
    steps = torus_steps(d, source);
  } else {
    const Hierarchy& h = *mesh_hierarchy(topo);
    const Startup st = startup_to(topo, h.tops, source, false);
    steps.push_back(st.step1);
    if (!st.step2.empty()) steps.push_back(st.step2);
    steps.insert(steps.end(), h.descent.begin(), h.descent.end());
  }
  return broadcast_schedule("edn-broadcast", topo, src, args.words, ids(topo, steps));
}

Schedule broadcast_schedule(const char* name, const Topology& topo, int src, uint32_t m,
                            const std::vector<IdSends>& steps) {
  Schedule s;
  s.algorithm = name;
  s.nodes = topo.nodes();
  s.steps = int(steps.size());
  s.memory_words = m;
  s.programs.resize(size_t(s.nodes));
  for (uint32_t tag = 0; tag < steps.size(); ++tag) {
    std::vector<Step> by_node(size_t(s.nodes));
    for (const auto& [f, t] : steps[tag]) {
      if (t == src) continue;  // the source already holds the message
      by_node[size_t(f)].sends.push_back({t, {{0, m}}, tag, -1});
      by_node[size_t(t)].recvs.push_back({f, {{0, m}}, tag, {}});
    }
    for (int n = 0; n < s.nodes; ++n) {
      Step& step = by_node[size_t(n)];
      if (step.sends.empty() && step.recvs.empty()) continue;
      step.tag = tag;
      s.programs[size_t(n)].push_back(std::move(step));
    }
  }
  set_broadcast_memory(s, src);
  return s;
}

}  // namespace wn::alg::edn
