#include "algorithms/reference_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

namespace wn::alg {

namespace {

std::vector<Word> read(const std::vector<Word>& mem, const std::vector<Range>& rs) {
  std::vector<Word> out;
  for (const Range& r : rs)
    for (uint32_t k = 0; k < r.count; ++k) out.push_back(mem[r.at(k)]);
  return out;
}

void write(std::vector<Word>& mem, const std::vector<Range>& rs, const std::vector<Word>& words, const Combine& c) {
  size_t i = 0;
  for (const Range& r : rs)
    for (uint32_t k = 0; k < r.count; ++k) mem[r.at(k)] = apply(c, mem[r.at(k)], words[i++]);
}

}  // namespace

std::vector<std::vector<Word>> reference_run(const Schedule& s) {
  std::vector<std::vector<Word>> mem(size_t(s.nodes));
  for (int n = 0; n < s.nodes; ++n) {
    mem[size_t(n)].resize(node_memory_words(s, n));
    for (uint32_t a = 0; a < mem[size_t(n)].size(); ++a) mem[size_t(n)][a] = s.initial(n, a);
  }
  std::set<uint32_t> tags;
  for (const auto& prog : s.programs)
    for (const Step& st : prog) tags.insert(st.tag);
  // Messages in flight: (src, dst, tag) -> payloads in send order.
  std::map<std::tuple<int, int, uint32_t>, std::deque<std::vector<Word>>> inflight;
  for (uint32_t t : tags) {
    for (int n = 0; n < s.nodes; ++n)
      for (const Step& st : s.programs[size_t(n)])
        if (st.tag == t)
          for (const LocalOp& l : st.locals) write(mem[size_t(n)], l.dst, read(mem[size_t(n)], l.src), l.combine);
    for (int n = 0; n < s.nodes; ++n)
      for (const Step& st : s.programs[size_t(n)])
        if (st.tag == t)
          for (const Send& m : st.sends) inflight[{n, m.dst, m.tag}].push_back(read(mem[size_t(n)], m.src));
    for (int n = 0; n < s.nodes; ++n)
      for (const Step& st : s.programs[size_t(n)])
        if (st.tag == t)
          for (const Recv& r : st.recvs) {
            auto& q = inflight[{r.src, n, r.tag}];
            if (q.empty()) continue;  // validate() reports unmatched receives
            write(mem[size_t(n)], r.dst, q.front(), r.combine);
            q.pop_front();
          }
    for (int n = 0; n < s.nodes; ++n)
      for (const Step& st : s.programs[size_t(n)])
        if (st.tag == t)
          for (const LocalOp& l : st.after) write(mem[size_t(n)], l.dst, read(mem[size_t(n)], l.src), l.combine);
  }
  return mem;
}

std::string check_memory(const Schedule& s, const std::vector<std::vector<Word>>& memory,
                         const std::vector<int>& ranks) {
  for (int n = 0; n < s.nodes; ++n) {
    if (size_t(n) >= memory.size() || memory[size_t(n)].size() != node_memory_words(s, n))
      return fmt::format("node {}: {} words of memory, the schedule's node has {}", n,
                         size_t(n) < memory.size() ? memory[size_t(n)].size() : 0, node_memory_words(s, n));
    for (uint32_t a = 0; a < node_memory_words(s, n); ++a) {
      const auto want = s.expected(n, a);
      if (want && *want != memory[size_t(n)][a]) {
        const auto r = std::find(ranks.begin(), ranks.end(), n);
        return fmt::format("node {}{} addr {}: expected {:#010x} got {:#010x}", n,
                           r == ranks.end() ? "" : fmt::format(" (rank {})", r - ranks.begin()), a, *want,
                           memory[size_t(n)][a]);
      }
    }
  }
  return {};
}

}  // namespace wn::alg
