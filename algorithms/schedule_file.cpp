#include "algorithms/schedule_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "algorithms/registry.h"
#include "algorithms/schedule_file_steps.h"

namespace wn::alg {

using file::Value;
using nlohmann::json;

const std::vector<std::string>& collective_kinds() {
  static const std::vector<std::string> k = {"broadcast", "reduce",    "allreduce", "gather",
                                             "scatter",   "allgather", "alltoall",  "reduce_scatter"};
  return k;
}
const std::string& collective_name(CollectiveKind k) { return collective_kinds()[size_t(k)]; }
bool collective_rooted(CollectiveKind k) {
  return k == CollectiveKind::Broadcast || k == CollectiveKind::Reduce || k == CollectiveKind::Gather ||
         k == CollectiveKind::Scatter;
}
bool collective_reduces(CollectiveKind k) {
  return k == CollectiveKind::Reduce || k == CollectiveKind::Allreduce || k == CollectiveKind::ReduceScatter;
}
uint64_t collective_memory_words(CollectiveKind k, uint64_t w, uint64_t n) {
  switch (k) {
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce:
    case CollectiveKind::Allreduce:
      return w;
    case CollectiveKind::Alltoall:
      return 2 * n * w;
    default:
      return n * w;
  }
}

namespace {

constexpr int kMaxDepth = 32;  // the format nests 7 deep; deeper is refused before the JSON parser recurses

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Line and column of a byte offset (1-based), for syntax errors.
std::pair<size_t, size_t> line_col(const std::string& text, size_t byte) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else
      ++col;
  }
  return {line, col};
}

json parse_json(const std::string& text, const std::string& path) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\')
        ++i;
      else if (ch == '"')
        in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > kMaxDepth) {
        const auto [l, c] = line_col(text, i);
        file::refuse(path, "", fmt::format("nested more than {} deep at line {} column {}", kMaxDepth, l, c),
                     fmt::format("the format's own nesting ({})", kScheduleSchema));
      }
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
  // Each object's keys once: JSON leaves duplicates to the reader, and a second "steps" would
  // silently replace the first.
  std::vector<std::set<std::string>> keys;
  std::string duplicate;
  const json::parser_callback_t once = [&](int, json::parse_event_t ev, json& parsed) {
    if (ev == json::parse_event_t::object_start)
      keys.emplace_back();
    else if (ev == json::parse_event_t::object_end && !keys.empty())
      keys.pop_back();
    else if (ev == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
             duplicate.empty())
      duplicate = parsed.get<std::string>();
    return true;
  };
  json doc;
  try {
    doc = json::parse(text, once);
  } catch (const json::parse_error& e) {
    const auto [l, c] = line_col(text, e.byte == 0 ? 0 : e.byte - 1);
    file::refuse(path, "", fmt::format("not valid JSON: syntax error at line {} column {}", l, c),
                 fmt::format("a JSON document ({})", kScheduleSchema));
  } catch (const json::exception&) {  // a number beyond 64 bits (1e400)
    file::refuse(path, "", "a number too large for 64 bits", "integers 0..18446744073709551615");
  }
  if (!duplicate.empty())
    file::refuse(path, "", fmt::format("the key '{}' twice in one object", duplicate), "each key once per object");
  return doc;
}

std::string name_of(const Value& v) {
  const std::string allowed = "a name of 1..64 printable characters without quotes, commas or backslashes";
  const std::string s = v.string(allowed);
  const bool bad = s.empty() || s.size() > 64 || std::any_of(s.begin(), s.end(), [](char ch) {
                     return ch < 0x20 || ch > 0x7e || ch == '"' || ch == ',' || ch == '\\';
                   });
  if (bad) v.fail(fmt::format("'{}' is not a name", s.size() > 64 ? s.substr(0, 61) + "..." : s), allowed);
  return s;
}

CollectiveClaim collective(const Value& v, int ranks, uint32_t memory_words) {
  v.object({"kind", "words", "root", "op"});
  CollectiveClaim c;
  const Value kind = v.need("kind", "a collective {\"kind\": K, \"words\": w, ...}");
  const std::string k = kind.string("one of " + join(collective_kinds()));
  auto it = std::find(collective_kinds().begin(), collective_kinds().end(), k);
  if (it == collective_kinds().end())
    kind.fail(fmt::format("unknown kind '{}'", k), "one of " + join(collective_kinds()));
  c.kind = CollectiveKind(it - collective_kinds().begin());
  const Value words = v.need("words", "the block size in words, \"words\": w");
  c.words = uint32_t(words.uint(1, memory_words));
  const uint64_t need = collective_memory_words(c.kind, c.words, uint64_t(ranks));
  if (need > memory_words)
    words.fail(fmt::format("a {} of {} words over {} ranks needs {} words of memory, memory_words is {}", k, c.words,
                           ranks, need, memory_words),
               fmt::format("words <= {}", memory_words / std::max<uint64_t>(1, need / c.words)));
  if (collective_rooted(c.kind))
    c.root = int(v.need("root", "\"root\": a rank (the " + k + " has one)").uint(0, uint64_t(ranks) - 1));
  else if (v.has("root"))
    v.at_key("root").fail(fmt::format("a {} has no root", k), "no root key for " + k);
  std::string reducing;
  for (const auto& op : combine_ops())
    if (op.fn) reducing += (reducing.empty() ? "" : ", ") + op.name;
  if (collective_reduces(c.kind)) {
    const Value op = v.need("op", "\"op\": the reduction operator (" + reducing + ")");
    const std::string name = op.string("one of " + reducing);
    const auto& ops = combine_ops();
    auto o = std::find_if(ops.begin(), ops.end(), [&](const CombineOpInfo& x) { return x.fn && x.name == name; });
    if (o == ops.end()) op.fail(fmt::format("unknown reduction operator '{}'", name), "one of " + reducing);
    c.op = OpId(o - ops.begin());
  } else if (v.has("op")) {
    v.at_key("op").fail(fmt::format("a {} reduces nothing", k), "no op key for " + k);
  }
  return c;
}

