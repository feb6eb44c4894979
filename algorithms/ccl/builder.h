// Internal to the ccl family: a schedule assembled message by message. Every
// message is one send in the sender's step `tag` and one receive in the
// receiver's step `tag` (one `send-receive` per rank per step: the paper's §III primitive, §IV.A's one-port step);
// local operations attach to a rank's step before its sends or after its receives.
#pragma once
#include <map>
#include <vector>

#include "algorithms/ccl/ccl.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

class Builder {
 public:
  explicit Builder(int n) : steps_(size_t(n)) {}
  int n() const { return int(steps_.size()); }
  void msg(int from, int to, uint32_t tag, std::vector<Range> src, std::vector<Range> dst, Combine c = {}) {
    step(from, tag).sends.push_back({to, std::move(src), tag, -1});
    step(to, tag).recvs.push_back({from, std::move(dst), tag, c});
  }
  void before(int rank, uint32_t tag, LocalOp op) { step(rank, tag).locals.push_back(std::move(op)); }
  void after(int rank, uint32_t tag, LocalOp op) { step(rank, tag).after.push_back(std::move(op)); }
  Step& step(int rank, uint32_t tag) {
    Step& s = steps_[size_t(rank)][tag];
    s.tag = tag;
    return s;
  }
  // The highest tag used + 1 (0: nothing).
  uint32_t tags() const {
    uint32_t t = 0;
    for (const auto& m : steps_)
      if (!m.empty()) t = std::max(t, m.rbegin()->first + 1);
    return t;
  }
  Schedule take(const char* name, uint32_t memory_words) {
    Schedule s;
    s.algorithm = name;
    s.nodes = n();
    s.steps = int(tags());
    s.memory_words = memory_words;
    s.programs.resize(steps_.size());
    for (size_t r = 0; r < steps_.size(); ++r)
      for (auto& [t, st] : steps_[r]) s.programs[r].push_back(std::move(st));
    return s;
  }

 private:
  std::vector<std::map<uint32_t, Step>> steps_;
};

inline LocalOp copy_op(Range src, Range dst) { return {{src}, {dst}, {}, false}; }
inline LocalOp combine_op(Range src, Range dst, OpId op, bool src_first) {
  return {{src}, {dst}, Combine{op, src_first}, false};
}
inline int pmod(int a, int n) { return ((a % n) + n) % n; }

// Our binomial tree over relative ranks v = (rank - root) mod n: the fan-out
// (halving: the root first to 2^(k-1)) and fan-in edges of every step.
struct TreeEdge {
  int from, to;  // ranks
  int level;     // j: the edge joins v and v + 2^j
};
std::vector<std::vector<TreeEdge>> fan_out(int n, int root);  // [step t] edges, j = k-1-t
std::vector<std::vector<TreeEdge>> fan_in(int n, int root);   // [step t] edges, j = t
// sync-in (fan-in to root) / sync-out (fan-out from root) with token messages, from tag `tag0`.
void tokens(Builder& b, const std::vector<std::vector<TreeEdge>>& steps, uint32_t tag0, uint32_t token);

// MPICH's fold for any n (recursive doubling, Rabenseifner, recursive halving): the rem = n -
// 2^floor(log2 n) even ranks below 2 rem first hand their data to their odd neighbours; the
// 2^d survivors, in rank order, run the power-of-two algorithm; survivor s is rank_of(s) and
// answers for ranks [first_rank(s), rank_of(s)] (its even neighbour's too when s < rem).
struct Survivors {
  int d, np, rem;
  explicit Survivors(int n) : d(ceil_log2(n) - ((n & (n - 1)) ? 1 : 0)), np(1 << d), rem(n - np) {}
  int rank_of(int s) const { return s < rem ? 2 * s + 1 : s + rem; }
  int first_rank(int s) const { return s < rem ? 2 * s : s + rem; }
};

// Generators by op (ops.cpp, combine.cpp, prefix.cpp); `tag0` shifts every step.
void gen_bcast(Builder& b, const Call& c, uint32_t tag0);
void gen_reduce(Builder& b, const Call& c, uint32_t tag0);
void gen_scatter(Builder& b, const Call& c, uint32_t tag0);
void gen_gather(Builder& b, const Call& c, uint32_t tag0);
void gen_concat(Builder& b, const Call& c, uint32_t tag0);
void gen_combine(Builder& b, const Call& c, uint32_t tag0);
void gen_prefix(Builder& b, const Call& c, uint32_t tag0);
void gen_shift(Builder& b, const Call& c, uint32_t tag0);
void gen_sync(Builder& b, const Call& c, uint32_t tag0, uint32_t token);
void gen_reduce_scatter(Builder& b, const Call& c, uint32_t tag0);  // reduce_scatter.cpp
Costs concat_doubling_costs(const Call& c);                         // ops.cpp
void circulant_ordered(Builder& b, const Call& c, uint32_t tag0);   // circulant_ordered.cpp
void gen_index_linear(Builder& b, const Call& c, uint32_t tag0);    // ops.cpp
Costs circulant_ordered_costs(const Call& c);
Costs reduce_scatter_costs(const Call& c);
// The pipelined nesbt broadcast and, reversed, reduce (nesbt.cpp): n = 2^d, packets of c.packet words.
void gen_nesbt_bcast(Builder& b, const Call& c, uint32_t tag0);
void gen_nesbt_reduce(Builder& b, const Call& c, uint32_t tag0);
int nesbt_steps(const Call& c);  // M + d - 1
// Träff's circulant-graph pipelined broadcast for any n (circ_graph.cpp): M + ceil(log n) - 1 steps.
void gen_circ_graph_bcast(Builder& b, const Call& c, uint32_t tag0);
Costs circ_graph_costs(const Call& c);
// The double binary tree all-reduce (dbtree.cpp): halves in chunks of c.packet words.
void gen_dbtree_combine(Builder& b, const Call& c, uint32_t tag0);
Costs dbtree_costs(const Call& c);
// The chain broadcast's segment (words; c.packet, 0 or more than the message: the whole message).
inline uint32_t chain_packet(const Call& c) { return c.packet && c.packet < c.b ? c.packet : c.b; }

}  // namespace wn::alg::ccl
