// The CCL library called from node firmware (firmware/ccl.h), its process
// groups: the paper's §II Examples 1 and 2 (our cases PG1-PG3; the expected PGIDs
// follow §II's reference mechanism, (counter, pid of rank 0)), partition's cost
// (PG4, ours: the paper gives no protocol) and MPICH-style shapes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "experiments/isolated_run.h"
#include "firmware/ccl.h"
#include "firmware/firmware_run.h"
#include "testbench/firmware/ccl_firmware_helpers.h"

#include <cstring>

namespace wn::fw {
namespace {

using alg::ccl::Op;
using ccl::Group;
using ccl::Library;

using namespace ccl_fw_test;

// §II Example 1, both ways: PG1 partition(ALL, pid % 2, 0), then PG2 group() with the same lists.
TEST(CclGroups, Example1EvenOddByPartitionThenByGroup) {
  std::map<int, std::pair<Group, Group>> got;
  std::map<int, uint32_t> counters;
  const auto r = run_firmware(
      net("mesh:3x3"), opts(),
      [&](int node) -> FirmwareFn {
        return [&, node](NodeApi& api) {
          if (node >= 7) return;
          Library lib(api, iota(7), 0);
          Group p = lib.partition(lib.all(), node % 2, 0);
          Group g = lib.group(node % 2 ? std::vector<int>{1, 3, 5} : std::vector<int>{0, 2, 4, 6}, node % 2);
          got[node] = {p, g};
          counters[node] = lib.counter();
        };
      },
      256, zero);
  ASSERT_TRUE(r.ok) << r.error;
  for (int node = 0; node < 7; ++node) {
    const auto& [p, g] = got[node];
    const std::vector<int> want = node % 2 ? std::vector<int>{1, 3, 5} : std::vector<int>{0, 2, 4, 6};
    EXPECT_EQ(p.members, want);
    EXPECT_EQ(p.rank, node / 2);
    EXPECT_EQ(p.label, node % 2);
    EXPECT_EQ(p.pgid, std::make_pair(0u, node % 2));  // PG1: (0,0) and (0,1)
    EXPECT_EQ(g.members, want);
    EXPECT_EQ(g.rank, node / 2);
    EXPECT_EQ(g.pgid, std::make_pair(1u, node % 2));  // PG2: (1,0) and (1,1), distinct from PG1's
    EXPECT_EQ(counters[node], node <= 1 ? 2u : 0u);   // ranks 0 of both calls: P0 and P1
  }
}

// PG3, §II Example 2: myval = temperature < BOILING ? COLD : HOT, key = temperature (the temperatures
// and BOILING = 100 are ours).
TEST(CclGroups, Example2PartitionByTemperature) {
  const int temp[7] = {50, 120, 30, 100, 100, 10, 200}, kCold = 0, kHot = 1;
  std::map<int, Group> got;
  const auto r = run_firmware(
      net("mesh:3x3"), opts(),
      [&](int node) -> FirmwareFn {
        return [&, node](NodeApi& api) {
          if (node >= 7) return;
          Library lib(api, iota(7), 0);
          got[node] = lib.partition(lib.all(), temp[node] < 100 ? kCold : kHot, temp[node]);
        };
      },
      256, zero);
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<int> cold = {5, 2, 0}, hot = {3, 4, 1, 6};
  for (int node = 0; node < 7; ++node) {
    const bool is_cold = temp[node] < 100;
    EXPECT_EQ(got[node].members, is_cold ? cold : hot);
    EXPECT_EQ(got[node].label, is_cold ? kCold : kHot);
    EXPECT_EQ(got[node].pgid, std::make_pair(0u, is_cold ? 5 : 3));
  }
  EXPECT_EQ(got[3].rank_of(1), 2);  // getrank(HOT, 1)
}

// PG4 (ours): partition over 7 processes is one concat: 3 steps of 1, 2, 3 records (4 words each).
TEST(CclGroups, PartitionIsOneConcat) {
  const auto r = run_firmware(
      net("mesh:3x3"), opts(),
      [&](int node) -> FirmwareFn {
        return [node](NodeApi& api) {
          if (node >= 7) return;
          Library lib(api, iota(7), 0);
          lib.partition(lib.all(), 0, node);
        };
      },
      256, zero);
  ASSERT_TRUE(r.ok) << r.error;
  std::map<uint32_t, uint32_t> words;
  for (const auto& m : r.log.messages) words[m.step] = std::max(words[m.step], m.words);
  EXPECT_EQ(words, (std::map<uint32_t, uint32_t>{{0, 4}, {1, 8}, {2, 12}}));
  EXPECT_EQ(r.log.messages.size(), 21u);
}

// MPICH-style group shapes: dup (the same list twice: distinct PGIDs, independent tags), half,
// split (partition by rank < n/2), even ranks; an affine combine (rank order) in each, concurrently
// where the groups are disjoint.
TEST(CclGroups, GroupShapesDupHalfSplitEven) {
  const int n = 12;
  const uint32_t b = 2, base = Library::scratch_words(n), stride = 16;
  const alg::OpId affine = alg::find_combine_op("affine");
  const auto x = [](int node, uint32_t o) { return alg::Word(0x10001u * uint32_t(node + 3) + o); };
  const auto init = [&](int node, uint32_t a) -> alg::Word {
    return a >= base && (a - base) % stride < b ? x(node, (a - base) % stride) : 0;
  };
  std::map<int, std::vector<std::vector<int>>> members;  // node -> members of the groups it used, in order
  std::map<int, std::vector<std::pair<uint32_t, int>>> ids;
  const auto r = run_firmware(
      net("mesh:4x3"), opts(),
      [&](int node) -> FirmwareFn {
        return [&, node](NodeApi& api) {
          Library lib(api, iota(n), 0);
          std::vector<Group> gs;
          gs.push_back(lib.group(iota(n), 1));  // dup: the same list twice
          gs.push_back(lib.group(iota(n), 1));
          gs.push_back(lib.partition(lib.all(), node < n / 2, node));          // split
          if (node % 2 == 0) gs.push_back(lib.group({0, 2, 4, 6, 8, 10}, 2));  // even ranks
          if (node < n / 2) gs.push_back(lib.group({0, 1, 2, 3, 4, 5}, 3));    // half
          for (size_t i = 0; i < gs.size(); ++i) {
            lib.combine(gs[i], affine, base + uint32_t(i) * stride, b);
            members[node].push_back(gs[i].members);
            ids[node].push_back(gs[i].pgid);
          }
        };
      },
      base + 5 * stride, init);
  ASSERT_TRUE(r.ok) << r.error;
  for (int node = 0; node < n; ++node) {
    EXPECT_NE(ids[node][0], ids[node][1]) << "dup groups share a PGID";
    for (size_t i = 0; i < members[node].size(); ++i)
      for (uint32_t o = 0; o < b; ++o) {
        std::vector<alg::Word> xs;
        for (int m : members[node][i]) xs.push_back(x(m, o));
        EXPECT_EQ(r.memory[size_t(node)][base + uint32_t(i) * stride + b + o], alg::fold(affine, xs))
            << "node " << node << " group " << i;
      }
  }
}

}  // namespace
}  // namespace wn::fw
