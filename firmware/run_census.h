// What the fabric needs to know about all nodes every cycle, kept up to date
// by the nodes themselves so that a cycle costs O(nodes with work), not
// O(nodes): a 64x64 torus spends most cycles with every node computing a
// start-up or blocked, and scanning 4096 nodes twice per cycle was a third
// of a run.
//  - live: nodes whose outbox or NI has something (the only ones whose
//    flush_outbox / drive can do anything), in node order when iterated;
//  - finished / errors: firmware threads that returned (with an exception).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace wn::fw {

class RunCensus {
 public:
  explicit RunCensus(int nodes) : is_live_(size_t(nodes), 0), outbox_(size_t(nodes), 0) {}
  // `node` has a message in its outbox (and is live from now on).
  void wake(int node) {
    outbox_[size_t(node)] = 1;
    if (is_live_[size_t(node)]) return;
    is_live_[size_t(node)] = 1;
    live_.push_back(node);
    sorted_ = false;
  }
  // The live nodes in increasing order (packet ids are assigned in node order).
  std::vector<int>& live() {
    if (!sorted_) std::sort(live_.begin(), live_.end());
    sorted_ = true;
    return live_;
  }
  // Keeps the live nodes for which keep(node) holds, asking them in their order; ahead(node) is
  // told the node kLookahead places further on first (to prefetch what keep() will read).
  template <class Keep, class Ahead>
  void prune(Keep keep, Ahead ahead) {
    constexpr size_t kLookahead = 4;
    size_t k = 0;
    for (size_t i = 0; i < live_.size(); ++i) {
      if (i + kLookahead < live_.size()) ahead(live_[i + kLookahead]);  // not yet overwritten: k <= i
      const int n = live_[i];
      if (keep(n))
        live_[k++] = n;
      else
        is_live_[size_t(n)] = 0;
    }
    live_.resize(k);
  }
  // Whether `node` was woken since the last call: only then has its outbox anything to flush
  // (a dense flag, not the node's own queue, which is far away in a big network).
  bool take_outbox(int node) {
    const bool had = outbox_[size_t(node)];
    outbox_[size_t(node)] = 0;
    return had;
  }
  bool none_live() const { return live_.empty(); }
  void finished(bool with_error) {
    ++finished_;
    errors_ += with_error;
  }
  int finished_count() const { return finished_; }
  int errors() const { return errors_; }

 private:
  std::vector<uint8_t> is_live_, outbox_;
  std::vector<int> live_;
  bool sorted_ = true;
  int finished_ = 0, errors_ = 0;
};

}  // namespace wn::fw
