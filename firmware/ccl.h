// CCL for node firmware (the CCL paper): process groups and the ten
// collective operations, called from a node's FirmwareFn exactly as IBM's CCL
// was called from SP1 programs. Every operation runs the schedule of
// algorithms/ccl (the same one `wormnet run --algorithm ccl-<op>`
// runs) for this node's rank, relocated to the caller's memory region, its
// peers mapped from group ranks to node ids, its messages in a private tag
// range. Matching is by (source, tag) with unexpected messages buffered by
// the firmware node, so operations on overlapping groups may be in flight at
// once (non-interference, the paper's §III); each operation's tags are unique to its group
// and its position in that group's sequence of calls (every member calls a
// group's operations in the same order, §III's rule for a correct program).
//
// Memory: an operation works in [base, base + region_words(...)) of node
// memory with the layout of algorithms/ccl/ccl.h (e.g. combine: IN
// [base, base+b), OUT [base+b, base+2b), scratch after). The library's own
// messages (partition's records, group's counter) use the region given to the
// constructor, which needs scratch_words(n_all) words.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/ccl/ccl.h"
#include "firmware/node_api.h"

namespace wn::fw::ccl {

struct Group {
  std::vector<int> members;              // node ids (PIDs); rank = position
  int rank = -1;                         // this node's rank (-1: not a member)
  int label = 0;                         // group()'s label, partition()'s myval
  std::pair<uint32_t, int> pgid{0, -1};  // (counter, pid of rank 0), unique system-wide (§II)
  uint32_t calls = 0;                    // operations issued on this group so far (tags)
  int size() const { return int(members.size()); }
  int pid(int r) const { return members.at(size_t(r)); }
  int rank_of(int pid) const;  // -1 when not a member
};

// Per call: the algorithm (empty: the default of alg::ccl::choose) and its knobs.
struct Tuning {
  std::string alg;
  int radix = 2;        // index
  int kappa = 0;        // hybrid combine
  uint32_t packet = 0;  // nesbt, chain, circ-graph: segment; dbtree: chunk of a half (words; 0: whole)
  int window = 1;       // linear index: messages in flight per step
};

class Library {
 public:
  // `all`: the nodes of the predefined group ALL in rank order; `scratch`: first
  // word of the library's own region; `barrier`: barrier mode (default, §III).
  Library(NodeApi& api, std::vector<int> all, uint32_t scratch, bool barrier = true);
  static uint32_t scratch_words(int n_all);
  static uint32_t region_words(alg::ccl::Op op, int n, uint32_t b, const Tuning& t = {}, alg::OpId op_id = 1);

  // Calls without an algorithm pick one (and its knobs) by the linear model T = C1 t_s + C2 t_c
  // (alg::ccl::choose_by_model; cycles, t_c per word) instead of alg::ccl::choose's fixed defaults.
  void tune_by_model(double ts, double tc) { model_ = {ts, tc}; }
  const std::string& last_choice() const { return last_choice_; }  // why, for the last call tuned by the model

  Group& all() { return all_; }
  uint32_t counter() const { return counter_; }
  // group(): no barrier (§II); rank 0's counter is broadcast (§II's reference mechanism for
  // the PGID; the paper's CCL instead appends the counters to its set-up messages).
  Group group(const std::vector<int>& list, int label);
  // partition(): one concat of (myval, key, parent rank, counter) over g (ours: the paper gives
  // no protocol), which is the barrier §II requires.
  Group partition(Group& g, int myval, int key);
  // FORM2DGRID (§II's proposed Common Group Structures): g as an X-wide grid, rank = y*X + x
  // (ours: the paper gives no mapping); returns (row group, column group).
  std::pair<Group, Group> grid(Group& g, int X);

  // orig / dest are PIDs (the paper's bcast(G, orig, data) takes a PID; dest likewise, ours),
  // b = words per block (see ccl.h for what a block is per op).
  void bcast(Group& g, int orig, uint32_t base, uint32_t b, const Tuning& t = {});
  void reduce(Group& g, int dest, alg::OpId op, uint32_t base, uint32_t b, const Tuning& t = {});
  void combine(Group& g, alg::OpId op, uint32_t base, uint32_t b, const Tuning& t = {});
  void scatter(Group& g, int orig, uint32_t base, uint32_t b, const Tuning& t = {});
  void gather(Group& g, int dest, uint32_t base, uint32_t b, const Tuning& t = {});
  void concat(Group& g, uint32_t base, uint32_t b, const Tuning& t = {});
  void index(Group& g, uint32_t base, uint32_t b, const Tuning& t = {});
  void prefix(Group& g, alg::OpId op, uint32_t base, uint32_t b, const Tuning& t = {});
  void shift(Group& g, int step, uint32_t base, uint32_t b);
  void sync(Group& g);
  // MPI's reduce-scatter (not one of the paper's operations): n blocks of b words at base, block
  // r of their reduction at base + n b (ccl.h's layout).
  void reduce_scatter(Group& g, alg::OpId op, uint32_t base, uint32_t b, const Tuning& t = {});

 private:
  void run(Group& g, alg::ccl::Call c, uint32_t base);
  Group make(std::vector<int> members, int label, std::pair<uint32_t, int> pgid);

  NodeApi& api_;
  Group all_;
  uint32_t scratch_;
  bool barrier_;
  uint32_t counter_ = 0;
  std::pair<double, double> model_{-1, -1};
  std::string last_choice_;
  std::map<std::vector<int>, uint32_t> group_calls_;  // group() calls per member list (tags)
};

}  // namespace wn::fw::ccl
