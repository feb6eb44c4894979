#include "algorithms/synth/synth.h"

#include <cadical.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "systemc/core/config_error.h"

namespace wn::alg::synth {

namespace {

using Clock = std::chrono::steady_clock;

// Clauses into CaDiCaL, counted; cardinality constraints as sequential counters (Sinz 2005).
class Cnf {
 public:
  explicit Cnf(CaDiCaL::Solver& s) : s_(s) {}
  int var() { return ++vars_; }
  void clause(std::initializer_list<int> lits) { clause(std::vector<int>(lits)); }
  void clause(const std::vector<int>& lits) {
    for (int l : lits) s_.add(l);
    s_.add(0);
    ++clauses_;
  }
  void at_most(const std::vector<int>& x, int k) {
    const size_t n = x.size();
    if (n <= size_t(k)) return;
    if (k == 1 && n <= 5) {  // pairwise is smaller here
      for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) clause({-x[i], -x[j]});
      return;
    }
    std::vector<std::vector<int>> r(n - 1, std::vector<int>(size_t(k)));
    for (auto& row : r)
      for (int& v : row) v = var();
    clause({-x[0], r[0][0]});
    for (int j = 1; j < k; ++j) clause({-r[0][size_t(j)]});
    for (size_t i = 1; i + 1 < n; ++i) {
      clause({-x[i], r[i][0]});
      clause({-r[i - 1][0], r[i][0]});
      for (int j = 1; j < k; ++j) {
        clause({-x[i], -r[i - 1][size_t(j - 1)], r[i][size_t(j)]});
        clause({-r[i - 1][size_t(j)], r[i][size_t(j)]});
      }
      clause({-x[i], -r[i - 1][size_t(k - 1)]});
    }
    clause({-x[n - 1], -r[n - 2][size_t(k - 1)]});
  }
  uint64_t vars() const { return uint64_t(vars_); }
  uint64_t clauses() const { return clauses_; }

 private:
  CaDiCaL::Solver& s_;
  int vars_ = 0;
  uint64_t clauses_ = 0;
};

class Deadline : public CaDiCaL::Terminator {
 public:
  explicit Deadline(double s) : end_(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s))) {}
  bool terminate() override { return Clock::now() >= end_; }

 private:
  Clock::time_point end_;
};

struct Edge {
  int from, to;
  std::vector<size_t> links;  // channel ids of the route that decides conflicts
  int hops = 0;               // its length
};

std::vector<Edge> edges(const Topology& topo, const Request& req, const std::vector<bool>& avoided) {
  std::map<Topology::Link, size_t> id;
  std::vector<Edge> out;
  for (int u = 0; u < topo.nodes(); ++u)
    for (int v = 0; v < topo.nodes(); ++v) {
      if (u == v || avoided[size_t(u)] || avoided[size_t(v)] || v == req.source) continue;
      // Broadcast: u sends to v; reduce: v sends its partial result to u (the same tree, reversed).
      const int a = req.collective == Collective::Broadcast ? u : v, b = a == u ? v : u;
      if (req.max_hops && topo.hops(a, b) > req.max_hops) continue;
      bool through = false;
      for (int r : topo.path(a, b)) through = through || avoided[size_t(r)];
      if (through) continue;
      Edge e{u, v, {}, topo.hops(a, b)};
      for (const auto& l : topo.links(a, b)) e.links.push_back(id.emplace(l, id.size()).first->second);
      out.push_back(std::move(e));
    }
  return out;
}

