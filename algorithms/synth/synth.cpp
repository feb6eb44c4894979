#include "algorithms/synth/synth.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <tuple>

#include "algorithms/synth/encode.h"
#include "systemc/core/config_error.h"

namespace wn::alg::synth {

namespace {

using Clock = std::chrono::steady_clock;

int total_hops(const Topology& topo, const std::vector<Message>& ms) {
  int h = 0;
  for (const Message& m : ms) h += topo.hops(m.from, m.to);
  return h;
}

// Among schedules with r.steps steps: the fewest hops summed over the messages (the EDN top step's
// objective), by lowering the bound until UNSAT (or a timeout). A fresh solver: the bound is added
// for good, and every lower bound only tightens it.
void minimise_hops(const Topology& topo, const Request& req, const detail::Net& net, const detail::Budget& budget,
                   uint64_t layer_bytes, Result& r) {
  detail::Encoder enc(net, req, budget, layer_bytes);
  for (int bound = total_hops(topo, r.messages) - 1; bound >= 0; --bound) {
    std::vector<Message> better;
    r.attempts.push_back(enc.solve(r.steps, &better, bound));
    if (r.attempts.back().result != "SAT") {
      r.hops_optimal = r.attempts.back().result == "UNSAT";
      break;
    }
    r.messages = std::move(better);
    bound = total_hops(topo, r.messages);  // the loop's -- tries one fewer than the new total
  }
  r.total_hops = total_hops(topo, r.messages);
}

std::vector<bool> avoided_set(const Topology& topo, const std::vector<int>& avoid, int source) {
  const int n = topo.nodes();
  std::vector<bool> avoided(size_t(n), false);
  for (int v : avoid) {
    if (v < 0 || v >= n) throw ConfigError(Param::avoid, fmt::format("{} is not a node; allowed: 0..{}", v, n - 1));
    if (v == source)
      throw ConfigError(Param::avoid, fmt::format("{} is the root; allowed: nodes other than the root", v));
    avoided[size_t(v)] = true;
  }
  return avoided;
}

}  // namespace

Result synthesize(const Topology& topo, const Request& req) {
  const int n = topo.nodes();
  if (req.source < 0 || req.source >= n)
    throw ConfigError(Param::source, fmt::format("{} is not a node; allowed: 0..{}", req.source, n - 1));
  if (req.ports < 1) throw ConfigError(Param::ports, "fewer than one send per step; allowed: one, all or K >= 1");
  const std::vector<bool> avoided = avoided_set(topo, req.avoid, req.source);
  const int live = n - int(std::count(avoided.begin(), avoided.end(), true));
  if (req.steps >= live && live > 1)
    throw ConfigError(Param::steps, fmt::format("{} steps for {} nodes; allowed: 1..{}", req.steps, live, live - 1));
  // Nothing is built before the estimate says it fits; from here on --timeout bounds every stage.
  check_memory(topo, req);
  const uint64_t layer_bytes = estimate_memory(topo, req).layer_bytes;
  const detail::Budget budget(req.timeout_s);
  const auto t0 = Clock::now();
  Result r;
  detail::Net net;
  try {
    net = detail::build_net(topo, req, avoided, req.symmetry, budget);
  } catch (const detail::OutOfTime&) {
    r.build_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.build_timed_out = true;
    return r;
  }
  r.build_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.symmetries = int(net.syms.size());
  r.candidates = net.edges.size();
  for (int64_t p = 1; p < live; p *= req.ports + 1) ++r.lower_bound;
  // A node d messages away (--max-hops, --avoid) needs d steps whatever the ports.
  r.lower_bound = std::max(r.lower_bound, *std::max_element(net.level.begin(), net.level.end()));
  std::unique_ptr<detail::Encoder> enc;
  auto attempt = [&](int steps) {
    if (!enc || !req.incremental) {
      enc.reset();  // the old solver's memory first
      enc = std::make_unique<detail::Encoder>(net, req, budget, layer_bytes);
    }
    r.attempts.push_back(enc->solve(steps, &r.messages));
    return r.attempts.back().result;
  };
  auto hops = [&] {
    enc.reset();  // a fresh solver for the hop bound: the search's is freed first
    minimise_hops(topo, req, net, budget, layer_bytes, r);
  };
  if (req.steps > 0) {
    r.found = attempt(req.steps) == "SAT";
    r.steps = req.steps;
    r.optimal = r.found && req.steps == std::max(1, r.lower_bound);
    if (r.found && req.min_total_hops) hops();
    r.total_hops = total_hops(topo, r.messages);
    return r;
  }
  // The greedy schedule bounds the search from above: the solver only has to beat it.
  std::vector<Message> greedy;
  int greedy_steps = 0;
  if (req.heuristic) {
    const auto g0 = Clock::now();
    // At most 5 s, and at most half of what the deadline leaves: the solver gets the rest.
    if (detail::greedy(net, req, budget, std::min(budget.remaining() / 2, 5.0), &greedy, &greedy_steps)) {
      Attempt a;
      a.steps = greedy_steps;
      a.result = "greedy";
      a.seconds = std::chrono::duration<double>(Clock::now() - g0).count();
      r.attempts.push_back(a);
    }
  }
  bool proven = true;  // every smaller N UNSAT so far
  const int last = greedy_steps ? greedy_steps - 1 : std::max(1, live - 1);
  for (int N = std::max(1, r.lower_bound); N <= last; ++N) {
    const std::string res = attempt(N);
    if (res == "SAT") {
      r.found = true;
      r.steps = N;
      r.optimal = proven;
      break;
    }
    if (res == "timeout" || res == "memory") proven = false;
    // A larger step count needs more memory and more time: neither is left.
    if (res == "memory" || budget.expired()) break;
  }
  if (!r.found && greedy_steps) {
    r.found = true;
    r.steps = greedy_steps;
    r.optimal = proven;
    r.messages = greedy;
  }
  if (r.found && req.min_total_hops) hops();
  r.total_hops = total_hops(topo, r.messages);
  return r;
}

Result mapped(const Result& r, const std::vector<int>& sigma) {
  Result m = r;
  for (Message& x : m.messages) x.from = sigma[size_t(x.from)], x.to = sigma[size_t(x.to)];
  std::sort(m.messages.begin(), m.messages.end(), [](const Message& p, const Message& q) {
    return std::tie(p.step, p.from, p.to) < std::tie(q.step, q.from, q.to);
  });
  return m;
}

std::vector<std::vector<int>> route_symmetries(const Topology& topo, const std::vector<int>& avoid) {
  return detail::route_symmetries(topo, avoided_set(topo, avoid, -1), -1);
}

}  // namespace wn::alg::synth
