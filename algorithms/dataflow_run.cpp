#include "algorithms/dataflow_run.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <tuple>

namespace wn::alg {

namespace {

using Key = std::tuple<int, int, uint32_t>;  // src, dst, tag

// One pass of the ideal execution. Without memory (`mem` null) only the control flow runs.
class Dataflow {
 public:
  Dataflow(const std::vector<std::vector<Step>>& programs, std::vector<std::vector<Word>>* mem)
      : programs_(programs), mem_(mem), ranks_(programs.size()) {}

  void run() {
    for (size_t r = 0; r < programs_.size(); ++r) ready_.push_back(int(r));
    while (!ready_.empty()) {
      const int r = ready_.front();
      ready_.pop_front();
      advance(r);
    }
  }

 private:
  struct RankState {
    size_t step = 0;
    bool started = false;
    std::map<Key, std::deque<size_t>> pending;  // key -> receive indices of the current step, program order
  };

  std::vector<Word> read(int r, const std::vector<Range>& rs) const {
    std::vector<Word> out;
    if (!mem_) return out;
    for (const Range& x : rs)
      for (uint32_t k = 0; k < x.count; ++k) out.push_back((*mem_)[size_t(r)][x.at(k)]);
    return out;
  }
  void write(int r, const std::vector<Range>& rs, const std::vector<Word>& words, const Combine& c) {
    if (!mem_) return;
    size_t i = 0;
    for (const Range& x : rs)
      for (uint32_t k = 0; k < x.count; ++k) {
        Word& w = (*mem_)[size_t(r)][x.at(k)];
        w = apply(c, w, words[i++]);
      }
  }
  void locals(int r, const std::vector<LocalOp>& ops) {
    for (const LocalOp& l : ops) write(r, l.dst, read(r, l.src), l.combine);
  }

  // Runs rank r until it blocks on a receive or finishes.
  void advance(int r) {
    RankState& s = ranks_[size_t(r)];
    const auto& prog = programs_[size_t(r)];
    while (s.step < prog.size()) {
      const Step& st = prog[s.step];
      if (!s.started) {
        s.started = true;
        locals(r, st.locals);
        for (const Send& m : st.sends) {
          inflight_[{r, m.dst, m.tag}].push_back(read(r, m.src));
          ready_.push_back(m.dst);
        }
        for (size_t i = 0; i < st.recvs.size(); ++i) s.pending[{st.recvs[i].src, r, st.recvs[i].tag}].push_back(i);
      }
      // Complete what has arrived: the oldest message of each key to the first receive waiting for it.
      for (auto it = s.pending.begin(); it != s.pending.end();) {
        auto q = inflight_.find(it->first);
        while (q != inflight_.end() && !q->second.empty() && !it->second.empty()) {
          const Recv& rv = st.recvs[it->second.front()];
          write(r, rv.dst, q->second.front(), rv.combine);
          q->second.pop_front();
          it->second.pop_front();
        }
        it = it->second.empty() ? s.pending.erase(it) : std::next(it);
      }
      if (!s.pending.empty()) return;
      locals(r, st.after);
      ++s.step;
      s.started = false;
    }
  }

  const std::vector<std::vector<Step>>& programs_;
  std::vector<std::vector<Word>>* mem_;
  std::vector<RankState> ranks_;
  std::map<Key, std::deque<std::vector<Word>>> inflight_;
  std::deque<int> ready_;
};

}  // namespace

std::vector<std::vector<Word>> dataflow_memory(const std::vector<std::vector<Step>>& programs, uint32_t memory_words,
                                               const std::function<Word(int, uint32_t)>& initial) {
  std::vector<std::vector<Word>> mem(programs.size(), std::vector<Word>(memory_words));
  for (size_t r = 0; r < programs.size(); ++r)
    for (uint32_t a = 0; a < memory_words; ++a) mem[r][a] = initial(int(r), a);
  Dataflow d(programs, &mem);
  d.run();
  return mem;
}

}  // namespace wn::alg
