// Which blocks each message carries. Every node keeps its held blocks; in a
// step it sends its partner, combined into one message, every held block the
// step's rule selects by destination t, and keeps the rest (no block is split
// or copied). The paper gives only partners and sizes. Ideal mode: our
// closed-form rules, which give the paper's power-of-two sizes and leave a
// retiring node nothing. Keep mode (not in the paper): a block stays where it is while its holder is still
// responsible for its destination, so messages are a few blocks smaller.
#include <algorithm>
#include <stdexcept>

#include "algorithms/families/torus_exchange/torus_exchange.h"

namespace wn::alg {

namespace {

int bit(int v, int i) { return (v >> i) & 1; }
int mask(int p) { return (1 << p) - 1; }

// r = t.c XOR u.c, the relative address in the dimension that moves.
bool ideal_sends(const TorusRole& r, int d, int x, int ux, int uy, int tx, int ty) {
  switch (r.rule) {
    case TorusRule::Exch: {
      // Before the phase-p exchange bits lo..p-1 of r agree; the mirror flips
      // bits 0..p-1 and keeps bit p, so the blocks whose bit p disagrees move.
      const int rel = r.dim == 0 ? (tx ^ ux) : (ty ^ uy), p = r.p;
      return p < d ? bit(rel, p) != bit(rel, p - 1) : bit(rel, d - 1) == 1;
    }
    case TorusRule::Split: {
      // The XM_p half of a concentration phase splits on t's *y* bits: the
      // holder-to-be of the y-half is chosen here, the hand-off follows in y.
      const int p = r.p, a = torus_sg1(p + 1, ux, uy) ? uy : (uy ^ mask(p));
      const int v = (ty ^ a) & mask(p + 1);
      return v != 0 && v != mask(p + 1);
    }
    case TorusRule::Handoff:  // the retiring SG_{p+1}(2) node hands on everything
      return !torus_sg1(r.p + 1, ux, uy);
    case TorusRule::Scatter:
      return bit(tx ^ ux, x - r.p) == 1;
    case TorusRule::Extra:  // its data went to SG_p(1) at the hand-off of phase p-1
      return false;
    default:
      return false;
  }
}

using Bits = std::vector<uint64_t>;
bool test(const Bits& b, int i) { return (b[size_t(i) >> 6] >> (i & 63)) & 1; }

// Responsibility, backwards over the steps: R_S(u) = {u}, R_{k-1}(u) =
// R_k(u) united with R_k(v) for every u -> v of step k. Both directions of a
// PAIR count, the empty HANDOFF direction included (leaving it out gives
// 2175 / 14847 instead of 2172 / 14844 for T1.1 at d = 4 / 5); a one-way
// sender -> receiver. resp[k][u]: responsibility after step k (k = 0: before).
std::vector<std::vector<Bits>> responsibility(const TorusPlan& plan, int n) {
  const size_t S = plan.steps.size(), w = (size_t(n) + 63) / 64;
  std::vector<std::vector<Bits>> resp(S + 1, std::vector<Bits>(size_t(n), Bits(w, 0)));
  for (int u = 0; u < n; ++u) resp[S][size_t(u)][size_t(u) >> 6] |= 1ull << (u & 63);
  for (size_t k = S; k-- > 0;) {
    for (int u = 0; u < n; ++u) {
      Bits& to = resp[k][size_t(u)];
      to = resp[k + 1][size_t(u)];
      const TorusRole& r = plan.steps[k].roles[size_t(u)];
      if (r.rule == TorusRule::Idle || r.rule == TorusRule::Recv) continue;
      const Bits& from = resp[k + 1][size_t(r.partner)];
      for (size_t i = 0; i < w; ++i) to[i] |= from[i];
    }
  }
  return resp;
}

}  // namespace

std::vector<uint16_t> torus_move_blocks(const TorusPlan& plan, const Topology& topo, TorusMode mode,
                                        const TorusStepFn& on_step) {
  const int n = topo.nodes();
  const size_t S = plan.steps.size();
  if (S >= kTorusNever) throw std::logic_error("torus-exchange: too many steps");
  std::vector<int> cx(static_cast<size_t>(n)), cy(static_cast<size_t>(n));
  for (int u = 0; u < n; ++u) {
    const auto c = topo.coords(u);
    cx[size_t(u)] = c[0];
    cy[size_t(u)] = c[1];
  }
  std::vector<std::vector<Bits>> resp;
  if (mode == TorusMode::Keep) resp = responsibility(plan, n);
  const uint32_t N = uint32_t(n);
  std::vector<std::vector<uint32_t>> held(static_cast<size_t>(n));
  for (uint32_t u = 0; u < N; ++u)
    for (uint32_t t = 0; t < N; ++t) held[u].push_back(t * N + u);  // already sorted by key
  std::vector<uint16_t> last_move(size_t(N) * N, kTorusNever);
  std::vector<std::vector<uint32_t>> out(static_cast<size_t>(n));
  std::vector<char> sel(static_cast<size_t>(n));
  for (size_t k = 0; k < S; ++k) {
    const TorusStep& st = plan.steps[k];
    for (auto& keys : out) keys.clear();
    std::vector<int> from(size_t(n), -1);
    for (int u = 0; u < n; ++u) {
      const TorusRole& r = st.roles[size_t(u)];
      if (r.rule == TorusRule::Idle || r.rule == TorusRule::Recv) continue;
      for (int t = 0; t < n; ++t)
        sel[size_t(t)] =
            mode == TorusMode::Ideal
                ? ideal_sends(r, plan.d, plan.x, cx[size_t(u)], cy[size_t(u)], cx[size_t(t)], cy[size_t(t)])
                : test(resp[k + 1][size_t(r.partner)], t) && !test(resp[k + 1][size_t(u)], t);
      std::vector<uint32_t> keep;
      for (uint32_t key : held[size_t(u)]) (sel[key / N] ? out[size_t(u)] : keep).push_back(key);
      if (out[size_t(u)].empty()) continue;  // an empty message would only add a start-up: not sent
      held[size_t(u)].swap(keep);
      if (from[size_t(r.partner)] != -1)
        throw std::logic_error("torus-exchange: two messages to one node in " + st.label);
      from[size_t(r.partner)] = u;
    }
    for (int v = 0; v < n; ++v) {
      if (from[size_t(v)] < 0) continue;
      const auto& in = out[size_t(from[size_t(v)])];
      for (uint32_t key : in) last_move[key] = uint16_t(k);
      std::vector<uint32_t> merged(held[size_t(v)].size() + in.size());
      std::merge(held[size_t(v)].begin(), held[size_t(v)].end(), in.begin(), in.end(), merged.begin());
      held[size_t(v)].swap(merged);
    }
    if (on_step) on_step(k, out);
  }
  // Complete exchange: node u holds exactly {B[s -> u]} (a bug here is a bug in the rules).
  for (uint32_t u = 0; u < N; ++u) {
    bool ok = held[u].size() == N;
    for (uint32_t i = 0; ok && i < N; ++i) ok = held[u][i] == u * N + i;
    if (!ok) throw std::logic_error("torus-exchange: node " + std::to_string(u) + " does not end with its N blocks");
  }
  return last_move;
}

}  // namespace wn::alg
