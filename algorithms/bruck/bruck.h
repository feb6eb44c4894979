// Bruck, Ho, Kipnis, Upfal & Weathersby: index (all-to-all
// personalized) with radix r and concatenation (all-gather), both k-port.
// The paper's machine is fully connected; here the same rounds run on a real
// wormhole network, so the linear model's C1/C2 can be set against what the
// contention monitor measures. Everything works over ranks 0..n-1 (--group);
// the pipeline maps ranks onto nodes.
//
// Index memory per rank me, blocks of m words (IN/OUT as direct-alltoall, so
// the final memories of the two compare word for word):
//   IN  [0, n)    block t = B[me -> t], read-only
//   OUT [n, 2n)   block s = B[s -> me] at the end (Phase 3)
//   TMP [2n, 3n)  Phase 1 rotation, then Phase 2 in place (offset t keeps its
//                 block-id); at the end TMP[t] = B[(me - t) mod n -> me]
// Concatenation memory (as ring-allgather): OUT [0, n) block j = B[j] at the
// end, B[me] given at OUT[me]; TMP [n, 2n), TMP[u] = B[(me - u) mod n] once
// filled (positive offsets: the mirror of the paper's Fig. 9).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/registry.h"

namespace wn::alg::bruck {

// ---- index (the paper's Section 3, Appendix A) ----
struct IndexStep {
  int x = 0;          // subphase (radix-r digit)
  int z = 0;          // step: digit value 1..h_x-1
  uint32_t dist = 1;  // r^x: rank i sends to i + z*dist
};
// The rounds: subphase by subphase, its steps z = 1..h_x-1 in consecutive groups of k.
std::vector<std::vector<IndexStep>> index_rounds(int n, int r, int k);
// Offsets t in [0, n) with digit x of t (radix r) equal to z, as runs [begin, end).
std::vector<std::pair<uint32_t, uint32_t>> index_offsets(int n, int r, uint32_t dist, int z);
// Exact closed forms (ours; the paper gives upper bounds), used by --radix auto and for people;
// tests measure the run.
int index_c1(int n, int r, int k);
uint64_t index_c2_blocks(int n, int r, int k);
Schedule build_index(int n, int r, int k, uint32_t words);

// The --radix option (declared alike by every family that reads it).
OptionSpec radix_option();

// --radix auto: the r in 2..n minimising C1*beta + C2*m*tau (ties: the smaller r).
struct RadixChoice {
  int r = 2;
  double cycles = 0;
  std::string why;
};
RadixChoice choose_radix(int n, int k, uint32_t words, double beta, double tau_per_word);

// ---- concatenation (the paper's Section 4, Appendix B) ----
struct Segment {  // rows [row_begin, row_end) of table column col (node n1 + col of T_0)
  uint32_t col = 0, row_begin = 0, row_end = 0;
};
struct Area {
  int offset = 0;  // s_m: rank v sends to v + s_m
  std::vector<Segment> segments;
  uint32_t cells() const;
};
struct ConcatPlan {
  int n = 0, k = 0, d = 0, n1 = 0, n2 = 0;  // k clamped to n-1
  uint32_t b = 0;                           // units (words) per block
  uint32_t a = 0;                           // ceil(b*n2/k)
  std::string partition;                    // "chunks", "span-limited greedy" or "whole columns"
  std::vector<Area> last;                   // the last round's areas, one per port (empty areas dropped)
};
ConcatPlan concat_plan(int n, int k, uint32_t b);
// The last round alone (Prop 4.2): the b x n2 table over k areas of span <= n1,
// with distinct offsets; `partition` names the method that succeeded.
std::vector<Area> last_round(int n1, int n2, int k, uint32_t b, std::string* partition = nullptr);
Schedule build_concat(const ConcatPlan& plan);
// Closed forms for people: ceil(log_{k+1} n) and the plan's C2 (units).
uint64_t concat_c2(const ConcatPlan& plan);

}  // namespace wn::alg::bruck
