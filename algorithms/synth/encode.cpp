// The incremental CNF of schedule synthesis (encode.h): variables per step,
// channel conflicts as overlapping runs, holder counts, symmetry breaking.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <tuple>

#include "algorithms/registry.h"
#include "algorithms/synth/encode.h"

namespace wn::alg::synth::detail {

void Budget::check() const {
  if (expired()) throw OutOfTime{};
}

namespace {

// This process's resident memory now (0 when /proc is not there: the estimate alone decides).
uint64_t resident_bytes() {
  unsigned long long size = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  const int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  const long page = sysconf(_SC_PAGE_SIZE);
  return got == 2 && page > 0 ? uint64_t(resident) * uint64_t(page) : 0;
}

using Clock = std::chrono::steady_clock;

class Deadline : public CaDiCaL::Terminator {
 public:
  explicit Deadline(double s)
      : end_(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s))) {}
  bool terminate() override { return Clock::now() >= end_; }

 private:
  Clock::time_point end_;
};

}  // namespace

void Encoder::add_layer() {
  const int t = int(h_.size()), n = net_.n;
  const auto& prev = h_[size_t(t - 1)];
  std::vector<int> h(size_t(n), -true_);
  for (int v = 0; v < n; ++v)
    if (!net_.avoided[size_t(v)] && net_.level[size_t(v)] <= t) h[size_t(v)] = prev[size_t(v)] == true_ ? true_ : var();
  // Per node, the channels next to it that carry one of its sends / its receive: every channel
  // carries at most one message, so "at most K sends" is "at most K of its (<= 2d) channels" — a
  // few clauses instead of a counter over all N candidate receivers.
  std::vector<int> near_from(net_.channels, 0), near_to(net_.channels, 0);
  std::vector<std::vector<int>> in(static_cast<size_t>(n)), out(static_cast<size_t>(n)), users(net_.segs.size());
  std::vector<std::pair<uint32_t, int>> xs;
  for (uint32_t i = 0; i < net_.edges.size(); ++i) {
    if ((i & 4095) == 0) budget_.check();
    const Edge& e = net_.edges[i];
    if (prev[size_t(e.from)] == -true_ || prev[size_t(e.to)] == true_) continue;  // cannot send / holds already
    const int xv = var();
    xs.push_back({i, xv});
    if (prev[size_t(e.from)] != true_) clause({-xv, prev[size_t(e.from)]});
    clause({-xv, -prev[size_t(e.to)]});  // nobody receives twice
    clause({-xv, h[size_t(e.to)]});
    int& f = near_from[e.at_from];
    if (!f) f = var(), out[size_t(e.from)].push_back(f);
    clause({-xv, f});
    int& r = near_to[e.at_to];
    if (!r) r = var(), in[size_t(e.to)].push_back(r);
    clause({-xv, r});
    for (uint32_t s : e.segs) users[s].push_back(xv);
  }
  // The receive clause wants the senders: a receiver's messages by receiver.
  std::vector<std::vector<int>> got(static_cast<size_t>(n));
  for (const auto& [i, xv] : xs) got[size_t(net_.edges[i].to)].push_back(xv);
  for (int v = 0; v < n; ++v) {
    at_most(in[size_t(v)], 1);
    at_most(out[size_t(v)], req_.ports);
    if (h[size_t(v)] == true_ || h[size_t(v)] == -true_) continue;
    if (prev[size_t(v)] != -true_) clause({-prev[size_t(v)], h[size_t(v)]});
    std::vector<int> why = {-h[size_t(v)]};  // a holder held it before or received it now
    if (prev[size_t(v)] != -true_) why.push_back(prev[size_t(v)]);
    why.insert(why.end(), got[size_t(v)].begin(), got[size_t(v)].end());
    clause(why);
  }
  // Channels: a run carries at most one message; runs of a line neither start at one link nor start
  // inside each other (encode.h).
  std::vector<int> run(net_.segs.size(), 0);
  for (size_t s = 0; s < net_.segs.size(); ++s) {
    if ((s & 4095) == 0) budget_.check();
    if (users[s].empty()) continue;
    at_most(users[s], 1);
    run[s] = var();
    for (int xv : users[s]) clause({-xv, run[s]});
  }
  std::vector<std::vector<std::vector<int>>> by_start(net_.lines.size());
  for (size_t s = 0; s < net_.segs.size(); ++s)
    if (run[s]) {
      const Segment& g = net_.segs[s];
      auto& b = by_start[size_t(g.line)];
      if (b.empty()) b.resize(size_t(net_.lines[size_t(g.line)].size));
      b[size_t(g.start)].push_back(run[s]);
    }
  std::vector<std::vector<int>> st(net_.lines.size());
  for (size_t l = 0; l < by_start.size(); ++l) {
    if (by_start[l].empty()) continue;
    st[l].assign(by_start[l].size(), 0);
    for (size_t p = 0; p < by_start[l].size(); ++p) {
      if (by_start[l][p].empty()) continue;
      at_most(by_start[l][p], 1);
      if (by_start[l][p].size() == 1) {
        st[l][p] = by_start[l][p][0];
        continue;
      }
      st[l][p] = var();
      for (int r : by_start[l][p]) clause({-r, st[l][p]});
    }
  }
  for (size_t s = 0; s < net_.segs.size(); ++s) {
    if (!run[s]) continue;
    const Segment& g = net_.segs[s];
    const Line& line = net_.lines[size_t(g.line)];
    for (int i = 1; i < g.len; ++i) {
      int p = g.start + line.dir * i;
      if (line.ring) p = (p % line.ring + line.ring) % line.ring;
      const int other = st[size_t(g.line)][size_t(p)];
      if (other) clause({-run[s], -other});
    }
  }
  // Holders at most multiply by K+1 per step: a redundant count that prunes early.
  std::vector<int> live;
  for (int v = 0; v < n; ++v)
    if (h[size_t(v)] != -true_) live.push_back(h[size_t(v)]);
  count_.push_back(totalizer(live));
  int64_t most = 1;
  for (int i = 0; i < t && most < net_.live; ++i) most *= req_.ports + 1;
  if (most < int64_t(count_.back().size())) clause({-count_.back()[size_t(most)]});
  // Lex-leader (Crawford et al. 1996) on the holder sets, step by step: of a schedule and its
  // mirror images, only the lexicographically smallest remains.
  for (size_t k = 0; k < net_.syms.size(); ++k)
    for (int v = 0; v < n; ++v) {
      const int a = h[size_t(v)], b = h[size_t(net_.syms[k][size_t(v)])];
      if (a == b) continue;
      int& eq = lex_[k];
      clause({-eq, -a, b});
      const int next = var();
      clause({-eq, a, b, next});
      clause({-eq, -a, -b, next});
      eq = next;
    }
  h_.push_back(std::move(h));
  x_.push_back(std::move(xs));
}

