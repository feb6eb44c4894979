// Schedules without a simulator: structure, step counts, oracles (by the
// timing-free reference run) and the static channel property of each step.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "algorithms/families/baselines/baselines.h"
#include "algorithms/reference_run.h"
#include "algorithms/schedule_checker.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::alg {
namespace {

AlgorithmArgs args_for(int source, uint32_t words, int ports, const std::string& op = "sum") {
  AlgorithmArgs a;
  a.source = source;
  a.words = words;
  a.ports = ports;
  a.op = find_combine_op(op);
  return a;
}

// Directed channels (router -> router) used twice within one step.
int shared_channels_in_steps(const Schedule& s, const Topology& topo) {
  std::map<uint32_t, std::map<std::pair<int, int>, int>> use;
  for (int n = 0; n < s.nodes; ++n)
    for (const Step& st : s.programs[size_t(n)])
      for (const Send& m : st.sends) {
        const auto p = topo.path(n, m.dst);
        for (size_t i = 0; i + 1 < p.size(); ++i) ++use[st.tag][{p[i], p[i + 1]}];
      }
  int shared = 0;
  for (const auto& [tag, chans] : use)
    for (const auto& [ch, count] : chans) shared += count > 1;
  return shared;
}

TEST(Algorithms, EveryBaselineMatchesItsOracleEverywhere) {
  for (const std::string topo_s : {"mesh:4x4", "mesh:8x8", "torus:4x4", "torus:8x8", "mesh:2x2x2", "mesh:3x5",
                                   "torus:3x3", "cube:1", "cube:2", "cube:3", "cube:6"}) {
    const Topology topo = Topology::parse(topo_s);
    for (const auto& info : algorithms()) {
      if (!unsupported(info, topo).empty()) continue;
      for (int ports : {1, 2, 4})
        for (uint32_t words : {1u, 5u})
          for (int source : {0, topo.nodes() - 1, topo.nodes() / 3}) {
            AlgorithmArgs a = args_for(source, words, ports);
            a.options = parse_options(info, {});
            SCOPED_TRACE(info.name + " on " + topo_s + " ports " + std::to_string(ports) + " words " +
                         std::to_string(words) + " source " + std::to_string(source));
            const BuiltSchedule b = build_schedule(info, topo, a);
            const Schedule& s = b.schedule;
            ASSERT_EQ(validate(s), "");
            EXPECT_EQ(s.steps, predict(info, topo, b, CostParams{}).steps);
            uint32_t max_tag = 0;
            for (const auto& p : s.programs)
              for (const Step& st : p) max_tag = std::max(max_tag, st.tag);
            EXPECT_EQ(int(max_tag) + 1, s.steps);
            uint64_t messages = 0;  // the bound the pipeline checks before it builds
            for (const auto& p : s.programs)
              for (const Step& st : p) messages += st.sends.size();
            EXPECT_LE(messages, info.max_messages(topo, b.args));
            auto mem = reference_run(s);
            ASSERT_EQ(check_memory(s, mem), "");
          }
    }
  }
}

TEST(Algorithms, CheckMemoryCatchesOneCorruptedWord) {
  const Topology topo = Topology::parse("mesh:4x4");
  const Schedule s = make_schedule("direct-alltoall", topo, args_for(0, 3, 1));
  auto mem = reference_run(s);
  mem[6][s.memory_words - 2] ^= 4;
  EXPECT_NE(check_memory(s, mem).find("node 6 addr " + std::to_string(s.memory_words - 2)), std::string::npos);
}

TEST(Algorithms, StepCounts) {
  const Topology m8 = Topology::parse("mesh:8x8"), c6 = Topology::parse("cube:6"), m35 = Topology::parse("mesh:3x5");
  EXPECT_EQ(make_schedule("rd-broadcast", m8, args_for(9, 1, 1)).steps, 6);
  EXPECT_EQ(make_schedule("rd-broadcast", m35, args_for(4, 1, 1)).steps, 4);
  EXPECT_EQ(make_schedule("direct-alltoall", m8, args_for(0, 1, 1)).steps, 63);
  EXPECT_EQ(make_schedule("direct-alltoall", m8, args_for(0, 1, 4)).steps, 16);
  EXPECT_EQ(make_schedule("direct-alltoall", c6, args_for(0, 1, 6)).steps, 11);
  EXPECT_EQ(make_schedule("ring-allgather", m35, args_for(0, 1, 1)).steps, 14);
  EXPECT_EQ(make_schedule("binomial-gather", m35, args_for(2, 1, 1)).steps, 4);
  EXPECT_EQ(make_schedule("binomial-reduce", m8, args_for(5, 1, 1, "affine")).steps, 7);  // + forward to root 5
  EXPECT_EQ(make_schedule("binomial-reduce", m8, args_for(5, 1, 1, "sum")).steps, 6);
}

TEST(Algorithms, AffineReduceIsTheRankOrderedFold) {
  const Topology topo = Topology::parse("mesh:4x4");
  for (int root : {0, 5}) {
    const Schedule s = make_schedule("binomial-reduce", topo, args_for(root, 2, 1, "affine"));
    const auto mem = reference_run(s);
    std::vector<Word> xs;
    for (int r = 0; r < 16; ++r) xs.push_back(s.initial(r, 1));
    EXPECT_EQ(mem[size_t(root)][1], fold(find_combine_op("affine"), xs));
    std::vector<Word> rev(xs.rbegin(), xs.rend());
    EXPECT_NE(mem[size_t(root)][1], fold(find_combine_op("affine"), rev));  // order matters: the test can fail
  }
}

TEST(Algorithms, RingReduceScatterRejectsNonCommutative) {
  const Topology topo = Topology::parse("mesh:4x4");
  try {
    make_schedule("ring-reduce-scatter", topo, args_for(0, 1, 1, "affine"));
    FAIL() << "accepted a non-commutative operator";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.param(), Param::op);
    EXPECT_NE(std::string(e.what()).find("allowed: sum, max, min"), std::string::npos) << e.what();
  }
}

