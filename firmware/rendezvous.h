// Synchronous (rendezvous) sends, for checking that a schedule is
// deadlock-free without buffering (the CCL paper's §III: "deterministic code" does not
// deadlock even when every send waits for its matching receive). With it on,
// a send starts only once the receiver has posted a receive for (sender,
// tag); a receive is posted when the interpreter enters the step (the
// combined send-receive of every CCL round) or when the firmware blocks in it.
#pragma once
#include <cstdint>
#include <map>
#include <systemc>
#include <tuple>

namespace wn::fw {

class Rendezvous {
 public:
  void post(int receiver, int src, uint32_t tag) {
    ++posted_[{receiver, src, tag}];
    changed_.notify(sc_core::SC_ZERO_TIME);
  }
  // A posted receive of `receiver` for (src, tag), consumed; false when there is none yet.
  bool take(int receiver, int src, uint32_t tag) {
    const auto it = posted_.find({receiver, src, tag});
    if (it == posted_.end()) return false;
    if (--it->second == 0) posted_.erase(it);
    return true;
  }
  const sc_core::sc_event& changed() const { return changed_; }

 private:
  std::map<std::tuple<int, int, uint32_t>, int> posted_;
  sc_core::sc_event changed_;
};

}  // namespace wn::fw
