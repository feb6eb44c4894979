// The Suh-Shin schedules' memory layout (algorithms/families/torus_exchange/layout.cpp): the
// order of the blocks inside a message is chosen for short range lists, which is what bounds a
// large torus's schedule in memory. The counts are pinned: a layout change that lengthens them
// shows here (the layout before held 164,867 and 137,561 ranges for the two 16 x 16 cases).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace wn::fw