Attempt Encoder::solve(int steps, std::vector<Message>* found, int max_total_hops) {
  const auto t0 = Clock::now();
  Attempt a;
  a.steps = steps;
  a.max_total_hops = max_total_hops;
  auto stopped = [&](const char* why) {
    a.result = why;
    a.vars = uint64_t(vars_);
    a.clauses = clauses_;
    a.encode_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return a;
  };
  if (broken_) return stopped("timeout");
  int done = 0;
  try {
    while (int(h_.size()) <= steps) {
      // The next step's encoding must fit beside what the process holds already.
      const uint64_t now = resident_bytes();
      if (now + layer_bytes_ > node_memory_limit_bytes()) {
        a.memory_bytes = now + layer_bytes_;
        a.memory_limit = node_memory_limit_bytes();
        return stopped("memory");
      }
      add_layer();
    }
    if (int(done_.size()) <= steps) done_.resize(size_t(steps) + 1, 0);
    done = done_[size_t(steps)];
    if (!done) {
      done = done_[size_t(steps)] = var();
      for (int v = 0; v < net_.n; ++v)
        if (!net_.avoided[size_t(v)]) clause({-done, h_[size_t(steps)][size_t(v)]});
      // After step t at least ceil(live / (K+1)^(steps-t)) hold: what makes N = (K+1)^steps provable.
      for (int t = 1; t < steps; ++t) {
        int64_t reach = 1;
        for (int i = t; i < steps && reach < net_.live; ++i) reach *= req_.ports + 1;
        const int64_t at_least = (net_.live + reach - 1) / reach;
        if (at_least > 1) clause({-done, count_[size_t(t)][size_t(at_least - 1)]});
      }
    }
    if (max_total_hops >= 0) {  // each node receives once: y[v][d] "v's message travelled more than d hops"
      // The counter below has about |y| x bound auxiliary variables and twice as many clauses: not
      // built when they would not fit (~300 bytes per variable with its clauses in the solver).
      std::vector<int> longest(size_t(net_.n), 0);
      for (int t = 1; t <= steps; ++t)
        for (const auto& [i, xv] : x_[size_t(t)])
          longest[size_t(net_.edges[i].to)] = std::max(longest[size_t(net_.edges[i].to)], net_.edges[i].hops);
      uint64_t ys = 0;
      for (int h : longest) ys += uint64_t(h);
      const uint64_t need = ys * uint64_t(max_total_hops) * 300, now = resident_bytes();
      if (now + need > node_memory_limit_bytes()) {
        a.memory_bytes = now + need;
        a.memory_limit = node_memory_limit_bytes();
        return stopped("memory");
      }
      std::vector<std::vector<int>> y(size_t(net_.n));
      std::vector<int> all;
      for (int t = 1; t <= steps; ++t)
        for (const auto& [i, xv] : x_[size_t(t)]) {
          const Edge& e = net_.edges[i];
          auto& yv = y[size_t(e.to)];
          while (int(yv.size()) < e.hops) yv.push_back(var()), all.push_back(yv.back());
          for (int d = 0; d < e.hops; ++d) clause({-xv, yv[size_t(d)]});
        }
      budget_.check();
      at_most(all, max_total_hops);
    }
  } catch (const OutOfTime&) {
    broken_ = true;  // a half-built encoding: nothing more can be asked of this solver
    return stopped("timeout");
  }
  const double encode_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (budget_.expired()) return stopped("timeout");
  Deadline deadline(budget_.remaining());
  s_.connect_terminator(&deadline);
  s_.assume(done);
  const auto t1 = Clock::now();
  const int res = s_.solve();
  s_.disconnect_terminator();
  a.result = res == 10 ? "SAT" : res == 20 ? "UNSAT" : "timeout";
  a.vars = uint64_t(vars_);
  a.clauses = clauses_;
  a.seconds = std::chrono::duration<double>(Clock::now() - t1).count();
  a.encode_seconds = encode_s;
  if (res == 10 && found) {
    found->clear();
    for (int t = 1; t <= steps; ++t)
      for (const auto& [i, xv] : x_[size_t(t)])
        if (s_.val(xv) > 0) {
          const Edge& e = net_.edges[i];
          // Reduce: the broadcast's step t is the reduction's step steps - t, child -> parent.
          if (req_.collective == Collective::Broadcast)
            found->push_back({t - 1, e.from, e.to});
          else
            found->push_back({steps - t, e.to, e.from});
        }
    std::sort(found->begin(), found->end(), [](const Message& p, const Message& q) {
      return std::tie(p.step, p.from, p.to) < std::tie(q.step, q.from, q.to);
    });
  }
  return a;
}

}  // namespace wn::alg::synth::detail