// One CNF for exactly `steps` steps; the messages when SAT.
// max_total_hops >= 0: also at most that many hops summed over the messages (each node receives
// once, so the sum is over receivers: y[v][d] = "v's message travelled d hops or more").
Attempt solve(const Topology& topo, const Request& req, const std::vector<Edge>& es, const std::vector<bool>& avoided,
              int steps, std::vector<Message>* found, int max_total_hops = -1) {
  CaDiCaL::Solver s;
  Cnf cnf(s);
  const int n = topo.nodes();
  // h[t][v], t = 1..steps (t = 0 is the constant "only the source").
  std::vector<std::vector<int>> h(size_t(steps) + 1, std::vector<int>(size_t(n), 0));
  for (int t = 1; t <= steps; ++t)
    for (int v = 0; v < n; ++v)
      if (!avoided[size_t(v)]) h[size_t(t)][size_t(v)] = cnf.var();
  auto held = [&](int t, int v) { return t == 0 ? (v == req.source ? 1 : -1) : 0; };  // constant at t = 0
  std::vector<std::vector<std::pair<size_t, int>>> x(size_t(steps) + 1);        // (edge, var)
  size_t channels = 0;
  for (const Edge& e : es)
    for (size_t l : e.links) channels = std::max(channels, l + 1);
  for (int t = 1; t <= steps; ++t) {
    std::vector<std::vector<int>> in(static_cast<size_t>(n)), out(static_cast<size_t>(n)), on(channels);
    for (size_t i = 0; i < es.size(); ++i) {
      const Edge& e = es[i];
      if (t == 1 && e.from != req.source) continue;
      const int xv = cnf.var();
      x[size_t(t)].push_back({i, xv});
      if (t > 1) {
        cnf.clause({-xv, h[size_t(t - 1)][size_t(e.from)]});
        cnf.clause({-xv, -h[size_t(t - 1)][size_t(e.to)]});
      }
      cnf.clause({-xv, h[size_t(t)][size_t(e.to)]});
      in[size_t(e.to)].push_back(xv);
      out[size_t(e.from)].push_back(xv);
      for (size_t l : e.links) on[l].push_back(xv);
    }
    for (int v = 0; v < n; ++v) {
      if (avoided[size_t(v)]) continue;
      const int ht = h[size_t(t)][size_t(v)];
      cnf.at_most(in[size_t(v)], 1);
      cnf.at_most(out[size_t(v)], req.ports);
      if (t == 1 && held(0, v) > 0) {  // the root holds it from the start
        cnf.clause({ht});
        continue;
      }
      if (t > 1) cnf.clause({-h[size_t(t - 1)][size_t(v)], ht});
      std::vector<int> why = {-ht};  // a holder held it before or received it now
      if (t > 1) why.push_back(h[size_t(t - 1)][size_t(v)]);
      for (int xv : in[size_t(v)]) why.push_back(xv);
      cnf.clause(why);
    }
    for (const auto& c : on) cnf.at_most(c, 1);
  }
  for (int v = 0; v < n; ++v)
    if (!avoided[size_t(v)]) cnf.clause({h[size_t(steps)][size_t(v)]});
  // Redundant but strong: holders can at most multiply by K+1 per step, so after step t at least
  // ceil(live / (K+1)^(steps-t)) nodes must hold the message (tight cases: N = (K+1)^steps).
  int live = 0;
  for (int v = 0; v < n; ++v) live += !avoided[size_t(v)];
  for (int t = 1; t < steps; ++t) {
    int64_t reach = 1;
    for (int i = t; i < steps && reach < live; ++i) reach *= req.ports + 1;
    const int at_least = int((live + reach - 1) / reach);
    if (at_least <= 1) continue;
    std::vector<int> missing;
    for (int v = 0; v < n; ++v)
      if (!avoided[size_t(v)]) missing.push_back(-h[size_t(t)][size_t(v)]);
    cnf.at_most(missing, live - at_least);
  }
  if (max_total_hops >= 0) {
    std::vector<std::vector<int>> y(static_cast<size_t>(n));  // y[v][d-1]
    std::vector<int> all;
    for (int t = 1; t <= steps; ++t)
      for (const auto& [i, xv] : x[size_t(t)]) {
        auto& yv = y[size_t(es[i].to)];
        while (int(yv.size()) < es[i].hops) yv.push_back(cnf.var()), all.push_back(yv.back());
        for (int d = 0; d < es[i].hops; ++d) cnf.clause({-xv, yv[size_t(d)]});
      }
    cnf.at_most(all, std::max(0, max_total_hops));
    if (max_total_hops == 0)
      for (int l : all) cnf.clause({-l});
  }
  Deadline deadline(req.timeout_s);
  s.connect_terminator(&deadline);
  const auto t0 = Clock::now();
  const int res = s.solve();
  s.disconnect_terminator();
  Attempt a{steps, res == 10 ? "SAT" : res == 20 ? "UNSAT" : "timeout", cnf.vars(), cnf.clauses(),
            std::chrono::duration<double>(Clock::now() - t0).count(), max_total_hops};
  if (res == 10 && found) {
    found->clear();
    for (int t = 1; t <= steps; ++t)
      for (const auto& [i, xv] : x[size_t(t)])
        if (s.val(xv) > 0) {
          const Edge& e = es[i];
          // Reduce: the broadcast's step t is the reduction's step steps - t, child -> parent.
          if (req.collective == Collective::Broadcast) found->push_back({t - 1, e.from, e.to});
          else found->push_back({steps - t, e.to, e.from});
        }
    std::sort(found->begin(), found->end(),
              [](const Message& a, const Message& b) { return std::tie(a.step, a.from, a.to) < std::tie(b.step, b.from, b.to); });
  }
  return a;
}