std::vector<MemoryWords> memory_words_list(const Value& v, int ranks, uint32_t memory_words) {
  const char* shape = "a list of {\"rank\": r, \"offset\": o, \"words\": [w0, w1, ...]}";
  v.array(shape);
  std::vector<MemoryWords> out;
  for (size_t i = 0; i < v.size(); ++i) {
    const Value e = v.item(i);
    e.object({"rank", "offset", "words"});
    MemoryWords m;
    m.rank = int(e.need("rank", shape).uint(0, uint64_t(ranks) - 1));
    m.offset = uint32_t(e.need("offset", shape).uint(0, memory_words - 1));
    const Value w = e.need("words", shape);
    w.array("a list of 32-bit words", memory_words - m.offset);
    for (size_t k = 0; k < w.size(); ++k) m.words.push_back(Word(w.item(k).uint(0, UINT32_MAX)));
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

ScheduleFile parse_schedule_file(const std::string& text, const std::string& path) {
  const json doc = parse_json(text, path);
  const Value top(path, doc, "");
  top.object(
      {"schema", "name", "ranks", "memory_words", "collective", "initial", "expected", "programs", "synth", "meta"});
  ScheduleFile f;
  f.path = path;
  const std::string schema_allowed = fmt::format("\"schema\": \"{}\"", kScheduleSchema);
  const Value schema = top.need("schema", schema_allowed);
  if (schema.string(schema_allowed) != kScheduleSchema)
    schema.fail(fmt::format("'{}' is not this format", schema.raw().get<std::string>()), schema_allowed);
  f.name = name_of(top.need("name", "\"name\": the algorithm's name in reports"));
  f.ranks = int(top.need("ranks", "\"ranks\": the number of ranks (>= 2)").uint(2, kMaxFileRanks));
  f.memory_words = uint32_t(top.need("memory_words", "\"memory_words\": 32-bit words per rank").uint(1, UINT32_MAX));
  if (top.has("collective")) f.collective = collective(top.at_key("collective"), f.ranks, f.memory_words);
  if (top.has("initial")) f.initial = memory_words_list(top.at_key("initial"), f.ranks, f.memory_words);
  if (top.has("expected")) f.expected = memory_words_list(top.at_key("expected"), f.ranks, f.memory_words);
  if (top.has("synth")) f.synth = top.at_key("synth").raw();
  if (top.has("meta")) f.meta = top.at_key("meta").raw();
  const Value programs = top.need("programs", "\"programs\": [{\"rank\": r, \"steps\": [...]}, ...]");
  programs.array("a list of {\"rank\": r, \"steps\": [...]}");
  f.programs.resize(size_t(f.ranks));
  f.program_paths.resize(size_t(f.ranks));
  std::vector<file::Endpoint> sends, recvs;
  for (size_t i = 0; i < programs.size(); ++i) {
    const Value p = programs.item(i);
    p.object({"rank", "steps"});
    const Value rv = p.need("rank", "a program {\"rank\": r, \"steps\": [...]}");
    const int r = int(rv.uint(0, uint64_t(f.ranks) - 1));
    if (!f.program_paths[size_t(r)].empty())
      rv.fail(fmt::format("rank {} has a program already ({})", r, f.program_paths[size_t(r)]), "one program per rank");
    f.program_paths[size_t(r)] = p.path();
    f.programs[size_t(r)] = file::program(p.need("steps", "a program {\"rank\": r, \"steps\": [...]}"),
                                          {r, f.ranks, f.memory_words}, sends, recvs, &f.steps);
  }
  f.messages = sends.size();
  f.steps = 0;  // largest step number + 1
  for (const auto& prog : f.programs)
    if (!prog.empty()) f.steps = std::max(f.steps, prog.back().tag + 1);
  file::match(path, sends, recvs);
  // Every receive is in its send's step or later (match()), so programs always complete with
  // buffered sends: a rank blocked in step s waits on a sender blocked in an earlier step, and
  // steps cannot decrease for ever.
  return f;
}

ScheduleFile read_schedule_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    file::refuse(path, "", "cannot be read (no such file)", "a wormnet.schedule/1 JSON file");
  if (!S_ISREG(st.st_mode)) file::refuse(path, "", "not a regular file", "a wormnet.schedule/1 JSON file");
  // The parsed document takes ~16x its text in host memory: keep both within the run's limit.
  const uint64_t limit = node_memory_limit_bytes() / 16;
  if (uint64_t(st.st_size) > limit)
    file::refuse(
        path, "", fmt::format("{} MiB", uint64_t(st.st_size) >> 20),
        fmt::format("schedule files up to {} MiB here (parsing needs about 16x the file in memory)", limit >> 20));
  std::ifstream in(path, std::ios::binary);
  if (!in) file::refuse(path, "", "cannot be read (permission denied)", "a readable wormnet.schedule/1 file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_schedule_file(ss.str(), path);
}

}  // namespace wn::alg