TEST(Algorithms, GroupLeavesNonMembersUntouched) {
  const Topology topo = Topology::parse("mesh:4x4");
  AlgorithmArgs a = args_for(7, 3, 1);
  a.group = {3, 7, 1, 12};
  const Schedule s = make_schedule("ring-allgather", topo, a);
  EXPECT_TRUE(s.programs[0].empty());
  EXPECT_FALSE(s.programs[12].empty());
  auto mem = reference_run(s);
  EXPECT_EQ(check_memory(s, mem), "");
  mem[0][0] ^= 1;  // a non-member's memory is checked too
  EXPECT_NE(check_memory(s, mem).find("node 0 addr 0"), std::string::npos);
}

TEST(Algorithms, BadArgumentsNameTheirField) {
  const Topology topo = Topology::parse("mesh:4x4");
  auto field_of = [&](const std::string& algo, AlgorithmArgs a) {
    try {
      make_schedule(algo, topo, a);
    } catch (const ConfigError& e) {
      return e.param() ? std::string(param_id(*e.param())) : "not a parameter: " + e.field();
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(field_of("rd-broadcast", args_for(16, 1, 1)), "source");
  EXPECT_EQ(field_of("rd-broadcast", args_for(0, 0, 1)), "bytes");
  AlgorithmArgs dup = args_for(1, 1, 1);
  dup.group = {1, 2, 1};
  EXPECT_EQ(field_of("ring-allgather", dup), "group");
  EXPECT_EQ(field_of("direct-alltoall", args_for(0, 1u << 24, 1)), "bytes");
  EXPECT_THROW(find_algorithm("edn-broadcast-typo"), ConfigError);
}

// The thesis's RD (U-mesh): RD over the lexicographic list is stepwise contention-free
// under dimension-ordered routing, for every source.
TEST(Algorithms, RdBroadcastStepsUseDisjointChannels) {
  for (const std::string t : {"mesh:8x8", "mesh:4x4", "cube:6", "mesh:4x4x4"}) {
    const Topology topo = Topology::parse(t);
    for (int src = 0; src < topo.nodes(); ++src)
      EXPECT_EQ(shared_channels_in_steps(make_schedule("rd-broadcast", topo, args_for(src, 1, 1)), topo), 0)
          << t << " source " << src;
  }
}

// The direct exchange is not: its steps share channels on a mesh.
TEST(Algorithms, DirectAlltoallStepsShareChannelsOnAMesh) {
  const Topology topo = Topology::parse("mesh:8x8");
  EXPECT_GT(shared_channels_in_steps(make_schedule("direct-alltoall", topo, args_for(0, 1, 1)), topo), 100);
}

// On mesh:4x4, one port, alpha = gamma = 4, 8-word messages (F = 9 flits, 10 cycles a channel with
// the bubble). Step 0: node 0 sends to 1, 4 (1 hop) and 5 (2 hops), posted at 4, 8, 12; its channel
// serializes them: they start at 4, 14, 24 and are delivered 3(h+1) + 8 later, at 18, 28 and 41;
// node 5 completes at 41 + 4 = 45 (all startups before the transfers would give 12 + 3*3 + 28 + 4
// = 53). Step 1: the three send back, posted at 4; alone they would arrive at 18, 18 and 21; node
// 0's ejection channel delivers them at 18, 28 and 38, and it completes each as it arrives:
// 22, 32, 42. Firmware runs of this schedule measure the same (StepModelOverlap.*).
Schedule overlap_schedule() {
  Schedule s;
  s.nodes = 16;
  s.steps = 2;
  s.memory_words = 24;
  s.programs.resize(16);
  const auto block = [](uint32_t k) { return std::vector<Range>{Range{8 * k, 8}}; };
  Step out, back;
  back.tag = 1;
  for (int dst : {1, 4, 5}) {
    out.sends.push_back({dst, block(0), 0, -1});
    back.recvs.push_back({dst, block(uint32_t(back.recvs.size())), 1, Combine{}});
    Step in, reply;
    in.recvs.push_back({0, block(0), 0, Combine{}});
    reply.tag = 1;
    reply.sends.push_back({0, block(0), 1, -1});
    s.programs[size_t(dst)] = {in, reply};
  }
  s.programs[0] = {out, back};
  s.initial = [](int, uint32_t) { return Word(0); };
  s.expected = [](int, uint32_t) { return std::optional<Word>(); };
  return s;
}

TEST(Algorithms, StepModelOverlapsStartupsTransfersAndCompletions) {
  const Topology topo = Topology::parse("mesh:4x4");
  CostParams c;
  c.alpha = 4;
  c.gamma = 4;
  const Schedule s = overlap_schedule();
  ASSERT_EQ(validate(s), "");
  EXPECT_EQ(step_model_cycles(s, topo, c), 45 + 42);
  // Three ports, a channel each: delivered at 4 + 14, 8 + 14, 12 + 17 = 29 (node 5 done at 33);
  // back at 18, 18 and 21, node 0 done at 22, 26, 30.
  c.ports = 3;
  EXPECT_EQ(step_model_cycles(s, topo, c), 33 + 30);
}

// Two messages from node 0 to node 1 with one tag in one step are matched to the receives in the
// order posted: 2 words (F = 3) posted at 4, delivered at 4 + 3(1+1) + 2 = 12, stored at 12 + 4 +
// 2 = 18; 8 words (F = 9) posted at 8, delivered at 8 + 14 = 22, stored at 22 + 4 + 8 = 34 (matched
// the other way round: 30).
TEST(Algorithms, StepModelMatchesReceivesInPostingOrder) {
  const Topology topo = Topology::parse("mesh:4x4");
  Schedule s;
  s.nodes = 16;
  s.steps = 1;
  s.memory_words = 10;
  s.programs.resize(16);
  Step out, in;
  out.sends = {{1, {Range{0, 2}}, 0, -1}, {1, {Range{2, 8}}, 0, -1}};
  in.recvs = {{0, {Range{0, 2}}, 0, Combine{}}, {0, {Range{2, 8}}, 0, Combine{}}};
  s.programs[0] = {out};
  s.programs[1] = {in};
  CostParams c;
  c.alpha = 4;
  c.gamma = 4;
  c.copy_cycles_per_word = 1;
  EXPECT_EQ(step_model_cycles(s, topo, c), 34);
}

// The EDN thesis's transpose chapter: the direct transpose on n x n under XY sends n^2 - n
// messages in one step; all but (0,1)->(1,0) and (n-1,n-2)->(n-2,n-1) share a channel with
// another, and the busiest channel carries n - 1.
TEST(DirectTranspose, ContentionOfTheThesis) {
  for (int n : {4, 8, 16}) {
    const Topology topo = Topology::parse("mesh:" + std::to_string(n) + "x" + std::to_string(n));
    const Schedule s = make_schedule("direct-transpose", topo, args_for(0, 2, 4));
    const ScheduleCheck c = check_schedule(s, topo, 4, false);
    ASSERT_EQ(c.messages, uint64_t(n * n - n));
    EXPECT_EQ(c.steps.at(0).conflicting_messages, n * n - n - 2);
    EXPECT_EQ(c.steps.at(0).max_channel_load, n - 1);
    EXPECT_TRUE(c.delivery.empty());
    std::map<Topology::Link, int> load;
    for (int q = 0; q < topo.nodes(); ++q)
      for (const Send& m : s.programs[size_t(q)][0].sends)
        for (const auto& l : topo.links(q, m.dst)) ++load[l];
    std::vector<std::pair<std::vector<int>, std::vector<int>>> free;
    for (int q = 0; q < topo.nodes(); ++q)
      for (const Send& m : s.programs[size_t(q)][0].sends) {
        bool alone = true;
        for (const auto& l : topo.links(q, m.dst)) alone = alone && load[l] == 1;
        if (alone) free.push_back({topo.coords(q), topo.coords(m.dst)});
      }
    const decltype(free) want = {{{0, 1}, {1, 0}}, {{n - 1, n - 2}, {n - 2, n - 1}}};
    EXPECT_EQ(free, want) << "n " << n;
  }
}

}  // namespace
}  // namespace wn::alg

