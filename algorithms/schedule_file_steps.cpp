// The per-rank programs of a schedule file: steps, their local ops, sends and receives.
#include "algorithms/schedule_file_steps.h"

#include <algorithm>

namespace wn::alg::file {

namespace {

const char* kRange = "a range [offset, count] or [offset, count, stride] (words)";

Range range(const Value& v, uint32_t memory_words) {
  v.array(kRange);
  if (v.size() != 2 && v.size() != 3) v.fail(fmt::format("a list of {} numbers", v.size()), kRange);
  Range r;
  r.offset = uint32_t(v.item(0).uint(0, memory_words - 1));
  r.count = uint32_t(v.item(1).uint(1, memory_words));
  if (v.size() == 3) r.stride = uint32_t(v.item(2).uint(1, memory_words));
  if (r.end() > memory_words)
    v.fail(fmt::format("[{}, {}{}] ends at word {}, past memory_words {}", r.offset, r.count,
                       v.size() == 3 ? fmt::format(", {}", r.stride) : "", r.end(), memory_words),
           fmt::format("ranges inside words 0..{}", memory_words - 1));
  return r;
}

std::vector<Range> ranges(const Value& v, uint32_t memory_words) {
  v.array("a list of ranges [[offset, count], ...]");
  if (v.size() == 0) v.fail("an empty list", "at least one range [offset, count]");
  std::vector<Range> out;
  uint64_t words = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    out.push_back(range(v.item(i), memory_words));
    words += out.back().count;
    if (words > kMaxMessageWords)
      v.fail(fmt::format("{} words or more", words), fmt::format("at most {} words (64 MiB)", kMaxMessageWords));
  }
  return out;
}

Combine combine(const Value& obj, const char* key) {
  Combine c;
  if (obj.has(key)) {
    const Value v = obj.at_key(key);
    std::string names;
    for (const auto& op : combine_ops()) names += (names.empty() ? "" : ", ") + op.name;
    const std::string name = v.string("an operator: " + names);
    const auto& ops = combine_ops();
    auto it = std::find_if(ops.begin(), ops.end(), [&](const CombineOpInfo& o) { return o.name == name; });
    if (it == ops.end()) v.fail(fmt::format("unknown operator '{}'", name), "an operator: " + names);
    c.op = OpId(it - ops.begin());
  }
  if (obj.has("incoming_first")) c.incoming_first = obj.at_key("incoming_first").boolean();
  return c;
}

int rank_value(const Value& v, int ranks, int self, const char* what) {
  const int r = int(v.uint(0, uint64_t(ranks) - 1));
  if (r == self) v.fail(fmt::format("rank {} {} itself", self, what), "another rank");
  return r;
}

LocalOp local(const Value& v, uint32_t memory_words) {
  v.object({"src", "dst", "op", "indexed", "incoming_first"});
  LocalOp l;
  l.src = ranges(v.need("src", "a local op {\"src\": [ranges], \"dst\": [ranges]}"), memory_words);
  l.dst = ranges(v.need("dst", "a local op {\"src\": [ranges], \"dst\": [ranges]}"), memory_words);
  l.combine = combine(v, "op");
  if (v.has("indexed")) l.indexed = v.at_key("indexed").boolean();
  if (total_words(l.src) != total_words(l.dst))
    v.at_key("dst").fail(fmt::format("{} words, src has {}", total_words(l.dst), total_words(l.src)),
                         "as many words as src");
  return l;
}

std::vector<LocalOp> locals(const Value& step, const char* key, uint32_t memory_words) {
  std::vector<LocalOp> out;
  if (!step.has(key)) return out;
  const Value v = step.at_key(key);
  v.array("a list of local ops");
  for (size_t i = 0; i < v.size(); ++i) out.push_back(local(v.item(i), memory_words));
  return out;
}

}  // namespace

