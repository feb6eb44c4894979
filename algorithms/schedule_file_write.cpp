// Schedule files written by wormnet (`export`, `synth --out`): one step per line, defaults
// left out, so a file is as readable as one written by hand and diffs step by step.
#include <fmt/format.h>

#include "algorithms/schedule_file.h"

namespace wn::alg {

using json = nlohmann::ordered_json;

namespace {

json ranges_json(const std::vector<Range>& rs) {
  json out = json::array();
  for (const Range& r : rs) {
    if (r.stride == 1)
      out.push_back({r.offset, r.count});
    else
      out.push_back({r.offset, r.count, r.stride});
  }
  return out;
}

void put_combine(json& j, const Combine& c) {
  if (c.op != kCopy) j["op"] = combine_ops()[c.op].name;
  if (c.incoming_first) j["incoming_first"] = true;
}

json locals_json(const std::vector<LocalOp>& ops) {
  json out = json::array();
  for (const LocalOp& l : ops) {
    json x = {{"src", ranges_json(l.src)}, {"dst", ranges_json(l.dst)}};
    put_combine(x, l.combine);
    if (l.indexed) x["indexed"] = true;
    out.push_back(std::move(x));
  }
  return out;
}

json step_json(const Step& st) {
  json j = {{"step", st.tag}};
  if (!st.locals.empty()) j["locals"] = locals_json(st.locals);
  if (!st.sends.empty()) {
    json& sends = j["sends"] = json::array();
    for (const Send& m : st.sends) {
      json x = {{"dst", m.dst}, {"src", ranges_json(m.src)}};
      if (m.tag != st.tag) x["tag"] = m.tag;
      if (m.channel >= 0) x["channel"] = m.channel;
      sends.push_back(std::move(x));
    }
  }
  if (!st.recvs.empty()) {
    json& recvs = j["recvs"] = json::array();
    for (const Recv& r : st.recvs) {
      json x = {{"src", r.src}, {"dst", ranges_json(r.dst)}};
      if (r.tag != st.tag) x["tag"] = r.tag;
      put_combine(x, r.combine);
      recvs.push_back(std::move(x));
    }
  }
  if (!st.after.empty()) j["after"] = locals_json(st.after);
  if (st.multiport_send) j["multiport_send"] = true;
  return j;
}

json words_json(const std::vector<MemoryWords>& list) {
  json out = json::array();
  for (const auto& e : list) out.push_back({{"rank", e.rank}, {"offset", e.offset}, {"words", e.words}});
  return out;
}

}  // namespace

std::string schedule_file_text(const ScheduleFile& f) {
  std::string s = "{\n";
  auto key = [&](const char* k, const json& v) { s += fmt::format("  \"{}\": {},\n", k, v.dump()); };
  key("schema", kScheduleSchema);
  key("name", f.name);
  key("ranks", f.ranks);
  key("memory_words", f.memory_words);
  if (f.collective) {
    const CollectiveClaim& c = *f.collective;
    json j = {{"kind", collective_name(c.kind)}, {"words", c.words}};
    if (collective_rooted(c.kind)) j["root"] = c.root;
    if (collective_reduces(c.kind)) j["op"] = combine_ops()[c.op].name;
    key("collective", j);
  }
  if (!f.initial.empty()) key("initial", words_json(f.initial));
  if (!f.expected.empty()) key("expected", words_json(f.expected));
  if (!f.synth.is_null()) key("synth", f.synth);
  if (!f.meta.is_null()) key("meta", f.meta);
  s += "  \"programs\": [";
  bool first_rank = true;
  for (size_t r = 0; r < f.programs.size(); ++r) {
    if (f.programs[r].empty()) continue;
    s += fmt::format("{}\n    {{\"rank\": {}, \"steps\": [", first_rank ? "" : ",", r);
    first_rank = false;
    for (size_t i = 0; i < f.programs[r].size(); ++i)
      s += fmt::format("{}\n      {}", i ? "," : "", step_json(f.programs[r][i]).dump());
    s += "\n    ]}";
  }
  s += first_rank ? "]\n}\n" : "\n  ]\n}\n";
  return s;
}

}  // namespace wn::alg
