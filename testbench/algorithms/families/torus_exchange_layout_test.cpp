// The Suh-Shin schedules' memory layout (algorithms/families/torus_exchange/layout.cpp): the
// order of the blocks inside a message is chosen for short range lists, which is what bounds a
// large torus's schedule in memory. The counts are pinned: a layout change that lengthens them
// shows here (the layout before held 164,867 and 137,561 ranges for the two 16 x 16 cases).
#include <gtest/gtest.h>

#include <algorithm>

#include "testbench/algorithms/families/torus_exchange_trace.h"

namespace wn::fw {
namespace {

using namespace torus_test;

struct Layout {
  uint64_t ranges = 0, strided = 0;
};

Layout layout(const alg::Schedule& s) {
  Layout l;
  auto add = [&](const std::vector<alg::Range>& rs) {
    l.ranges += rs.size();
    for (const alg::Range& r : rs) l.strided += r.count > 1 && r.stride != 1;
  };
  for (const auto& prog : s.programs)
    for (const alg::Step& st : prog) {
      for (const alg::Send& m : st.sends) add(m.src);
      for (const alg::Recv& m : st.recvs) add(m.dst);
    }
  return l;
}

TEST(TorusExchangeLayout, OneWordBlocksTakeStridedRangesAndEveryBlockArrives) {
  struct Case {
    const char* algo;
    uint64_t ranges;
  };
  for (const Case& c : {Case{"torus-t2", 111'390}, Case{"torus-t1.1", 86'800}}) {
    SCOPED_TRACE(c.algo);
    const alg::Schedule s = build("torus:16x16", c.algo, 1);
    ASSERT_EQ(alg::validate(s), "");
    const Layout l = layout(s);
    EXPECT_EQ(l.ranges, c.ranges);
    EXPECT_GT(l.strided, l.ranges / 10) << "a stretch of equal runs is read position by position";
    EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
  }
}

TEST(TorusExchangeLayout, WiderBlocksStayWholeAndEveryBlockArrives) {
  // A strided range cannot hold a block of two words: every range is a contiguous run.
  for (const char* algo : {"torus-t2", "torus-t1.1"}) {
    SCOPED_TRACE(algo);
    const alg::Schedule s = build("torus:16x16", algo, 2);
    ASSERT_EQ(alg::validate(s), "");
    EXPECT_EQ(layout(s).strided, 0u);
    EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
  }
}

// Highest word any range of node u's program touches, plus one.
uint64_t reach(const alg::Schedule& s, int u) {
  uint64_t end = 0;
  auto add = [&](const std::vector<alg::Range>& rs) {
    for (const alg::Range& r : rs) end = std::max(end, r.end());
  };
  for (const alg::Step& st : s.programs[size_t(u)]) {
    for (const alg::Send& m : st.sends) add(m.src);
    for (const alg::Recv& m : st.recvs) add(m.dst);
    for (const auto* list : {&st.locals, &st.after})
      for (const alg::LocalOp& l : *list) {
        add(l.src);
        add(l.dst);
      }
  }
  return end;
}

// Each node's memory ends at its own last scratch slot (IN and OUT at least), not at the heavy
// nodes' top: what lets T1 run on torus:128x128. Totals pinned (uniform: 977 and 6017 words).
TEST(TorusExchangeLayout, EachNodesMemoryEndsAtItsOwnLastSlot) {
  struct Case {
    const char* topo;
    const char* algo;
    uint32_t words, memory_words;
    uint64_t total;
  };
  for (const Case& c :
       {Case{"torus:16x16", "torus-t1.1", 1, 977, 206'976}, Case{"torus:16x16", "torus-t1.1", 2, 1954, 413'952},
        Case{"torus:32x32", "torus-t1.2", 1, 6017, 3'834'112}}) {
    SCOPED_TRACE(fmt::format("{} {} {}", c.topo, c.algo, c.words));
    alg::Schedule s = build(c.topo, c.algo, c.words);
    const uint32_t N = uint32_t(s.nodes);
    ASSERT_EQ(s.node_words.size(), size_t(N));
    EXPECT_EQ(s.memory_words, c.memory_words);
    EXPECT_EQ(*std::max_element(s.node_words.begin(), s.node_words.end()), s.memory_words);
    EXPECT_EQ(alg::total_memory_words(s), c.total);
    for (uint32_t u = 0; u < N; ++u)
      ASSERT_EQ(std::max<uint64_t>(reach(s, int(u)), 2 * N * c.words), s.node_words[u]) << "node " << u;
    ASSERT_EQ(alg::validate(s), "");
    EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
    const auto heavy = std::max_element(s.node_words.begin(), s.node_words.end());
    --*heavy;
    EXPECT_NE(alg::validate(s).find("exceeds memory of"), std::string::npos) << alg::validate(s);
  }
}

// Nodes of different sizes are refused by their sum (built schedules: the family refuses IN + OUT
// before building, what the scratch adds once it is laid out).
TEST(TorusExchangeLayout, NodeMemoryIsRefusedByItsSum) {
  const Topology topo = Topology::parse("torus:128x128");
  alg::Schedule s;
  s.nodes = topo.nodes();
  s.memory_words = 1u << 30;
  s.node_words.assign(size_t(s.nodes), 1u << 10);  // 64 MiB in all
  EXPECT_NO_THROW(alg::check_node_memory(topo, s));
  s.node_words.assign(size_t(s.nodes), s.memory_words);  // 64 TiB: fits no machine's third
  try {
    alg::check_node_memory(topo, s);
    ADD_FAILURE() << "64 TiB of node memory accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.field(), "bytes");
    EXPECT_NE(std::string(e.what()).find(fmt::format("({} at most)", 1u << 30)), std::string::npos) << e.what();
  }
}

// A cycle-accurate run gives each node the memory its schedule sizes, and the data arrives.
TEST(TorusExchangeLayout, RunGivesEachNodeItsOwnMemory) {
  ScheduleRunOptions o;
  o.topology = "torus:16x16";
  o.ports = "one";
  o.run.profile = find_profile("ideal");
  o.run.barrier = true;
  o.algorithm = "torus-t1.1";
  o.bytes = 4;
  const ScheduleRunResult r = run_schedule(o);
  ASSERT_TRUE(r.run.ok) << r.run.error;
  EXPECT_TRUE(r.data_ok) << r.data_error;
  const alg::Schedule s = build("torus:16x16", "torus-t1.1", 1);
  ASSERT_EQ(r.run.memory.size(), s.node_words.size());
  for (size_t u = 0; u < s.node_words.size(); ++u) EXPECT_EQ(r.run.memory[u].size(), s.node_words[u]) << u;
  // A memory of the wrong size is named, not read past.
  auto memory = r.run.memory;
  memory[7].pop_back();
  EXPECT_EQ(alg::check_memory(s, memory).rfind("node 7: ", 0), 0u) << alg::check_memory(s, memory);
}

}  // namespace
}  // namespace wn::fw