int total_hops(const Topology& topo, const std::vector<Message>& ms) {
  int h = 0;
  for (const Message& m : ms) h += topo.hops(m.from, m.to);
  return h;
}

// Among schedules with r.steps steps: the fewest hops summed over the messages (the EDN top step's
// objective), by lowering the bound until UNSAT (or a timeout).
void minimise_hops(const Topology& topo, const Request& req, const std::vector<Edge>& es,
                   const std::vector<bool>& avoided, Result& r) {
  for (int bound = total_hops(topo, r.messages) - 1; bound >= 0; --bound) {
    std::vector<Message> better;
    r.attempts.push_back(solve(topo, req, es, avoided, r.steps, &better, bound));
    if (r.attempts.back().result != "SAT") {
      r.hops_optimal = r.attempts.back().result == "UNSAT";
      break;
    }
    r.messages = std::move(better);
    bound = total_hops(topo, r.messages);  // the loop's -- tries one fewer than the new total
  }
  r.total_hops = total_hops(topo, r.messages);
}

}  // namespace

Result synthesize(const Topology& topo, const Request& req) {
  const int n = topo.nodes();
  if (req.source < 0 || req.source >= n)
    throw ConfigError("--source", fmt::format("{} is not a node; allowed: 0..{}", req.source, n - 1));
  if (req.ports < 1) throw ConfigError("--ports", "fewer than one send per step; allowed: one, all or K >= 1");
  std::vector<bool> avoided(size_t(n), false);
  for (int v : req.avoid) {
    if (v < 0 || v >= n) throw ConfigError("--avoid", fmt::format("{} is not a node; allowed: 0..{}", v, n - 1));
    if (v == req.source)
      throw ConfigError("--avoid", fmt::format("{} is the root; allowed: nodes other than the root", v));
    avoided[size_t(v)] = true;
  }
  const int live = n - int(std::count(avoided.begin(), avoided.end(), true));
  Result r;
  for (int64_t p = 1; p < live; p *= req.ports + 1) ++r.lower_bound;
  if (req.steps > live)
    throw ConfigError("--steps", fmt::format("{} steps for {} nodes; allowed: 1..{}", req.steps, live, live - 1));
  const std::vector<Edge> es = edges(topo, req, avoided);
  if (req.steps > 0) {
    r.attempts.push_back(solve(topo, req, es, avoided, req.steps, &r.messages));
    r.found = r.attempts.back().result == "SAT";
    r.steps = req.steps;
    r.optimal = false;
    if (r.found && req.min_total_hops) minimise_hops(topo, req, es, avoided, r);
    r.total_hops = total_hops(topo, r.messages);
    return r;
  }
  bool proven = true;  // every smaller N UNSAT so far
  for (int N = std::max(1, r.lower_bound); N < live; ++N) {
    r.attempts.push_back(solve(topo, req, es, avoided, N, &r.messages));
    const std::string& res = r.attempts.back().result;
    if (res == "SAT") {
      r.found = true;
      r.steps = N;
      r.optimal = proven;
      if (req.min_total_hops) minimise_hops(topo, req, es, avoided, r);
      r.total_hops = total_hops(topo, r.messages);
      return r;
    }
    if (res == "timeout") proven = false;
  }
  return r;
}

}  // namespace wn::alg::synth
