// A randomized greedy broadcast (encode.h): in every step each holder in turn
// takes the receiver farthest from every holder and receiver so far whose route
// is still free, up to K each. Far-first spreads the holders, so the last steps
// are short hops that rarely collide. Not optimal: it gives the solver an upper
// bound, and a schedule when the solver cannot find one at that size in time.
#include <algorithm>
#include <chrono>
#include <random>
#include <tuple>

#include "algorithms/synth/encode.h"

namespace wn::alg::synth::detail {

namespace {

// One randomized attempt; the schedule in the broadcast's orientation, or false after `limit` steps.
bool attempt(const Net& net, const Request& req, std::mt19937& rng, int limit, std::vector<Message>* out, int* steps) {
  const size_t n = size_t(net.n);
  std::vector<bool> holds(n, false);
  holds[size_t(net.source)] = true;
  std::vector<int> holders = {net.source}, cover(n, 1 << 30), owner(n, net.source);
  auto covered_by = [&](int w) {  // w's Voronoi cell: the nodes now nearer to w than to any other
    for (size_t v = 0; v < n; ++v)
      if (net.dist[size_t(w) * n + v] < cover[v]) cover[v] = net.dist[size_t(w) * n + v], owner[v] = w;
  };
  covered_by(net.source);
  std::vector<char> busy(net.channels);
  out->clear();
  int have = 1;
  for (int t = 0; t < limit; ++t) {
    std::fill(busy.begin(), busy.end(), 0);
    std::vector<int> got;
    std::vector<bool> taken(n, false);
    std::shuffle(holders.begin(), holders.end(), rng);
    for (int round = 0; round < req.ports; ++round)
      for (int u : holders) {
        int best = -1, best_score = -1;
        for (size_t v = 0; v < n; ++v) {
          if (holds[v] || taken[v]) continue;
          const int32_t e = net.edge_of[size_t(u) * n + v];
          if (e < 0) continue;
          // Own cell first (short routes that cross no other holder's), then the farthest.
          const int score = (owner[v] == u) * (1 << 20) + cover[v] * 64 + int(rng() % 64);
          if (score <= best_score) continue;
          bool free = true;
          for (uint32_t c : net.edges[size_t(e)].channels) free = free && !busy[c];
          if (free) best = int(v), best_score = score;
        }
        if (best < 0) continue;
        for (uint32_t c : net.edges[size_t(net.edge_of[size_t(u) * n + size_t(best)])].channels) busy[c] = 1;
        taken[size_t(best)] = true;
        got.push_back(best);
        covered_by(best);
        const Edge& e = net.edges[size_t(net.edge_of[size_t(u) * n + size_t(best)])];
        out->push_back({t, e.from, e.to});
      }
    for (int v : got) holds[size_t(v)] = true, holders.push_back(v);
    have += int(got.size());
    if (have == net.live) {
      *steps = t + 1;
      return true;
    }
  }
  return false;
}

}  // namespace

bool greedy(const Net& net, const Request& req, const Budget& budget, double budget_s, std::vector<Message>* out,
            int* steps) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                          std::chrono::duration<double>(budget_s));
  std::mt19937 rng(1);  // fixed: the same schedule every run
  bool found = false;
  int limit = net.live;  // every try must beat the best so far
  std::vector<Message> trial;
  for (int tries = 0; tries < 1000 && !budget.expired() && (tries < 3 || std::chrono::steady_clock::now() < end);
       ++tries) {
    int s = 0;
    if (attempt(net, req, rng, limit - 1 + !found, &trial, &s)) {
      found = true;
      *steps = s;
      limit = s;
      *out = trial;
    }
  }
  if (found && req.collective == Collective::Reduce)  // the broadcast tree reversed in time, child -> parent
    for (Message& m : *out) m = {*steps - 1 - m.step, m.to, m.from};
  std::sort(out->begin(), out->end(), [](const Message& p, const Message& q) {
    return std::tie(p.step, p.from, p.to) < std::tie(q.step, q.from, q.to);
  });
  return found;
}

}  // namespace wn::alg::synth::detail
