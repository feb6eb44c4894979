#include "algorithms/schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <tuple>
#include <vector>

namespace wn::alg {

uint32_t total_words(const std::vector<Range>& ranges) {
  uint32_t n = 0;
  for (const Range& r : ranges) n += r.count;
  return n;
}

uint32_t node_memory_words(const Schedule& s, int node) {
  return s.node_words.empty() ? s.memory_words : s.node_words[size_t(node)];
}

uint64_t total_memory_words(const Schedule& s) {
  uint64_t n = 0;
  for (int u = 0; u < s.nodes; ++u) n += node_memory_words(s, u);
  return n;
}

ScheduleStats stats(const Schedule& s) {
  ScheduleStats st;
  for (const auto& prog : s.programs) {
    for (const Step& step : prog) {
      st.messages += step.sends.size();
      for (const Send& m : step.sends) st.words_sent += total_words(m.src);
      st.max_sends_per_step = std::max(st.max_sends_per_step, int(step.sends.size()));
      st.max_recvs_per_step = std::max(st.max_recvs_per_step, int(step.recvs.size()));
    }
  }
  return st;
}

namespace {

struct Transfer {
  int src, dst;
  uint32_t tag, words;
  std::tuple<int, int, uint32_t> key() const { return {src, dst, tag}; }
};

std::string check_ranges(const Schedule& s, int node, const std::vector<Range>& rs, const char* what) {
  const uint32_t words = node_memory_words(s, node);
  for (const Range& r : rs)
    if (r.end() > words)
      return fmt::format("node {}: {} range [{}, +{}) exceeds memory of {} words", node, what, r.offset, r.count,
                         words);
  return {};
}

}  // namespace

std::string validate(const Schedule& s) {
  if (int(s.programs.size()) != s.nodes) return fmt::format("{} programs for {} nodes", s.programs.size(), s.nodes);
  if (!s.initial || !s.expected) return "schedule has no initial memory or no oracle";
  if (!s.node_words.empty()) {
    if (s.node_words.size() != size_t(s.nodes))
      return fmt::format("{} node memory sizes for {} nodes", s.node_words.size(), s.nodes);
    for (int n = 0; n < s.nodes; ++n)
      if (s.node_words[size_t(n)] > s.memory_words)
        return fmt::format("node {}: {} words of memory, above memory_words {}", n, s.node_words[size_t(n)],
                           s.memory_words);
  }
  // Every send and every receive as (src, dst, tag, words), in program order;
  // sorted stably by key below, so each key's lengths stay in send/receive
  // order. Flat arrays, not a map of vectors: a 10-cube's d-cycles schedule
  // has 10^7 messages.
  std::vector<Transfer> sent, received;
  for (int n = 0; n < s.nodes; ++n) {
    uint32_t last_tag = 0;
    for (size_t i = 0; i < s.programs[size_t(n)].size(); ++i) {
      const Step& st = s.programs[size_t(n)][i];
      if (int64_t(st.tag) >= s.steps) return fmt::format("node {}: step tag {} >= step count {}", n, st.tag, s.steps);
      if (i > 0 && st.tag < last_tag)
        return fmt::format("node {}: step tags not in order ({} after {})", n, st.tag, last_tag);
      last_tag = st.tag;
      for (const auto* list : {&st.locals, &st.after})
        for (const LocalOp& l : *list) {
          if (auto e = check_ranges(s, n, l.src, "local source"); !e.empty()) return e;
          if (auto e = check_ranges(s, n, l.dst, "local destination"); !e.empty()) return e;
          if (total_words(l.src) != total_words(l.dst))
            return fmt::format("node {} step {}: local op moves {} words into {}", n, st.tag, total_words(l.src),
                               total_words(l.dst));
        }
      for (const Send& m : st.sends) {
        if (m.dst < 0 || m.dst >= s.nodes || m.dst == n)
          return fmt::format("node {} step {}: send to invalid node {}", n, st.tag, m.dst);
        if (auto e = check_ranges(s, n, m.src, "send"); !e.empty()) return e;
        sent.push_back({n, m.dst, m.tag, total_words(m.src)});
      }
      for (const Recv& r : st.recvs) {
        if (r.src < 0 || r.src >= s.nodes || r.src == n)
          return fmt::format("node {} step {}: receive from invalid node {}", n, st.tag, r.src);
        if (auto e = check_ranges(s, n, r.dst, "receive"); !e.empty()) return e;
        received.push_back({r.src, n, r.tag, total_words(r.dst)});
      }
    }
  }
  const auto by_key = [](const Transfer& a, const Transfer& b) { return a.key() < b.key(); };
  std::stable_sort(sent.begin(), sent.end(), by_key);
  std::stable_sort(received.begin(), received.end(), by_key);
  // Walk both lists key by key (the order the checks report in).
  size_t i = 0, j = 0;
  while (i < sent.size() || j < received.size()) {
    if (j == received.size() || (i < sent.size() && sent[i].key() < received[j].key())) {
      size_t e = i;
      while (e < sent.size() && sent[e].key() == sent[i].key()) ++e;
      return fmt::format("{} send(s) {} -> {} tag {} but 0 matching receive(s)", e - i, sent[i].src, sent[i].dst,
                         sent[i].tag);
    }
    if (i == sent.size() || received[j].key() < sent[i].key())
      return fmt::format("node {} waits for a message from {} tag {} that is never sent", received[j].dst,
                         received[j].src, received[j].tag);
    size_t ei = i, ej = j;
    while (ei < sent.size() && sent[ei].key() == sent[i].key()) ++ei;
    while (ej < received.size() && received[ej].key() == received[j].key()) ++ej;
    if (ei - i != ej - j)
      return fmt::format("{} send(s) {} -> {} tag {} but {} matching receive(s)", ei - i, sent[i].src, sent[i].dst,
                         sent[i].tag, ej - j);
    for (size_t k = 0; k < ei - i; ++k)
      if (sent[i + k].words != received[j + k].words)
        return fmt::format("send {} -> {} tag {}: {} words sent, receive expects {}", sent[i].src, sent[i].dst,
                           sent[i].tag, sent[i].words, received[j].words);
    i = ei;
    j = ej;
  }
  return {};
}

Schedule remap_group(const Schedule& by_rank, const std::vector<int>& group, int nodes) {
  Schedule s = by_rank;
  s.nodes = nodes;
  s.programs.assign(size_t(nodes), {});
  auto rank_of = std::make_shared<std::vector<int>>(size_t(nodes), -1);
  for (size_t r = 0; r < group.size(); ++r) (*rank_of)[size_t(group[r])] = int(r);
  for (size_t r = 0; r < group.size(); ++r) {
    std::vector<Step> prog = by_rank.programs[r];
    for (Step& st : prog) {
      for (Send& m : st.sends) m.dst = group[size_t(m.dst)];
      for (Recv& rv : st.recvs) rv.src = group[size_t(rv.src)];
    }
    s.programs[size_t(group[r])] = std::move(prog);
  }
  // Nodes outside the group keep their initial memory (a distinct pattern the
  // oracle checks, so a stray message into a non-member is caught).
  if (!by_rank.node_words.empty()) {
    // Nodes outside the group hold nothing the schedule moves: the least any member has.
    s.node_words.assign(size_t(nodes), *std::min_element(by_rank.node_words.begin(), by_rank.node_words.end()));
    for (size_t r = 0; r < group.size(); ++r) s.node_words[size_t(group[r])] = by_rank.node_words[r];
  }
  auto init = by_rank.initial;
  auto expect = by_rank.expected;
  s.initial = [init, rank_of](int node, uint32_t a) -> Word {
    const int r = (*rank_of)[size_t(node)];
    return r >= 0 ? init(r, a) : Word(0xdead0000u ^ (uint32_t(node) << 8) ^ a);
  };
  s.expected = [expect, rank_of](int node, uint32_t a) -> std::optional<Word> {
    const int r = (*rank_of)[size_t(node)];
    if (r >= 0) return expect(r, a);
    return Word(0xdead0000u ^ (uint32_t(node) << 8) ^ a);
  };
  return s;
}

}  // namespace wn::alg
