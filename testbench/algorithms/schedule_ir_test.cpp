// The schedule IR itself, without an algorithm: validate() matching sends with receives and
// bounding every range by the node's memory; strided ranges through the reference run.
#include <gtest/gtest.h>

#include "algorithms/reference_run.h"
#include "algorithms/schedule.h"

namespace wn::alg {
namespace {

// validate() pairs every send with a receive by (src, dst, tag), in program
// order, and names the first mismatch.
TEST(Algorithms, ValidateNamesUnmatchedAndMismatchedMessages) {
  auto base = [] {
    Schedule s;
    s.nodes = 3;
    s.steps = 2;
    s.memory_words = 8;
    s.programs.resize(3);
    s.initial = [](int, uint32_t) { return Word(0); };
    s.expected = [](int, uint32_t) { return std::optional<Word>(); };
    return s;
  };
  auto send = [](Schedule& s, int n, uint32_t tag, int dst, uint32_t words) {
    Step st;
    st.tag = tag;
    st.sends.push_back({dst, {{0, words}}, tag, -1});
    s.programs[size_t(n)].push_back(st);
  };
  auto recv = [](Schedule& s, int n, uint32_t tag, int src, uint32_t words) {
    Step st;
    st.tag = tag;
    Recv r;
    r.src = src;
    r.dst = {{0, words}};
    r.tag = tag;
    st.recvs.push_back(r);
    s.programs[size_t(n)].push_back(st);
  };
  Schedule ok = base();
  send(ok, 0, 0, 1, 2);
  send(ok, 0, 1, 1, 3);
  recv(ok, 1, 0, 0, 2);
  recv(ok, 1, 1, 0, 3);
  send(ok, 2, 1, 0, 1);
  recv(ok, 0, 1, 2, 1);
  EXPECT_EQ(validate(ok), "");

  Schedule lonely = base();
  send(lonely, 2, 1, 1, 4);
  send(lonely, 2, 1, 1, 4);
  EXPECT_EQ(validate(lonely), "2 send(s) 2 -> 1 tag 1 but 0 matching receive(s)");

  Schedule waits = base();
  recv(waits, 1, 0, 2, 1);
  EXPECT_EQ(validate(waits), "node 1 waits for a message from 2 tag 0 that is never sent");

  Schedule count = base();
  send(count, 0, 1, 2, 1);
  send(count, 0, 1, 2, 1);
  recv(count, 2, 1, 0, 1);
  EXPECT_EQ(validate(count), "2 send(s) 0 -> 2 tag 1 but 1 matching receive(s)");

  Schedule length = base();
  send(length, 1, 0, 0, 5);
  recv(length, 0, 0, 1, 4);
  EXPECT_EQ(validate(length), "send 1 -> 0 tag 0: 5 words sent, receive expects 4");

  // Keys are checked in (src, dst, tag) order: the earliest broken pair is named.
  Schedule two = base();
  recv(two, 2, 1, 1, 1);
  send(two, 0, 0, 2, 1);
  EXPECT_EQ(validate(two), "1 send(s) 0 -> 2 tag 0 but 0 matching receive(s)");
}

// A strided range: count words offset, offset + stride, ...; bound checks use its last word.
TEST(Algorithms, StridedRangeAddressesAndBounds) {
  const Range r{3, 4, 5};
  EXPECT_EQ(r.at(0), 3u);
  EXPECT_EQ(r.at(3), 18u);
  EXPECT_EQ(r.end(), 19u);
  EXPECT_EQ((Range{7, 0, 5}).end(), 7u);
  EXPECT_EQ(total_words({r, Range{0, 2}}), 6u);
  Schedule s;
  s.nodes = 2;
  s.steps = 1;
  s.memory_words = 18;  // one word short of r
  s.programs.resize(2);
  s.initial = [](int, uint32_t a) { return Word(100 + a); };
  s.expected = [](int, uint32_t) { return std::optional<Word>(); };
  Step snd, rcv;
  snd.sends.push_back({1, {r}, 0, -1});
  Recv rv;
  rv.src = 0;
  rv.dst = {Range{0, 4, 2}};
  rcv.recvs.push_back(rv);
  s.programs[0].push_back(snd);
  s.programs[1].push_back(rcv);
  EXPECT_EQ(validate(s), "node 0: send range [3, +4) exceeds memory of 18 words");
  s.memory_words = 19;
  ASSERT_EQ(validate(s), "");
  // Node 1 receives words 3, 8, 13, 18 of node 0 into 0, 2, 4, 6.
  const auto mems = reference_run(s);
  EXPECT_EQ(mems[1][0], 103u);
  EXPECT_EQ(mems[1][2], 108u);
  EXPECT_EQ(mems[1][4], 113u);
  EXPECT_EQ(mems[1][6], 118u);
  EXPECT_EQ(mems[1][1], 101u);  // untouched
}

}  // namespace
}  // namespace wn::alg