namespace wn::alg {
namespace {

// A registration that leaves out what the pipeline calls is refused when the registry is built,
// naming the family, the algorithm and the field (not a bad_function_call in the middle of a run).
TEST(Registry, RegistrationNamesTheMissingField) {
  for (const auto& f : families()) EXPECT_NO_THROW(validate_family(f)) << f.name;
  Family f = families().front();
  auto message = [](const Family& bad) {
    try {
      validate_family(bad);
    } catch (const std::logic_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  Family no_check = f;
  no_check.algorithms.front().check = nullptr;
  EXPECT_EQ(message(no_check), "family '" + f.name + "': algorithm '" + f.algorithms.front().name +
                                   "' has no check; required: name, summary, check, max_messages, build, cost");
  Family no_bound = f;
  no_bound.algorithms.back().max_messages = nullptr;
  EXPECT_NE(message(no_bound).find("has no max_messages"), std::string::npos);
  Family twice = f;
  twice.algorithms.push_back(f.algorithms.front());
  EXPECT_NE(message(twice).find("registered twice"), std::string::npos);
  Family undeclared = f;
  undeclared.algorithms.front().options.push_back("--no-such-flag");
  EXPECT_NE(message(undeclared).find("reads --no-such-flag, which the family does not declare"), std::string::npos);
}

}  // namespace
}  // namespace wn::alg
