// Firmware runtime semantics: exact zero-load message latency, serialized
// startups, one-port vs all-port injection, step ordering without a barrier,
// operators, stuck-firmware detection and the data check. Every TEST is its
// own process (one SystemC elaboration); lock-step backend unless
// WN_TEST_BACKEND says otherwise, so each is also an RTL-vs-model check.
#include <gtest/gtest.h>

#include <cstdlib>

#include "algorithms/cost_model.h"
#include "experiments/collective_run.h"
#include "firmware/firmware_run.h"
#include "firmware/schedule_interpreter.h"

namespace wn::fw {
namespace {

Backend test_backend() {
  const char* b = std::getenv("WN_TEST_BACKEND");
  return parse_backend(b ? b : "lockstep");
}

// A firmware run's network and options: the network resolved once, as the experiments do.
struct TestRun {
  NetworkSetup net;
  FirmwareRunOptions opt;
  FirmwareRunOptions* operator->() { return &opt; }
};

FirmwareRunResult run_firmware(const TestRun& t, const std::function<FirmwareFn(int)>& fw, uint32_t words,
                               const std::function<alg::Word(int, uint32_t)>& init) {
  return fw::run_firmware(t.net, t.opt, fw, words, init);
}

TestRun options(const std::string& topo, const std::string& ports, uint32_t alpha, uint32_t gamma) {
  NetworkParams np;
  np.backend = test_backend();
  TestRun o{NetworkSetup::resolve(topo, ports, np), {}};
  FirmwareRunOptions& opt = o.opt;
  opt.profile = find_profile("ideal");
  opt.profile.alpha = alpha;
  opt.profile.gamma = gamma;
  return o;
}

Word init_pattern(int node, uint32_t a) { return Word(node) * 100000u + a; }

const MessageRecord& find_msg(const FirmwareRunResult& r, int src, int dst) {
  for (const auto& m : r.log.messages)
    if (m.src == src && m.dst == dst) return m;
  static MessageRecord none;
  ADD_FAILURE() << "no message " << src << " -> " << dst;
  return none;
}

// send() issued -> receive completed = alpha + 3(h+1) + flits-1 + gamma, for
// several distances and lengths, with the data arriving intact.
TEST(FirmwareLatency, ZeroLoadMessageIsAlphaPlusPipelinePlusFlitsPlusGamma) {
  auto o = options("mesh:8x8", "one", 7, 5);
  const std::vector<std::pair<int, uint32_t>> cases = {{1, 1}, {63, 16}, {9, 3}, {56, 40}, {27, 1}};
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 0)
      return [&](NodeApi& api) {
        for (size_t i = 0; i < cases.size(); ++i) {
          SendOptions opt;
          opt.tag = uint32_t(i);
          api.wait_injected(api.send_ranges(cases[i].first, {{0, cases[i].second}}, opt));
          api.compute(400);  // far apart: no two messages meet
        }
      };
    for (size_t i = 0; i < cases.size(); ++i)
      if (cases[i].first == node)
        return [&, i](NodeApi& api) {
          const Message m = api.recv(0, uint32_t(i));
          api.store(m.words, {{1000, cases[i].second}}, Combine{});
        };
    return nullptr;
  };
  const auto r = run_firmware(o, fw, 2000, init_pattern);
  ASSERT_TRUE(r.ok) << r.error;
  alg::CostParams cp = o.opt.profile.cost_params(1, kShippedTiming);
  const Topology topo = Topology::parse("mesh:8x8");
  for (const auto& [dst, words] : cases) {
    const MessageRecord& m = find_msg(r, 0, dst);
    const int h = topo.hops(0, dst);
    EXPECT_EQ(m.completed - m.issued, uint64_t(7 + 3 * (h + 1) + (1 + int(words)) - 1 + 5)) << "dst " << dst;
    EXPECT_EQ(double(m.completed - m.issued), cp.message_cycles(h, words)) << "dst " << dst;
    EXPECT_EQ(m.posted - m.issued, 7u);
    for (uint32_t a = 0; a < words; ++a) EXPECT_EQ(r.memory[size_t(dst)][1000 + a], init_pattern(0, a));
  }
}

// k sends cost k*alpha before the last one starts, even on an all-port node.
TEST(FirmwareStartup, SendStartupsAreSerializedEvenOnSeparateChannels) {
  auto o = options("mesh:4x4", "all", 10, 0);
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 5)
      return [](NodeApi& api) {
        for (int d : {4, 6, 1, 9}) api.send_ranges(d, {{0, 8}}, {});
        api.wait_all_injected();
      };
    if (node == 4 || node == 6 || node == 1 || node == 9) return [](NodeApi& api) { api.recv(5, 0); };
    return nullptr;
  };
  const auto r = run_firmware(o, fw, 16, init_pattern);
  ASSERT_TRUE(r.ok) << r.error;
  int k = 0;
  for (int d : {4, 6, 1, 9}) {
    const MessageRecord& m = find_msg(r, 5, d);
    EXPECT_EQ(m.issued, uint64_t(10 * k));
    EXPECT_EQ(m.posted, uint64_t(10 * (k + 1)));
    EXPECT_EQ(m.head_injected, m.posted);  // all-port: a free channel each
    ++k;
  }
}

