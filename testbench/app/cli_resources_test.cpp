// Resources: what the refusals of cli_bad_input_resources_test.cpp leave
// running must stay bounded, by structure rather than by the clock: the hypercube layout's
// arithmetic near 2^32, synth's deadline and memory guard (nothing is built past them), a damaged
// synth cache entry rebuilt, and traffic's source queues (a count, not packets) with
// --source-queue-limit counting what it refuses.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "algorithms/families/hypercube/hypercube.h"
#include "algorithms/registry.h"
#include "algorithms/synth/encode.h"
#include "algorithms/synth/synth.h"
#include "cli_helpers.h"
#include "systemc/core/config_error.h"

namespace wn {
namespace {

using test::CliRun;
using test::read_json;
using test::wormnet;

std::string dir(const std::string& name) {
  const std::string d = std::string(WN_BINARY_DIR) + "/cli_resources/" + name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// --elements near 2^32: M + N - 1 wrapped to a block size of 0 (SIGFPE). The schedule itself is
// small (the node memory is what the check refuses), so it is built here directly: every block
// has ceil(M/N) elements but the last non-empty one, they add up to M, and no range leaves memory.
TEST(Resources, DcyclesReduceLayoutNearTwoToTheThirtyTwo) {
  for (const uint64_t m :
       {uint64_t{4294967295}, uint64_t{4294967295} - 5, uint64_t{4294967289}, uint64_t{3000000001}}) {
    SCOPED_TRACE(m);
    const Topology topo = Topology::parse("cube:3");
    alg::AlgorithmArgs a;
    a.words = 1;
    a.options.set_word("--order", "binary");
    a.options.set_number("--elements", m);
    const alg::Schedule s = alg::build_hc_dcycles_reduce(topo, a);
    EXPECT_EQ(s.memory_words, uint32_t(m));
    const uint64_t n = 8, d = 3, c = (m + n - 1) / n, full = m / c;
    ASSERT_GT(c, 0u);
    auto size = [&](uint64_t j) { return j < full ? c : j == full ? m - full * c : 0; };
    uint64_t ranges = 0;
    for (const auto& prog : s.programs)
      for (const auto& st : prog)
        for (const auto& snd : st.sends)
          for (const auto& r : snd.src) {
            // Slot i of block j: words j*c + i, + d, ...: ceil((size_j - i) / d) of them, inside memory.
            const uint64_t j = r.offset / c, i = r.offset % c;
            ASSERT_LT(j, n);
            ASSERT_LT(i, d);
            EXPECT_EQ(r.stride, d);
            EXPECT_EQ(r.count, (size(j) - i + d - 1) / d) << "block " << j << " slot " << i;
            EXPECT_LE(r.end(), m);
            ++ranges;
          }
    EXPECT_EQ(ranges, 8u * 7u * 3u);  // every node, every step, every slot: no block is empty here
  }
}

// The refusal names the largest M on this network, and that value is the host limit's.
TEST(Resources, ElementsRefusalNamesTheLargestThatFits) {
  const CliRun r = wormnet("run --topology cube:4 --algorithm hc-dcycles-reduce --elements 4294967295");
  EXPECT_EQ(r.code, 2) << r.out;
  const uint64_t most = alg::node_memory_limit_bytes() / (4 * 16);
  EXPECT_NE(r.out.find("allowed: at most " + std::to_string(most) + " elements on cube:4"), std::string::npos) << r.out;
  // One more is refused: the check is exact, not rounded.
  const CliRun over =
      wormnet("check --topology cube:4 --algorithm hc-dcycles-reduce --elements " + std::to_string(most + 1));
  EXPECT_EQ(over.code, 2) << over.out;
  EXPECT_NE(over.out.find("error: --elements"), std::string::npos) << over.out;
}

// --timeout bounds building: a deadline that passes while the routes are built ends the synthesis
// there (no encoding, no solver call), and the command says so.
TEST(Resources, SynthTimeoutEndsWhileBuildingTheRoutes) {
  const alg::synth::Result r = [] {
    alg::synth::Request q;
    q.ports = 3;
    q.timeout_s = 1e-9;  // passed before the first row of routes is done
    return alg::synth::synthesize(Topology::parse("mesh:16x16"), q);
  }();
  EXPECT_TRUE(r.build_timed_out);
  EXPECT_FALSE(r.found);
  EXPECT_TRUE(r.attempts.empty());
  const CliRun c = wormnet("synth --topology mesh:16x16 --ports 3 --timeout 0.001 --no-cache");
  EXPECT_EQ(c.code, 1) << c.out;
  EXPECT_NE(c.out.find("while building the routes and candidate messages (--timeout)"), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find("clauses"), std::string::npos) << c.out;  // no attempt was encoded
  EXPECT_NE(c.out.find("no schedule found"), std::string::npos) << c.out;
}

// --timeout bounds encoding: an encoder whose deadline has passed adds no step (one clause: the
// constant) and reports a timeout; a step whose estimated memory exceeds the host limit is not
// built either ("memory").
TEST(Resources, SynthEncoderBuildsNothingPastTheDeadlineOrTheMemoryLimit) {
  namespace d = alg::synth::detail;
  const Topology topo = Topology::parse("mesh:5x5");  // 3 steps from the centre with 4 ports: SAT at once
  alg::synth::Request q;
  q.ports = 4;
  q.source = 12;
  const std::vector<bool> avoided(25, false);
  const d::Budget plenty(600);
  const d::Net net = d::build_net(topo, q, avoided, true, plenty);
  {
    const d::Budget gone(0);
    d::Encoder enc(net, q, gone, 0);
    const alg::synth::Attempt a = enc.solve(3, nullptr);
    EXPECT_EQ(a.result, "timeout");
    EXPECT_EQ(a.clauses, 1u);
    EXPECT_TRUE(enc.broken());
    EXPECT_EQ(enc.solve(4, nullptr).result, "timeout");  // and stays stopped
  }
  {
    d::Encoder enc(net, q, plenty, uint64_t{1} << 62);
    const alg::synth::Attempt a = enc.solve(3, nullptr);
    EXPECT_EQ(a.result, "memory");
    EXPECT_EQ(a.clauses, 1u);
    EXPECT_GT(a.memory_bytes, a.memory_limit);
    EXPECT_EQ(a.memory_limit, alg::node_memory_limit_bytes());
  }
  // The estimate counts what the encoder builds: within 10 % of the clauses of 3 steps.
  d::Encoder enc(net, q, plenty, 0);
  const alg::synth::Attempt a = enc.solve(3, nullptr);
  EXPECT_EQ(a.result, "SAT");
  const alg::synth::MemoryEstimate e = alg::synth::estimate_memory(topo, q);
  const double estimated = double(2 * e.layer_clauses);  // steps 2 and 3 (step 1: the root's messages)
  EXPECT_NEAR(double(a.clauses), estimated, 0.1 * estimated) << a.clauses << " clauses";
}

// A synth cache entry is untrusted: a damaged one (cut short, a message dropped or doubled, numbers
// out of range or not integers, found false) is ignored, searched again and replaced; the run
// never reports an error about --schedule, which the user did not give.
TEST(Resources, DamagedSynthCacheEntriesAreRebuilt) {
  const std::string cache = dir("synth_cache");
  setenv("WORMNET_SYNTH_CACHE", cache.c_str(), 1);
  const std::string cmd = "run --topology mesh:4x4 --ports 3 --algorithm synth-broadcast --bytes 16";
  ASSERT_EQ(wormnet(cmd).code, 0);
  std::string file;
  for (const auto& e : std::filesystem::directory_iterator(cache)) file = e.path().string();
  ASSERT_FALSE(file.empty());
  const nlohmann::json good = read_json(file);
  const Topology topo = Topology::parse("mesh:4x4");
  auto with = [&](const std::function<void(nlohmann::json&)>& f) {
    nlohmann::json j = good;
    f(j);
    return j.dump();
  };
  const std::vector<std::pair<std::string, std::string>> damaged = {
      {"cut", good.dump().substr(0, good.dump().size() / 2)},
      {"empty", ""},
      {"drop", with([](nlohmann::json& j) { j["messages"].erase(j["messages"].size() - 1); })},
      {"double", with([](nlohmann::json& j) { j["messages"].push_back(j["messages"][0]); })},
      {"float step", with([](nlohmann::json& j) { j["messages"][0][0] = 0.5; })},
      {"huge node", with([](nlohmann::json& j) { j["messages"][0][2] = 1e30; })},
      {"wrapping node", with([](nlohmann::json& j) { j["messages"][0][2] = uint64_t{4294967308}; })},
      {"steps 1e9", with([](nlohmann::json& j) { j["steps"] = 1000000000; })},
      {"steps -1", with([](nlohmann::json& j) { j["steps"] = -1; })},
      {"not found", with([](nlohmann::json& j) { j["found"] = false; })},
      {"ports text", with([](nlohmann::json& j) { j["ports"] = "3"; })},
  };
  for (const auto& [what, text] : damaged) {
    SCOPED_TRACE(what);
    EXPECT_THROW(alg::synth::from_json(text, topo, nullptr), ConfigError);
    std::ofstream(file, std::ios::trunc) << text;
    const CliRun r = wormnet(cmd);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.find("--schedule"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
    // Replaced by a good entry.
    std::ifstream in(file);
    const std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NO_THROW(alg::synth::from_json(now, topo, nullptr));
  }
  unsetenv("WORMNET_SYNTH_CACHE");
}

nlohmann::json traffic(const std::string& d, const std::string& name, const std::string& args,
                       std::string* text = nullptr) {
  const std::string json = d + "/" + name + ".json";
  const CliRun r = wormnet("traffic " + args + " --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  if (text) *text = r.out;
  return read_json(json);
}

// The sources draw the same packets whatever the queues hold: a limit only turns some of them
// into refused ones, so created + refused is the unlimited run's created, and offered is equal.
TEST(Resources, SourceQueueLimitCountsRefusedPackets) {
  const std::string d = dir("queue_limit");
  const std::string base = "--topology mesh:4x4 --rate 0.9 --cycles 2000 --warmup 100";
  std::string text;
  const nlohmann::json free = traffic(d, "free", base);
  const nlohmann::json four = traffic(d, "four", base + " --source-queue-limit 4", &text);
  const nlohmann::json one = traffic(d, "one", base + " --source-queue-limit 1");
  EXPECT_FALSE(free["packets"].contains("refused"));
  EXPECT_FALSE(free["config"].contains("source_queue_limit"));
  EXPECT_EQ(four["config"]["source_queue_limit"], 4);
  const uint64_t refused4 = four["packets"]["refused"], refused1 = one["packets"]["refused"];
  EXPECT_GT(refused4, 0u);
  EXPECT_GT(refused1, refused4);
  for (const auto* j : {&four, &one}) {
    EXPECT_EQ((*j)["packets"]["created"].get<uint64_t>() + (*j)["packets"]["refused"].get<uint64_t>(),
              free["packets"]["created"].get<uint64_t>());
    EXPECT_EQ((*j)["packets"]["created"], (*j)["packets"]["delivered"]);  // the accepted ones all arrive
    EXPECT_EQ((*j)["throughput"]["offered"], free["throughput"]["offered"]);
    EXPECT_TRUE((*j)["ok"].get<bool>());
  }
  EXPECT_NE(text.find(std::to_string(refused4) + " refused (source queue full: --source-queue-limit 4)"),
            std::string::npos)
      << text;
}

// Below saturation a limit that is never reached changes nothing but the two keys that name it.
TEST(Resources, SourceQueueLimitNeverReachedChangesNothing) {
  const std::string d = dir("queue_unreached");
  const std::string base = "--topology torus:4x4 --ports all --rate 0.1 --cycles 3000 --seed 9";
  nlohmann::json a = traffic(d, "free", base);
  nlohmann::json b = traffic(d, "limit", base + " --source-queue-limit 1000");
  EXPECT_EQ(b["packets"]["refused"], 0);
  b["packets"].erase("refused");
  b["config"].erase("source_queue_limit");
  EXPECT_EQ(a, b);
}

// Sweep specs of command traffic take the option like the command (same parser).
TEST(Resources, SweepSpecTakesTheSourceQueueLimit) {
  const std::string d = dir("queue_sweep");
  std::ofstream(d + "/s.yaml") << "command: traffic\ntopology: mesh:4x4\nrate: 0.9\ncycles: 1000\nwarmup: 100\n"
                                  "source-queue-limit: [0, 2]\n";
  const CliRun r = wormnet("sweep " + d + "/s.yaml --out " + d + "/s.jsonl");
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream in(d + "/s.jsonl");
  std::string line;
  std::vector<nlohmann::json> points;
  while (std::getline(in, line)) points.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(points.size(), 2u);
  const auto& limited = points[0]["config"].contains("source_queue_limit") ? points[0] : points[1];
  const auto& free = points[0]["config"].contains("source_queue_limit") ? points[1] : points[0];
  EXPECT_EQ(limited["config"]["source_queue_limit"], 2);
  EXPECT_GT(limited["packets"]["refused"].get<uint64_t>(), 0u);
  EXPECT_EQ(limited["packets"]["created"].get<uint64_t>() + limited["packets"]["refused"].get<uint64_t>(),
            free["packets"]["created"].get<uint64_t>());
  std::ofstream(d + "/bad.yaml") << "command: traffic\nsource-queue-limit: lots\n";
  const CliRun refused = wormnet("sweep " + d + "/bad.yaml --out " + d + "/bad.jsonl");
  EXPECT_EQ(refused.code, 2) << refused.out;
  EXPECT_NE(refused.out.find("--source-queue-limit"), std::string::npos) << refused.out;
}

// bench's budget: within it a bench runs, past it the refusal's "at most" is the exact boundary.
TEST(Resources, BenchBudgetIsExact) {
  const CliRun ok = wormnet("bench --topologies mesh:4x4 --backends model --cycles 300 --repeat 1");
  EXPECT_EQ(ok.code, 0) << ok.out;
  // 24 routers: 24 x c + 24 x 20 x 4000 (the default --rtl-cycles, an RTL cycle counting 20) <= 10^10.
  const uint64_t most = (uint64_t{10000000000} - 24 * 20 * 4000) / 24;
  const CliRun over = wormnet("bench --topologies mesh:4x4,cube:3 --backends model,rtl --repeat 1 --cycles " +
                              std::to_string(most + 1));
  EXPECT_EQ(over.code, 2) << over.out;
  EXPECT_NE(over.out.find("error: --cycles"), std::string::npos) << over.out;
  EXPECT_NE(over.out.find("at most " + std::to_string(most) + " here"), std::string::npos) << over.out;
}

// Under a 4 GB address-space limit (ulimit -v 4000000) the inputs of
// cli_bad_input_resources_test.cpp are refused in one line (exit 2) or run in bounded memory
// (exit 0): never a signal, never the OOM killer.
TEST(Resources, UnderFourGigabytesOfAddressSpaceNothingCrashes) {
  const std::vector<std::pair<std::string, int>> cases = {
      {"run --topology cube:3 --algorithm hc-dcycles-reduce --elements 4294967295", 2},
      {"run --topology cube:6 --algorithm hc-dcycles-reduce --elements 1000000000", 2},
      {"synth --topology cube:12 --ports all --timeout 1", 2},
      {"bench --cycles 1000000000000", 2},
      {"traffic --topology mesh:8x8 --rate 0.9 --cycles 40000 --drain 1", 0},
      {"traffic --topology mesh:8x8 --rate 0.9 --cycles 20000 --drain 1 --source-queue-limit 3", 0},
  };
  for (const auto& [args, code] : cases) {
    const std::string cmd =
        "sh -c 'ulimit -v 4000000; exec " + std::string(WN_BINARY_DIR) + "/wormnet " + args + "' > /dev/null 2>&1";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << args << ": killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), code) << args;
  }
}

}  // namespace
}  // namespace wn
