// Every baseline collective on every topology kind, executed as firmware on
// the co-simulation: final memory equals the oracle word for word, the step
// count equals the closed form, and the measured time is never below the
// contention-free analytic prediction's network-free bound. Small networks
// run in lock-step (RTL and model compared every cycle); the 64-node
// configurations of the closing note run on the model with 1 KiB messages.
#include <gtest/gtest.h>

#include <cstdlib>
#include <tuple>

#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"

namespace wn::fw {
namespace {

using Param = std::tuple<std::string /*algorithm*/, std::string /*topology*/, std::string /*ports*/>;

const std::vector<std::string> kAlgorithms = {"rd-broadcast",        "direct-alltoall", "ring-allgather",
                                              "ring-reduce-scatter", "binomial-reduce", "binomial-gather",
                                              "binomial-scatter"};

ScheduleRunOptions make_options(const Param& p, Backend backend, uint32_t bytes, const std::string& source) {
  ScheduleRunOptions o;
  o.algorithm = std::get<0>(p);
  o.topology = std::get<1>(p);
  o.ports = std::get<2>(p);
  o.net.backend = backend;
  o.run.profile = find_profile("ideal");
  o.bytes = bytes;
  o.source = source;
  return o;
}

// The delay view adds up on every message (run_firmware already refuses a
// run where it does not; this names the law in the matrix): latency - zero
// load = the classes, per message and packet; steps and the run total sum it.
void expect_delay_conserved(const ScheduleRunResult& r) {
  EXPECT_EQ(delay_conservation_error(r.run, r.network.topology,
                                     r.options.run.profile.cost_params(r.network.params.inj, r.run.timing)),
            "");
  EXPECT_EQ(r.run.delay_unexplained, 0u);
  const auto& log = r.run.log;
  ASSERT_EQ(r.run.message_delay.size(), log.messages.size());
  ClassCycles steps{}, messages{};
  for (const auto& st : r.steps)
    for (int c = 0; c < kContentionClasses; ++c) steps[size_t(c)] += st.delay[size_t(c)];
  for (uint32_t m = 0; m < log.messages.size(); ++m) {
    const MessageDelay& d = r.run.message_delay[m];
    ASSERT_TRUE(d.delivered) << m;
    EXPECT_EQ(log.messages[m].delivered - d.start - d.zero_load, d.delay.total()) << m;
    for (int c = 0; c < kContentionClasses; ++c) messages[size_t(c)] += d.delay.cycles[size_t(c)];
  }
  EXPECT_EQ(messages, r.delay);
  EXPECT_EQ(steps, r.delay);
}

void expect_correct(const ScheduleRunResult& r) {
  ASSERT_TRUE(r.run.ok) << r.run.error;
  EXPECT_TRUE(r.data_ok) << r.data_error;
  expect_delay_conserved(r);
  // Steps the nodes actually ran = the algorithm's closed-form step count.
  ASSERT_FALSE(r.steps.empty());
  EXPECT_EQ(int(r.steps.back().tag) + 1, r.predicted.steps);
  EXPECT_GT(r.run.cycles, 0u);
  EXPECT_GT(r.predicted.cycles, 0);
}

std::string param_name(const testing::TestParamInfo<Param>& info) {
  std::string s = std::get<0>(info.param) + "_" + std::get<1>(info.param) + "_" + std::get<2>(info.param);
  for (char& c : s)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

class SmallLockstep : public testing::TestWithParam<Param> {};

TEST_P(SmallLockstep, ExactFinalMemory) {
  const char* b = std::getenv("WN_TEST_BACKEND");
  const auto r = run_schedule(make_options(GetParam(), parse_backend(b ? b : "lockstep"), 20, "3"));
  expect_correct(r);
}

INSTANTIATE_TEST_SUITE_P(Collectives, SmallLockstep,
                         testing::Combine(testing::ValuesIn(kAlgorithms),
                                          testing::Values("mesh:4x4", "torus:4x4", "mesh:2x3x2", "torus:3x3x2",
                                                          "cube:4", "mesh:3x5"),
                                          testing::Values("one", "all")),
                         param_name);

class Model64 : public testing::TestWithParam<Param> {};

TEST_P(Model64, OneKibPerMessage) {
  const auto r = run_schedule(make_options(GetParam(), Backend::Model, 1024, "0"));
  expect_correct(r);
}

INSTANTIATE_TEST_SUITE_P(Collectives, Model64,
                         testing::Combine(testing::ValuesIn(kAlgorithms),
                                          testing::Values("mesh:8x8", "torus:8x8", "cube:6"),
                                          testing::Values("one", "all")),
                         param_name);

// The delay view on each backend alone (RTL here, the model in a forked
// child): both conserve it and give the same numbers, message by message.
class DelayBothBackends : public testing::TestWithParam<Param> {};

nlohmann::json delay_fingerprint(const ScheduleRunResult& r) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& d : r.run.message_delay) {
    nlohmann::json b = nlohmann::json::array();
    for (const auto& [pid, n] : d.delay.blockers) b.push_back({pid, n});
    j.push_back({d.start, d.latency, d.zero_load, d.port_wait, d.delay.cycles, b});
  }
  return j;
}

TEST_P(DelayBothBackends, ConservedAndIdentical) {
  const auto model = run_isolated([] {
    const auto r = run_schedule(make_options(GetParam(), Backend::Model, 64, "2"));
    expect_correct(r);
    return delay_fingerprint(r);
  });
  const auto rtl = run_schedule(make_options(GetParam(), Backend::Rtl, 64, "2"));
  expect_correct(rtl);
  EXPECT_EQ(delay_fingerprint(rtl), model);
}

INSTANTIATE_TEST_SUITE_P(
    Collectives, DelayBothBackends,
    testing::Combine(testing::Values("direct-alltoall", "ring-allgather", "binomial-reduce", "rd-broadcast"),
                     testing::Values("mesh:4x4", "torus:3x3x2", "cube:4"), testing::Values("one", "all")),
    param_name);

// The data check can fail: one word flipped on arrival is named exactly.
TEST(CollectivesDataCheck, CorruptedWordIsReportedWithNodeAndAddress) {
  auto o = make_options({"rd-broadcast", "mesh:4x4", "one"}, Backend::Model, 16, "0");
  o.run.fault_node = 5;
  o.run.fault_mask = 0x100;
  const auto r = run_schedule(o);
  ASSERT_TRUE(r.run.ok) << r.run.error;
  EXPECT_FALSE(r.data_ok);
  EXPECT_NE(r.data_error.find("node 5 addr"), std::string::npos) << r.data_error;
  EXPECT_NE(r.data_error.find("expected"), std::string::npos) << r.data_error;
}

// Contention-free schedule under `ideal`: RD broadcast of one message on a
// mesh, every step's unicasts disjoint (the thesis's RD) -> measured equals the
// step-sum prediction exactly when each step's slowest message is on the
// critical path; at least it is never faster.
TEST(CollectivesPrediction, RdBroadcastStaysWithinItsPrediction) {
  auto o = make_options({"rd-broadcast", "mesh:8x8", "one"}, Backend::Model, 1024, "0");
  const auto r = run_schedule(o);
  expect_correct(r);
  EXPECT_LE(double(r.run.cycles), r.predicted.cycles);
  EXPECT_GE(double(r.run.cycles), 0.5 * r.predicted.cycles);
}

// Non-commutative reduction lands in rank order on the cycle-accurate run too.
TEST(CollectivesOperators, BinomialReduceAffineIsOrdered) {
  auto o = make_options({"binomial-reduce", "mesh:4x4", "all"}, Backend::Model, 12, "5");
  o.op = "affine";
  expect_correct(run_schedule(o));
}

// A CCL process group: the schedule runs on the members only.
TEST(CollectivesGroups, GroupOfFiveOnAMesh) {
  auto o = make_options({"rd-broadcast", "mesh:4x4", "one"}, Backend::Model, 8, "7");
  o.group = {3, 7, 1, 12, 14};
  const auto r = run_schedule(o);
  expect_correct(r);
  EXPECT_EQ(r.messages, 4u);
}

}  // namespace
}  // namespace wn::fw