// One-port: the second message waits for the first one's tail.
TEST(FirmwarePorts, OnePortSerializesInjection) {
  auto o = options("mesh:4x4", "one", 0, 0);
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 5)
      return [](NodeApi& api) {
        api.send_ranges(4, {{0, 8}}, {});
        api.send_ranges(6, {{0, 8}}, {});
        api.wait_all_injected();
      };
    if (node == 4 || node == 6) return [](NodeApi& api) { api.recv(5, 0); };
    return nullptr;
  };
  const auto r = run_firmware(o, fw, 16, init_pattern);
  ASSERT_TRUE(r.ok) << r.error;
  const MessageRecord& a = find_msg(r, 5, 4);
  const MessageRecord& b = find_msg(r, 5, 6);
  EXPECT_EQ(a.head_injected, 0u);
  EXPECT_EQ(a.injected, 8u);  // 9 flits: head + 8 words
  EXPECT_EQ(b.head_injected, a.injected + 1);
}

TEST(FirmwarePorts, AllPortInjectsTwoMessagesAtOnce) {
  auto o = options("mesh:4x4", "all", 0, 0);
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 5)
      return [](NodeApi& api) {
        api.send_ranges(4, {{0, 8}}, {});
        api.send_ranges(6, {{0, 8}}, {});
        api.wait_all_injected();
      };
    if (node == 4 || node == 6) return [](NodeApi& api) { api.recv(5, 0); };
    return nullptr;
  };
  const auto r = run_firmware(o, fw, 16, init_pattern);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(find_msg(r, 5, 4).head_injected, 0u);
  EXPECT_EQ(find_msg(r, 5, 6).head_injected, 0u);
}

// Receive completions are serialized: two messages arriving together cost 2*gamma.
TEST(FirmwarePorts, ReceiveCompletionsAreSerialized) {
  auto o = options("mesh:4x4", "all", 0, 9);
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 4 || node == 6) return [](NodeApi& api) { api.send_ranges(5, {{0, 4}}, {}); };
    if (node == 5)
      return [](NodeApi& api) {
        api.recv(4, 0);
        api.recv(6, 0);
      };
    return nullptr;
  };
  const auto r = run_firmware(o, fw, 16, init_pattern);
  ASSERT_TRUE(r.ok) << r.error;
  const MessageRecord& a = find_msg(r, 4, 5);
  const MessageRecord& b = find_msg(r, 6, 5);
  EXPECT_EQ(a.delivered, b.delivered);  // all-port: both eject at once
  EXPECT_EQ(a.completed, a.delivered + 9);
  EXPECT_EQ(b.completed, a.completed + 9);
}

// Step s+1 starts only after step s's receives completed and its sends were
// injected; different nodes' steps overlap (no global barrier).
TEST(FirmwareInterpreter, StepOrderingWithoutBarrier) {
  // node 0 --(step 0, long)--> 1 --(step 1)--> 2 ; node 3 --(step 0, short)--> 2 ;
  // node 2: step 0 receives from 3, step 1 receives from 1.
  alg::Schedule s;
  s.nodes = 16;
  s.steps = 2;
  s.memory_words = 64;
  s.programs.resize(16);
  alg::Step st0;
  st0.tag = 0;
  st0.sends.push_back({1, {{5, 40}}, 0, -1});
  s.programs[0] = {st0};
  alg::Step r1;
  r1.tag = 0;
  r1.recvs.push_back({0, {{0, 40}}, 0, {}});
  alg::Step f1;
  f1.tag = 1;
  f1.sends.push_back({2, {{0, 4}}, 1, -1});
  s.programs[1] = {r1, f1};
  alg::Step s3;
  s3.tag = 0;
  s3.sends.push_back({2, {{0, 2}}, 0, -1});
  s.programs[3] = {s3};
  alg::Step r2a;
  r2a.tag = 0;
  r2a.recvs.push_back({3, {{10, 2}}, 0, {}});
  alg::Step r2b;
  r2b.tag = 1;
  r2b.recvs.push_back({1, {{20, 4}}, 1, {}});
  s.programs[2] = {r2a, r2b};
  s.initial = [](int n, uint32_t a) { return init_pattern(n, a); };
  s.expected = [](int, uint32_t) -> std::optional<Word> { return std::nullopt; };
  ASSERT_EQ(alg::validate(s), "");
  auto o = options("mesh:4x4", "one", 3, 2);
  const auto r = run_firmware(
      o,
      [&](int node) -> FirmwareFn { return [&s, node](NodeApi& api) { run_program(api, s.programs[size_t(node)]); }; },
      s.memory_words, s.initial);
  ASSERT_TRUE(r.ok) << r.error;
  const MessageRecord& m01 = find_msg(r, 0, 1);
  const MessageRecord& m12 = find_msg(r, 1, 2);
  const MessageRecord& m32 = find_msg(r, 3, 2);
  EXPECT_EQ(m12.issued, m01.completed);  // node 1 forwards right after its step-0 receive
  // Node 2 finished step 0 (short message from 3) long before node 1 finished step 0.
  ASSERT_EQ(r.steps[2].size(), 2u);
  EXPECT_EQ(r.steps[2][0].end, m32.completed);
  EXPECT_LT(r.steps[2][1].start, r.steps[1][0].end);
  EXPECT_EQ(r.memory[2][20], init_pattern(0, 5));  // node 1 forwarded what it had received
  EXPECT_EQ(r.memory[2][10], init_pattern(3, 0));
}

