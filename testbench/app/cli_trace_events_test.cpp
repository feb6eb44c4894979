// `wormnet run --trace-events` (docs/guide/run.md#trace-events): the file keeps the Trace Event
// Format; every packet of every message holds exactly the channels of its path, once each; a VC
// holds one packet at a time and its holds add up to the report's busy cycles; a packet's head
// waits add up to its head's lag, and never to more than its message's delay per class; the same
// run writes the same bytes on the model and in lock-step, on one thread or two.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <filesystem>

#include "experiments/collective_report_util.h"
#include "systemc/topology/topology.h"
#include "testbench/app/cli_helpers.h"
#include "testbench/app/trace_events_helpers.h"

namespace wn::test {
namespace {

const std::string kEdn = "--algorithm edn-broadcast --topology mesh:8x8";
const std::string kCombine = "--algorithm ccl-combine --topology torus:4x4";
const char* const kClasses[] = {"stepwise", "depth", "port", "flow"};

struct Traced {
  nlohmann::json report;
  Trace trace;
  std::string text;
};

Traced run_traced(const std::string& name, const std::string& args) {
  const std::string d = fresh_dir("trace_events", name);
  const auto r = wormnet("run " + args + " --no-progress --json " + d + "/r.json --trace-events " + d + "/t.json");
  EXPECT_EQ(r.code, 0) << r.out;
  Traced t;
  t.report = read_json(d + "/r.json");
  t.text = slurp(d + "/t.json");
  read_trace(nlohmann::json::parse(t.text), t.trace);
  return t;
}

// "+x vc1" -> "+x vc", "eject 0" -> "eject", "inject 0" -> "inject".
std::string track_kind(std::string t) {
  while (!t.empty() && (std::isdigit(static_cast<unsigned char>(t.back())) || t.back() == ' ')) t.pop_back();
  return t;
}

std::map<uint64_t, std::set<uint64_t>> packets_of_messages(const Trace& t) {
  std::map<uint64_t, std::set<uint64_t>> m;
  for (const Span& s : t.spans)
    if (s.cat == "channel") m[s.args["message"]].insert(s.args["packet"].get<uint64_t>());
  return m;
}

// Each packet: its node's injection channel, the output VC of every router on its path towards
// the next, its destination's ejection channel, one span each and nothing more, named by its message.
void every_packet_on_its_path(const Traced& r) {
  const Topology topo = Topology::parse(r.report["config"]["topology"].get<std::string>());
  std::map<uint64_t, std::vector<const Span*>> by_packet;
  for (const Span& s : r.trace.spans)
    if (s.cat == "channel") by_packet[s.args["packet"]].push_back(&s);
  auto packets = packets_of_messages(r.trace);
  ASSERT_FALSE(r.report["message_log"].empty());
  for (const auto& m : r.report["message_log"]) {
    const int src = m["src"], dst = m["dst"];
    const auto path = m["path"].get<std::vector<int>>();
    const auto links = topo.links(src, dst);
    ASSERT_EQ(path.size(), links.size() + 1) << m;
    std::multiset<std::string> want = {fmt::format("router {} inject", src), fmt::format("router {} eject", dst)};
    for (size_t i = 0; i < links.size(); ++i) {
      ASSERT_EQ(links[i].router, path[i]) << m;
      want.insert(fmt::format("router {} {} vc", path[i], fw::report::output_name(topo, links[i].port)));
    }
    const auto& pk = packets[m["id"]];
    ASSERT_EQ(pk.size(), m["packets"].get<size_t>()) << m;
    const std::string name = fmt::format("m{} {}->{} s{}", m["id"].get<int>(), src, dst, m["step"].get<int>());
    for (uint64_t p : pk) {
      std::multiset<std::string> got;
      for (const Span* s : by_packet[p]) {
        got.insert(s->process + " " + track_kind(s->thread));
        EXPECT_EQ(s->name, name);
      }
      EXPECT_EQ(got, want) << "message " << m["id"] << " packet " << p;
    }
  }
}

// Wormhole: one packet at a time per VC (and per ejection or injection channel); the report's
// vc_busy counts edges from a head to its tail, a span also the tail's cycle.
void channels_hold_one_packet_at_a_time(const Traced& r) {
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<uint64_t, uint64_t>>> tracks;
  for (const Span& s : r.trace.spans)
    if (s.cat == "channel") tracks[{s.process, s.thread}].push_back({s.start, s.end});
  for (auto& [k, v] : tracks) {
    std::sort(v.begin(), v.end());
    for (size_t i = 1; i < v.size(); ++i)
      EXPECT_LE(v[i - 1].second, v[i].first) << k.first << " / " << k.second << ": two packets at once";
  }
  size_t compared = 0;
  for (const auto& c : r.report["channels"]) {
    if (!c.contains("vc_busy")) continue;  // an injection channel
    const std::string out = c["output"];
    const bool eject = out.rfind("eject", 0) == 0;
    for (size_t w = 0; w < (eject ? 1 : c["vc_busy"].size()); ++w) {
      const auto it =
          tracks.find({fmt::format("router {}", c["router"].get<int>()), eject ? out : fmt::format("{} vc{}", out, w)});
      uint64_t busy = 0, n = 0;
      if (it != tracks.end())
        for (const auto& [s, e] : it->second) busy += e - s, ++n;
      EXPECT_EQ(busy, c["vc_busy"][w].get<uint64_t>() + n) << c;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0u);
}

// The delay view's head waits: per packet they are its head's lag at the ejection channel (the
// edge its head took it - start - the zero-load pipeline, i.e. the zero load less the flits behind
// the head, one per cycle, and the tail's own cycle); per message and class at most its delay
// (the rest: body flits that fell behind).
void head_waits_are_the_heads_lag(const Traced& r, bool contention) {
  std::map<uint64_t, std::array<uint64_t, 4>> waited;
  std::map<uint64_t, const Span*> ejected;
  uint64_t total = 0;
  for (const Span& s : r.trace.spans) {
    if (s.cat == "channel" && track_kind(s.thread) == "eject") ejected[s.args["packet"]] = &s;
    if (s.cat != "wait") continue;
    const auto cls = std::find(std::begin(kClasses), std::end(kClasses), s.name) - std::begin(kClasses);
    ASSERT_LT(cls, 4) << s.name;
    EXPECT_EQ(s.args["cycles"].get<uint64_t>(), s.end - s.start);
    waited[s.args["packet"]][size_t(cls)] += s.end - s.start;
    total += s.end - s.start;
  }
  auto packets = packets_of_messages(r.trace);
  size_t exact = 0;
  for (const auto& m : r.report["message_log"]) {
    std::array<uint64_t, 4> sum{};
    for (uint64_t p : packets[m["id"]])
      for (size_t c = 0; c < 4; ++c) sum[c] += waited[p][c];
    for (size_t c = 0; c < 4; ++c) EXPECT_LE(sum[c], m["delay"][kClasses[c]].get<uint64_t>()) << m;
    if (m["packets"] != 1) continue;
    const uint64_t p = *packets[m["id"]].begin();
    const Span* e = ejected[p];
    ASSERT_NE(e, nullptr) << m;
    const int64_t start = m.value("latency_from", m["head_injected"].get<int64_t>());
    const int64_t flits = e->args["flits"], zero_load = m["zero_load"];
    EXPECT_EQ(int64_t(sum[0] + sum[1] + sum[2] + sum[3]), int64_t(e->start) - start - (zero_load - (flits - 1) - 1))
        << m;
    ++exact;
  }
  EXPECT_GT(exact, 0u);
  if (contention) EXPECT_GT(total, 0u);
}

// Flits in flight: from cycle 0, a sample where the count changed, none left at the end.
void flits_counter(const Traced& r) {
  const auto& f = r.trace.flits;
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.front().first, 0u);
  for (size_t i = 1; i < f.size(); ++i) {
    EXPECT_LT(f[i - 1].first, f[i].first);
    EXPECT_NE(f[i - 1].second, f[i].second);
  }
  EXPECT_EQ(f.back().second, 0u);
}

void node_tracks(const Traced& r) {
  size_t steps = 0, sends = 0, recvs = 0;
  for (const Span& s : r.trace.spans) {
    steps += s.cat == "step";
    sends += s.cat == "send" && s.name != "startup";
    recvs += s.cat == "recv";
  }
  const size_t messages = r.report["message_log"].size();
  EXPECT_EQ(sends, messages);
  EXPECT_EQ(recvs, messages);
  size_t node_steps = 0;
  for (const auto& n : r.report["node_steps"]) node_steps += n.size();
  EXPECT_EQ(steps, node_steps);
}

void check_all(const Traced& r, bool contention) {
  every_packet_on_its_path(r);
  channels_hold_one_packet_at_a_time(r);
  head_waits_are_the_heads_lag(r, contention);
  flits_counter(r);
  node_tracks(r);
}

TEST(TraceEvents, EdnBroadcastMesh8x8) { check_all(run_traced("edn", kEdn), true); }
TEST(TraceEvents, CclCombineTorus4x4) { check_all(run_traced("combine", kCombine), true); }

TEST(TraceEvents, ModelAndLockstepWriteTheSameFile) {
  for (const std::string& args : {kEdn, kCombine})
    EXPECT_EQ(run_traced("model", args).text, run_traced("lockstep", args + " --backend lockstep").text) << args;
}

TEST(TraceEvents, OneAndTwoThreadsWriteTheSameFile) {
  for (const std::string& args : {kEdn, kCombine})
    EXPECT_EQ(run_traced("t1", args + " --threads 1").text, run_traced("t2", args + " --threads 2").text) << args;
}

// The processor's local operations take their profile's cycles: a copy one per word, a combine
// two, a barrier at least its cost (after step 0).
TEST(TraceEvents, LocalOperations) {
  const Traced r =
      run_traced("local", kCombine + " --copy-cycles 1 --combine-cycles 2 --sync barrier --barrier-cycles 10");
  check_all(r, false);
  std::map<std::string, size_t> kinds;
  for (const Span& s : r.trace.spans) {
    if (s.cat != "local") continue;
    ++kinds[s.name];
    EXPECT_EQ(s.thread, "local");
    const uint64_t words = s.args["words"];
    if (s.name == "copy") EXPECT_EQ(s.end - s.start, words);
    if (s.name == "combine") EXPECT_EQ(s.end - s.start, 2 * words);
    if (s.name == "barrier") EXPECT_GT(s.end, s.start);
  }
  EXPECT_GT(kinds["copy"], 0u);
  EXPECT_GT(kinds["combine"], 0u);
  EXPECT_GT(kinds["barrier"], 0u);
}

// Firmware of your own has the same data (its messages, the steps it declares, every channel).
TEST(TraceEvents, FirmwarePlugin) {
  const Traced r =
      run_traced("plugin", "--firmware " + std::string(WN_BINARY_DIR) + "/libccl_grid_plugin.so --topology mesh:4x4");
  every_packet_on_its_path(r);
  channels_hold_one_packet_at_a_time(r);
  head_waits_are_the_heads_lag(r, false);
  node_tracks(r);
}

// Recording changes nothing the run reports.
TEST(TraceEvents, TheReportIsTheSameWithATrace) {
  const std::string d = fresh_dir("trace_events", "same_report");
  ASSERT_EQ(wormnet("run " + kCombine + " --no-progress --json " + d + "/a.json").code, 0);
  ASSERT_EQ(wormnet("run " + kCombine + " --no-progress --json " + d + "/b.json --trace-events " + d + "/t.json").code,
            0);
  EXPECT_EQ(slurp(d + "/a.json"), slurp(d + "/b.json"));
}

// A folder is refused before the run, in one line naming the option (exit 2).
TEST(TraceEvents, ADirectoryIsRefused) {
  const std::string d = fresh_dir("trace_events", "directory");
  const auto r = wormnet("run " + kEdn + " --trace-events " + d);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out.rfind("error: --trace-events: ", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_TRUE(std::filesystem::is_directory(d));
}

}  // namespace
}  // namespace wn::test
