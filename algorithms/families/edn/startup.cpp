// The 2-step startup from any source to the 4 top-level EDNs (Tsai's thesis,
// Ch 3: 2 steps from any source; the rule is ours, deterministic): among step-1 target sets
// S1 (size 2, then 1, then 3) whose XY paths are channel-disjoint, and step-2
// assignments of the remaining tops to holders with channel-disjoint paths,
// prefer one step (a top source reaching the 3 others at once: never on 2^k x 2^k, possible on the
// 5, 6, 7 * 2^k base blocks), then shape (a) (|S1| = 2, the source idle in step 2, each recipient
// forwarding exactly one), then |S1| = 2, then the fewest hops of the two
// steps together, then the lexicographically smallest S1 and step-2 pairs.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

namespace {

int node_of(const Topology& topo, Node n) { return topo.node_at({n.first, n.second}); }
int node_of(const Topology&, int n) { return n; }

// True when the routes of `sends` share no directed channel. `reversed`: the
// messages will travel backwards (to -> from), as a reduction's completion.
template <class Sends>
bool disjoint(const Topology& topo, const Sends& sends, bool reversed, int* hops) {
  std::set<Topology::Link> used;
  for (const auto& [from, to] : sends) {
    const auto links = reversed ? topo.links(node_of(topo, to), node_of(topo, from))
                                : topo.links(node_of(topo, from), node_of(topo, to));
    *hops += int(links.size());
    for (const auto& l : links)
      if (!used.insert(l).second) return false;
  }
  return true;
}

template <class T>
struct Candidate {
  bool one = false, shape_a = false, two = false;
  int hops = 0;
  std::vector<T> s1;
  std::vector<std::pair<T, T>> step2;
  // Smaller is better.
  auto key() const { return std::make_tuple(!one, !shape_a, !two, hops, s1, step2); }
};

// Every assignment of `rest` to `holders` (each remaining top gets one holder).
template <class T, class Sends>
void assignments(const std::vector<T>& rest, const std::vector<T>& holders, size_t i, Sends& cur,
                 std::vector<Sends>& out) {
  if (i == rest.size()) {
    out.push_back(cur);
    return;
  }
  for (const T& h : holders) {
    cur.push_back({h, rest[i]});
    assignments(rest, holders, i + 1, cur, out);
    cur.pop_back();
  }
}

// `cap`: sends per node and step.
template <class T>
BasicStartup<T> startup_of(const Topology& topo, const std::vector<T>& all_tops, T source, bool reversed, int cap) {
  using Sends = std::vector<std::pair<T, T>>;
  std::vector<T> tops;
  for (const T& t : all_tops)
    if (t != source) tops.push_back(t);
  std::sort(tops.begin(), tops.end());
  const int n = int(tops.size());
  bool found = false;
  Candidate<T> best;
  for (int mask = 1; mask < (1 << n); ++mask) {
    const int size = __builtin_popcount(unsigned(mask));
    if (size > cap) continue;
    std::vector<T> s1, rest;
    for (int i = 0; i < n; ++i) (mask >> i & 1 ? s1 : rest).push_back(tops[size_t(i)]);
    Sends step1;
    for (const T& t : s1) step1.push_back({source, t});
    int hops1 = 0;
    if (!disjoint(topo, step1, reversed, &hops1)) continue;
    std::vector<T> holders = {source};
    holders.insert(holders.end(), s1.begin(), s1.end());
    std::vector<Sends> options;
    Sends cur;
    assignments(rest, holders, 0, cur, options);
    for (Sends& step2 : options) {
      int hops2 = 0;
      if (!disjoint(topo, step2, reversed, &hops2)) continue;
      std::sort(step2.begin(), step2.end());
      Candidate<T> c;
      c.one = step2.empty();
      c.two = size == 2;
      bool source_idle = true;
      std::map<T, int> forwards;
      for (const auto& [from, to] : step2) {
        if (from == source) source_idle = false;
        ++forwards[from];
      }
      c.shape_a = c.two && source_idle && forwards.size() == 2 && forwards.begin()->second == 1 &&
                  forwards.rbegin()->second == 1;
      c.hops = hops1 + hops2;
      c.s1 = s1;
      c.step2 = step2;
      if (!found || c.key() < best.key()) best = c, found = true;
    }
  }
  if (!found) throw std::logic_error("EDN startup: no channel-disjoint 2-step startup");
  BasicStartup<T> s;
  for (const T& t : best.s1) s.step1.push_back({source, t});
  s.step2 = best.step2;
  return s;
}

}  // namespace

Startup startup_to(const Topology& topo, const std::vector<Node>& tops, Node source, bool reversed) {
  return startup_of(topo, tops, source, reversed, 3);
}

IdStartup startup_ids(const Topology& topo, const std::vector<int>& tops, int source, int cap) {
  return startup_of(topo, tops, source, false, cap);
}

}  // namespace wn::alg::edn