std::vector<Step> program(const Value& steps, const ProgramContext& c, std::vector<Endpoint>& sends,
                          std::vector<Endpoint>& recvs, uint32_t* max_step) {
  steps.array("a list of steps");
  std::vector<Step> out;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Value v = steps.item(i);
    v.object({"step", "locals", "sends", "recvs", "after", "multiport_send"});
    Step st;
    const Value num = v.need("step", "a step {\"step\": n, ...}");
    st.tag = uint32_t(num.uint(0, kMaxFileStep));
    if (!out.empty() && st.tag <= out.back().tag)
      num.fail(fmt::format("step {} after step {}", st.tag, out.back().tag),
               "the steps of a rank in increasing order, each once");
    *max_step = std::max(*max_step, st.tag);
    st.locals = locals(v, "locals", c.memory_words);
    st.after = locals(v, "after", c.memory_words);
    if (v.has("multiport_send")) st.multiport_send = v.at_key("multiport_send").boolean();
    if (v.has("sends")) {
      const Value list = v.at_key("sends");
      list.array("a list of sends");
      for (size_t k = 0; k < list.size(); ++k) {
        const Value s = list.item(k);
        s.object({"dst", "src", "tag", "channel"});
        Send m;
        m.dst = rank_value(s.need("dst", "a send {\"dst\": rank, \"src\": [ranges]}"), c.ranks, c.rank, "sends to");
        m.src = ranges(s.need("src", "a send {\"dst\": rank, \"src\": [ranges]}"), c.memory_words);
        m.tag = s.has("tag") ? uint32_t(s.at_key("tag").uint(0, UINT32_MAX)) : st.tag;
        if (s.has("channel")) m.channel = int(s.at_key("channel").uint(0, 63));
        sends.push_back({c.rank, m.dst, m.tag, total_words(m.src), st.tag, s.path()});
        st.sends.push_back(std::move(m));
      }
    }
    if (v.has("recvs")) {
      const Value list = v.at_key("recvs");
      list.array("a list of receives");
      for (size_t k = 0; k < list.size(); ++k) {
        const Value r = list.item(k);
        r.object({"src", "dst", "tag", "op", "incoming_first"});
        Recv m;
        m.src =
            rank_value(r.need("src", "a receive {\"src\": rank, \"dst\": [ranges]}"), c.ranks, c.rank, "receives from");
        m.dst = ranges(r.need("dst", "a receive {\"src\": rank, \"dst\": [ranges]}"), c.memory_words);
        m.tag = r.has("tag") ? uint32_t(r.at_key("tag").uint(0, UINT32_MAX)) : st.tag;
        m.combine = combine(r, "op");
        recvs.push_back({m.src, c.rank, m.tag, total_words(m.dst), st.tag, r.path()});
        st.recvs.push_back(std::move(m));
      }
    }
    out.push_back(std::move(st));
  }
  return out;
}

void match(const std::string& file, std::vector<Endpoint>& sends, std::vector<Endpoint>& recvs) {
  const auto by_key = [](const Endpoint& a, const Endpoint& b) { return a.key() < b.key(); };
  std::stable_sort(sends.begin(), sends.end(), by_key);
  std::stable_sort(recvs.begin(), recvs.end(), by_key);
  auto fail = [&](const Endpoint& e, const std::string& what, const std::string& allowed) {
    refuse(file, e.path, what, allowed);
  };
  size_t i = 0, j = 0;
  while (i < sends.size() || j < recvs.size()) {
    const bool send_first = j == recvs.size() || (i < sends.size() && sends[i].key() < recvs[j].key());
    const bool recv_first = i == sends.size() || (j < recvs.size() && recvs[j].key() < sends[i].key());
    if (send_first) {
      const Endpoint& s = sends[i];
      fail(s,
           fmt::format("rank {} sends to rank {} with tag {}, and rank {} has no receive from {} with tag {}", s.src,
                       s.dst, s.tag, s.dst, s.src, s.tag),
           "every send matched by one receive (same ranks, same tag, same length)");
    }
    if (recv_first) {
      const Endpoint& r = recvs[j];
      fail(r,
           fmt::format("rank {} receives from rank {} with tag {}, and rank {} never sends to {} with tag {}", r.dst,
                       r.src, r.tag, r.src, r.dst, r.tag),
           "every receive matched by one send (same ranks, same tag, same length)");
    }
    size_t ei = i, ej = j;
    while (ei < sends.size() && sends[ei].key() == sends[i].key()) ++ei;
    while (ej < recvs.size() && recvs[ej].key() == recvs[j].key()) ++ej;
    // The k-th send of a (src, dst, tag) is received by the k-th receive: the oldest unmatched message.
    for (size_t k = 0; k < std::min(ei - i, ej - j); ++k) {
      // A step's receives see the messages of its own and earlier steps: what barriers
      // (--sync barrier), the static checker and the per-step reports assume.
      if (recvs[j + k].step < sends[i + k].step)
        fail(recvs[j + k],
             fmt::format("receives in step {} the message rank {} sends in step {} ({})", recvs[j + k].step,
                         sends[i + k].src, sends[i + k].step, sends[i + k].path),
             "a receive in its send's step or a later one");
      if (sends[i + k].words != recvs[j + k].words)
        fail(recvs[j + k],
             fmt::format("receives {} words, and the matching send ({}) sends {}", recvs[j + k].words,
                         sends[i + k].path, sends[i + k].words),
             "a receive as long as its send");
    }
    if (ei - i > ej - j)
      fail(sends[i + (ej - j)],
           fmt::format("rank {} sends {} messages to rank {} with tag {}, rank {} receives {}", sends[i].src, ei - i,
                       sends[i].dst, sends[i].tag, sends[i].dst, ej - j),
           "every send matched by one receive (same ranks, same tag, same length)");
    if (ej - j > ei - i)
      fail(recvs[j + (ei - i)],
           fmt::format("rank {} receives {} messages from rank {} with tag {}, rank {} sends {}", recvs[j].dst, ej - j,
                       recvs[j].src, recvs[j].tag, recvs[j].src, ei - i),
           "every receive matched by one send (same ranks, same tag, same length)");
    i = ei;
    j = ej;
  }
}

}  // namespace wn::alg::file