namespace wn::fw {
namespace {

// Without the torus dateline classes the direct exchange on a ring of 8
// closes a cycle of channel waits. The watchdog (two counters) stops the run
// and names the flits stuck; --explain-deadlock adds the cycle of waits.
ScheduleRunOptions deadlocking_exchange(bool explain) {
  ScheduleRunOptions o;
  o.algorithm = "direct-alltoall";
  o.topology = "torus:8x2";
  o.ports = "all";
  o.net.dateline = false;
  o.net.vcs = 2;
  o.net.buf = 2;
  o.run.watchdog = 500;
  o.run.explain_deadlock = explain;
  o.run.deadlock_hint = "(the caller's hint)";  // app/ words it: wormnet run names its option
  o.run.profile = find_profile("ideal");
  o.bytes = 4096;
  o.source = "0";
  return o;
}

TEST(FirmwareDeadlock, WatchdogStopsTheRunAndPointsToExplain) {
  const ScheduleRunResult r = run_schedule(deadlocking_exchange(false));
  ASSERT_FALSE(r.run.ok);
  EXPECT_NE(r.run.error.find("network deadlock: no flit moved for 500 cycles"), std::string::npos) << r.run.error;
  EXPECT_NE(r.run.error.find("\n(the caller's hint)"), std::string::npos) << r.run.error;
}

TEST(FirmwareDeadlock, ExplainNamesTheCycleOfWaits) {
  const ScheduleRunResult r = run_schedule(deadlocking_exchange(true));
  ASSERT_FALSE(r.run.ok);
  EXPECT_NE(r.run.error.find("cycle of"), std::string::npos) << r.run.error;
}

}  // namespace
}  // namespace wn::fw
