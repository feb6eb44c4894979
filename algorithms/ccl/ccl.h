// CCL (Bala, Bruck, Cypher et al. 1995): the ten collective (and MPI's reduce-scatter)
// operations with the algorithms the paper prices and those MPI and NCCL use (C1, C2, C3), as schedules over
// the ranks 0..n-1 of one process group. The firmware library (firmware/ccl)
// and `wormnet run --algorithm ccl-<op>` both run these schedules.
//
// Memory, in blocks of b words from address 0 (what m means per op is ours:
// the paper defines m once, as "the size of data each process has initially"):
//   bcast            BUF [0,b): the root's data, everyone's at the end
//   reduce, combine, IN [0,b) x_me (read-only), OUT [b,2b) the result (root only
//   prefix, shift    for reduce); scratch after that
//   scatter, gather  BUF [0,nb): block r belongs to rank r (the root holds all
//                    for scatter; for gather rank r holds block r, the root ends with all)
//   concat           OUT [0,nb) block j = B_j (B_me given at block me), TMP [nb,2nb)
//   index            IN [0,nb), OUT [nb,2nb), TMP [2nb,3nb) (bruck.h's layout)
//   sync             nothing but the token word
//   reduce-scatter   IN [0,nb) x_me's n blocks (read-only), OUT [nb, nb+b) block me of the
//                    reduction, ACC [nb+b, 2nb+b)
// Every schedule ends with one token word (the empty messages of sync and of
// the barrier-mode sync-in / sync-out carry it: a message has at least one word).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/schedule.h"

namespace wn::alg::ccl {

// ReduceScatter is MPI's (MPI_Reduce_scatter_block), not one of the paper's ten.
enum class Op { Bcast, Reduce, Combine, Scatter, Gather, Concat, Index, Prefix, Shift, Sync, ReduceScatter };

struct Call {
  Op op = Op::Bcast;
  std::string alg;      // one of algorithms(op); "" = the default choice (choose())
  int n = 2;            // group size
  int root = 0;         // rank of orig / dest (bcast, reduce, scatter, gather)
  uint32_t b = 1;       // words per block (per process for bcast/reduce/combine/prefix/shift/concat)
  OpId op_id = 1;       // reduction operator (reduce, combine, prefix)
  int radix = 2;        // index
  uint32_t packet = 0;  // nESBT packet words (0: the whole message)
  int kappa = 0;        // hybrid combine
  int cols = 0;         // combine ring-2d: ranks per row (0: the largest divisor of n up to sqrt n)
  int window = 1;       // index linear: messages a rank has in flight per step (1..n-1)
  int shift = 1;        // shift step (may be negative)
  bool barrier = true;  // barrier mode (the paper's §III); combine/concat/index/sync ignore it
};

// The algorithm names an op accepts (first = the default when it applies).
const std::vector<std::string>& algorithms(Op op);
const std::vector<std::string>& op_names();  // "bcast", ..., in Op order
Op op_of(const std::string& name);           // throws std::out_of_range
// Barrier mode wraps only the operations with a root or an order (the paper's §III); combine,
// concat, index, sync and reduce-scatter end together anyway.
bool has_barrier_mode(Op op);
// "" when `c` can run, else why and what is allowed (e.g. butterfly needs n = 2^d).
std::string unsupported(const Call& c);
// The default algorithm for the call (our selection, the paper gives none: butterfly
// for 2^d, circulant for other n with a commutative operator, else reduce-bcast).
std::string choose(const Call& c);

// The exact C1, C2, C3 of the call (the paper's formulas where it gives exact ones,
// ours where it gives approximations, O(.) or nothing; C2, "transferred in sequence
// by any process" (§IV.A), read by us as the sum over steps of the largest message;
// all in words; data only, tokens excluded).
struct Costs {
  int c1 = 0;
  uint64_t c2 = 0, c3 = 0;
  std::string formula;
};
Costs costs(const Call& c);
// The double binary tree's messages, 2 (n-1) chunks (its costs() schedules the call to count steps).
uint64_t dbtree_messages(const Call& c);
// Lower bounds on its C1 and C2 without building it: the busiest rank's messages (one a step) and
// words (each step's largest message is at least what that rank sends in it).
Costs dbtree_lower_bound(const Call& c);

// The default chooser of `--ccl-alg auto`: every algorithm that can run the
// call (and its knobs: nesbt's packet size, hybrid's kappa, index's radix)
// priced by the linear model T = C1 t_s + C2 t_c (cycles; t_c per word); the
// least T wins, ties to the earlier algorithm of algorithms(op). `why` says so.
struct Choice {
  Call call;  // alg and knobs set
  double cycles = 0;
  std::string why;
};
Choice choose_by_model(const Call& c, double ts, double tc);

uint32_t layout_words(const Call& c);  // memory per rank, token word included
int ring_2d_cols(const Call& c);       // ring-2d's ranks per row: c.cols, or its default
Schedule build(const Call& c);         // over ranks; initial/expected are the test payloads

}  // namespace wn::alg::ccl
