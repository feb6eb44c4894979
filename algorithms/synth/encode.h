// Internals of schedule synthesis (synth.h): the candidate messages with their
// routes cut into segments (routes.cpp) and the incremental CNF (encode.cpp).
//
// Why segments: "at most one message per channel per step" over every channel
// costs a cardinality constraint per (message, channel) pair, N^2 x diameter per
// step (12 M clauses for 16x16 in 5 steps). A dimension-order route is a few
// straight runs, one per dimension; two routes share a channel exactly when
// two of their runs on the same line overlap, and two runs on a line overlap
// exactly when they start at the same link or one starts inside the other. So
// a run is a variable, "some run starts at link p" is a variable, and a run of
// length L forbids starts at its L-1 inner links: per step N^2 x dims
// memberships plus O(lines x n^3) small clauses.
#pragma once
#include <cadical.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "algorithms/synth/synth.h"

namespace wn::alg::synth::detail {

// The deadline of a whole synthesis (Request::timeout_s from its start): every stage checks it,
// building the routes and the encoding included, so --timeout bounds the whole search.
class Budget {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Budget(double seconds)
      : end_(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))) {}
  bool expired() const { return Clock::now() >= end_; }
  double remaining() const { return std::max(0.0, std::chrono::duration<double>(end_ - Clock::now()).count()); }
  // Throws OutOfTime when the deadline has passed (the stages call it every few thousand items).
  void check() const;

 private:
  Clock::time_point end_;
};
struct OutOfTime {};

struct Segment {
  int line = 0;   // the straight chain of channels (one dimension, one direction, fixed other coordinates)
  int start = 0;  // position of its first channel on the line
  int len = 0;    // channels
};

struct Line {
  int dir = 1;   // +1 / -1: the direction positions advance along the route
  int ring = 0;  // positions modulo this (torus rings); 0: an open line
  int size = 0;  // positions 0..size-1
};

struct Edge {
  int from = 0, to = 0;  // in the broadcast's direction (a reduction runs it backwards)
  int hops = 0;
  std::vector<uint32_t> segs;
  uint32_t at_from = 0, at_to = 0;  // the channels of the route next to `from` and to `to`
  std::vector<uint32_t> channels;   // every channel of the route (the greedy search's conflict test)
};

struct Net {
  int n = 0, live = 0, source = 0;
  std::vector<bool> avoided;
  std::vector<Edge> edges;
  std::vector<Segment> segs;
  std::vector<Line> lines;
  uint32_t channels = 0;
  std::vector<int32_t> edge_of;        // u * n + v -> index in edges, -1: not a candidate
  std::vector<uint16_t> dist;          // u * n + v -> hops of the route
  std::vector<int> level;              // fewest messages from the source to v (-1: unreachable)
  std::vector<std::vector<int>> syms;  // node permutations fixing the source and every route (not the identity)
};

// Throws ConfigError when a live node cannot be reached under --max-hops / --avoid, OutOfTime
// when `budget` runs out first.
Net build_net(const Topology& topo, const Request& req, const std::vector<bool>& avoided, bool symmetries,
              const Budget& budget);

// Route-preserving node permutations of `topo` (reflections of the dimensions; translations of a
// torus), each with the avoided set invariant: the maps under which one root's schedule is another's.
// `fixing` >= 0: only those that fix that node.
std::vector<std::vector<int>> route_symmetries(const Topology& topo, const std::vector<bool>& avoided, int fixing);

// A randomized greedy search (greedy.cpp): a valid schedule quickly, the upper bound the solver
// then tries to beat. Restarts until `budget_s`; the fewest steps found, or false.
// Stops at `budget_s` (after at least 3 tries) and at the synthesis's deadline (even before).
bool greedy(const Net& net, const Request& req, const Budget& budget, double budget_s, std::vector<Message>* out,
            int* steps);

// One solver for a growing number of steps: layer t adds the step-t variables; solving for S
// steps assumes "everybody holds after step S" (an activation literal), so what the solver learnt
// proving S - 1 impossible is kept for S.
class Encoder {
 public:
  // `layer_bytes`: the estimated host memory of one more step (estimate_memory); a step whose
  // encoding would take the process past the host limit is not built (the attempt is "memory").
  Encoder(const Net& net, const Request& req, const Budget& budget, uint64_t layer_bytes);
  // max_total_hops >= 0 adds "at most that many hops summed over the messages" for good. Solving
  // stops at the budget's deadline ("timeout"); an encoding cut short by it leaves the encoder
  // unusable (broken()).
  Attempt solve(int steps, std::vector<Message>* found, int max_total_hops = -1);
  bool broken() const { return broken_; }

 private:
  void add_layer();
  int var() { return ++vars_; }
  void clause(std::initializer_list<int> lits);
  void clause(const std::vector<int>& lits);
  void at_most(const std::vector<int>& x, int k);
  std::vector<int> totalizer(const std::vector<int>& x);  // out[j] <-> at least j+1 of x true

  const Net& net_;
  const Request& req_;
  const Budget& budget_;
  uint64_t layer_bytes_ = 0;
  bool broken_ = false;
  CaDiCaL::Solver s_;
  int vars_ = 0;
  uint64_t clauses_ = 0;
  int true_ = 0;
  std::vector<std::vector<int>> h_;                       // h_[t][v]: v holds after step t
  std::vector<std::vector<std::pair<uint32_t, int>>> x_;  // x_[t]: (edge, var)
  std::vector<std::vector<int>> count_;                   // count_[t][j]: at least j+1 holders after t
  std::vector<int> done_;                                 // done_[S]: activation of "S steps"
  std::vector<int> lex_;                                  // per symmetry: "equal so far"
};

}  // namespace wn::alg::synth::detail