TEST(FirmwareOperators, ReceiveCombinesInTheStatedOrder) {
  const alg::OpId affine = alg::find_combine_op("affine"), sum = alg::find_combine_op("sum");
  auto o = options("mesh:4x4", "one", 0, 0);
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 1 || node == 2) return [](NodeApi& api) { api.send_ranges(0, {{0, 2}}, {}); };
    if (node == 0)
      return [&](NodeApi& api) {
        const Message a = api.recv(1, 0);
        api.store({a.words[0]}, {{0, 1}}, Combine{affine, false});  // m0 := m0 o x1
        api.store({a.words[1]}, {{1, 1}}, Combine{sum, false});
        const Message b = api.recv(2, 0);
        api.store({b.words[0]}, {{2, 1}}, Combine{affine, true});  // m2 := x2 o m2
      };
    return nullptr;
  };
  const auto r = run_firmware(o, fw, 4, init_pattern);
  ASSERT_TRUE(r.ok) << r.error;
  const alg::Combine mf{affine, false};
  EXPECT_EQ(r.memory[0][0], alg::apply(mf, init_pattern(0, 0), init_pattern(1, 0)));
  EXPECT_EQ(r.memory[0][1], init_pattern(0, 1) + init_pattern(1, 1));
  EXPECT_EQ(r.memory[0][2], alg::apply(mf, init_pattern(2, 0), init_pattern(0, 2)));
  // affine really is non-commutative on these operands (the test can fail).
  EXPECT_NE(alg::apply(mf, init_pattern(0, 0), init_pattern(1, 0)),
            alg::apply(mf, init_pattern(1, 0), init_pattern(0, 0)));
}

TEST(FirmwareErrors, StuckFirmwareNamesTheMissingMessage) {
  auto o = options("mesh:4x4", "one", 0, 0);
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 3) return [](NodeApi& api) { api.recv(7, 42); };
    return nullptr;
  };
  const auto r = run_firmware(o, fw, 4, init_pattern);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("node 3"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("from 7 tag 42"), std::string::npos) << r.error;
}

// Multi-word flits (digest in the flit, words beside it) and packet splitting.
TEST(FirmwareData, WideFlitsAndSplitMessagesArriveIntact) {
  auto o = options("torus:4x4", "one", 2, 3);
  o.opt.profile.bytes_per_flit = 8;
  o.opt.profile.max_packet_bytes = 20;  // 5 words per packet: 13 words -> 3 packets
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 0) return [](NodeApi& api) { api.send_ranges(10, {{0, 13}}, {}); };
    if (node == 10)
      return [](NodeApi& api) {
        const Message m = api.recv(0, 0);
        api.store(m.words, {{20, 13}}, Combine{});
      };
    return nullptr;
  };
  const auto r = run_firmware(o, fw, 40, init_pattern);
  ASSERT_TRUE(r.ok) << r.error;
  const MessageRecord& m = find_msg(r, 0, 10);
  EXPECT_EQ(m.packets, 3u);
  EXPECT_EQ(r.packets, 3u);
  EXPECT_EQ(r.flits_injected, 3u + 3 + 3 + 2);  // 5,5,3 words at 2 per flit, plus 3 heads
  alg::CostParams cp = o.opt.profile.cost_params(1, kShippedTiming);
  EXPECT_EQ(cp.flits(13), 11u);
  // 3 packets: head-behind-tail costs one bubble each (cost_model.h).
  const int h = Topology::parse("torus:4x4").hops(0, 10);
  EXPECT_EQ(m.completed - m.issued, uint64_t(2 + 3 * (h + 1) + 11 - 1 + 2 + 3));
  EXPECT_EQ(double(m.completed - m.issued), cp.message_cycles(h, 13));
  for (uint32_t a = 0; a < 13; ++a) EXPECT_EQ(r.memory[10][20 + a], init_pattern(0, a));
}

}  // namespace
}  // namespace wn::fw
