// The CCL library called from node firmware (firmware/ccl.h): every operation
// on a permuted group checked against its schedule's oracle, row and column
// broadcasts in flight at once on a grid, non-interference, synchronous sends,
// float combines, and tuning by the linear model (groups: ccl_groups_test).
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

// Every operation from firmware on a permuted group (rank r = node perm[r]),
// each in its own memory region, against the oracle of the operation's schedule.
TEST(CclLibrary, EveryOperationOnAPermutedGroup) {
  const std::vector<int> perm = {8, 6, 4, 2, 0, 1, 3, 5, 7};
  const int n = 9;
  const uint32_t b = 3;
  const alg::OpId affine = alg::find_combine_op("affine");
  struct Region {
    alg::ccl::Call call;
    uint32_t base;
    alg::Schedule sched;
  };
  std::vector<Region> regions;
  uint32_t base = Library::scratch_words(n);
  for (size_t o = 0; o < alg::ccl::op_names().size(); ++o) {
    alg::ccl::Call c;
    c.op = Op(o);
    c.n = n;
    c.b = b;
    c.root = 2;  // rank 2 = node 4
    c.op_id = affine;
    c.shift = 3;
    c.radix = 3;
    regions.push_back({c, base, alg::ccl::build(c)});
    base += regions.back().sched.memory_words;
  }
  auto rank = [&](int node) { return int(std::find(perm.begin(), perm.end(), node) - perm.begin()); };
  auto region_of = [&](uint32_t a) -> const Region* {
    for (const auto& rg : regions)
      if (a >= rg.base && a < rg.base + rg.sched.memory_words) return &rg;
    return nullptr;
  };
  const auto init = [&](int node, uint32_t a) -> alg::Word {
    const Region* rg = region_of(a);
    return rg ? rg->sched.initial(rank(node), a - rg->base) : 0;
  };
  const auto r = run_firmware(
      net("mesh:3x3"), opts(),
      [&](int) -> FirmwareFn {
        return [&](NodeApi& api) {
          Library lib(api, iota(n), 0);
          Group g = lib.group(perm, 7);
          auto at = [&](Op op) { return regions[size_t(op)].base; };
          lib.bcast(g, 4, at(Op::Bcast), b);
          lib.reduce(g, 4, affine, at(Op::Reduce), b);
          lib.combine(g, affine, at(Op::Combine), b);
          lib.scatter(g, 4, at(Op::Scatter), b);
          lib.gather(g, 4, at(Op::Gather), b);
          lib.concat(g, at(Op::Concat), b);
          lib.index(g, at(Op::Index), b, {"bruck", 3, 0});
          lib.prefix(g, affine, at(Op::Prefix), b);
          lib.shift(g, 3, at(Op::Shift), b);
          lib.sync(g);
          lib.reduce_scatter(g, affine, at(Op::ReduceScatter), b);
        };
      },
      base, init);
  ASSERT_TRUE(r.ok) << r.error;
  for (int node = 0; node < n; ++node)
    for (const auto& rg : regions)
      for (uint32_t a = 0; a < rg.sched.memory_words; ++a)
        if (const auto want = rg.sched.expected(rank(node), a)) {
          ASSERT_EQ(r.memory[size_t(node)][rg.base + a], *want)
              << alg::ccl::op_names()[size_t(rg.call.op)] << " node " << node << " word " << a;
        }
}

// FORM2DGRID on mesh:4x4: every row broadcasts from its x = 0 member while
// every column broadcasts from its y = 0 member, both in flight at once.
TEST(CclLibrary, RowAndColumnBroadcastsOverlap) {
  const uint32_t row_at = 200, col_at = 220, b = 5;
  const auto init = [&](int node, uint32_t a) -> alg::Word {
    if (a >= row_at && a < row_at + b) return 1000u * uint32_t(node) + a - row_at;
    if (a >= col_at && a < col_at + b) return 5000u * uint32_t(node) + a - col_at;
    return 0;
  };
  const auto r = run_firmware(
      net("mesh:4x4"), opts(),
      [&](int node) -> FirmwareFn {
        return [&, node](NodeApi& api) {
          Library lib(api, iota(16), 0, /*barrier=*/false);
          auto [row, col] = lib.grid(lib.all(), 4);
          lib.bcast(row, row.pid(0), row_at, b);
          lib.bcast(col, col.pid(0), col_at, b);
          (void)node;
        };
      },
      256, init);
  ASSERT_TRUE(r.ok) << r.error;
  for (int node = 0; node < 16; ++node)
    for (uint32_t o = 0; o < b; ++o) {
      EXPECT_EQ(r.memory[size_t(node)][row_at + o], 1000u * uint32_t(node / 4 * 4) + o) << node;
      EXPECT_EQ(r.memory[size_t(node)][col_at + o], 5000u * uint32_t(node % 4) + o) << node;
    }
}

// The paper's §III non-interference example: ranks 1..n-1 send to 0, which receives from n-1 first.
TEST(CclLibrary, UnexpectedMessagesDoNotBlockASelectedOne) {
  const int n = 9;
  std::vector<int> order;
  const auto r = run_firmware(
      net("mesh:3x3"), opts(),
      [&](int node) -> FirmwareFn {
        return [&, node](NodeApi& api) {
          SendOptions so;
          so.tag = 5;
          if (node != 0) return void(api.send(0, {alg::Word(node)}, so));
          for (int s = n - 1; s >= 1; --s) order.push_back(int(api.recv(s, 5).words.at(0)));
        };
      },
      16, zero);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(order, (std::vector<int>{8, 7, 6, 5, 4, 3, 2, 1}));
}

// IEEE single-precision sum: commutative, not associative. The order-preserving
// combines on 2^d ranks (butterfly, hybrid kappa, reduce+bcast) all build the
// same balanced tree x0+x1, (x0+x1)+(x2+x3), ...: bit-identical results.
alg::Word fsum(alg::Word a, alg::Word b) {
  float x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  const float z = x + y;
  alg::Word w;
  std::memcpy(&w, &z, 4);
  return w;
}

TEST(CclLibrary, FloatCombineBitIdenticalWhereTheOrderIsTheSame) {
  const alg::OpId op = alg::register_combine_op({"fsum", fsum, true, "float sum (test)"});
  const int n = 8;
  const uint32_t b = 4, base = Library::scratch_words(n);
  const auto init = [&](int node, uint32_t a) -> alg::Word {
    // 1e8, 1, -1e8, 1, ...: a pair sum loses the 1 (ulp 8), a left fold keeps some.
    const float big = node % 4 == 0 ? 1e8f : -1e8f;
    const float v = a >= base && a < base + b ? (node % 2 ? 1.0f + float(a - base) : big) : 0.f;
    alg::Word w;
    std::memcpy(&w, &v, 4);
    return w;
  };
  auto result = [&](ccl::Tuning t) {
    return run_isolated([&] {
      const auto r = run_firmware(
          net("cube:3"), opts(),
          [&](int) -> FirmwareFn {
            return [&](NodeApi& api) {
              Library lib(api, iota(n), 0);
              lib.combine(lib.all(), op, base, b, t);
            };
          },
          base + 2 * b + 1, init);
      nlohmann::json out = nlohmann::json::array();
      for (int node = 0; node < n; ++node)
        for (uint32_t o = 0; o < b; ++o) out.push_back(r.memory[size_t(node)][base + b + o]);
      return out;
    });
  };
  const nlohmann::json ref = result({"butterfly", 2, 0});
  for (int node = 1; node < n; ++node) EXPECT_EQ(ref[size_t(node) * b], ref[0]);  // everyone the same value
  EXPECT_EQ(result({"hybrid", 2, 1}), ref);
  EXPECT_EQ(result({"hybrid", 2, 2}), ref);
  EXPECT_EQ(result({"reduce-bcast", 2, 0}), ref);
  // The values are chosen so that the order matters: a left fold rounds differently.
  std::vector<alg::Word> xs;
  for (int node = 0; node < n; ++node) xs.push_back(init(node, base));
  EXPECT_NE(alg::fold(op, xs), ref[0].get<alg::Word>());
}

// The synchronous-send check can fail: a ring where every node sends before it receives deadlocks
// with synchronous sends (everybody waits for a posted receive) and completes with buffered ones.
TEST(CclLibrary, SendThenReceiveRingDeadlocksWithSynchronousSends) {
  auto ring = [](bool synchronous) {
    return run_isolated([synchronous] {
      FirmwareRunOptions o = opts();
      o.synchronous_sends = synchronous;
      o.max_cycles = 100000;
      const auto r = run_firmware(
          net("mesh:2x2"), o,
          [](int node) -> FirmwareFn {
            return [node](NodeApi& api) {
              SendOptions so;
              so.tag = 1;
              api.send((node + 1) % 4, {alg::Word(node)}, so);
              api.recv((node + 3) % 4, 1);
            };
          },
          4, zero);
      return nlohmann::json{{"ok", r.ok}, {"error", r.error}};
    });
  };
  const auto sync = ring(true), buffered = ring(false);
  EXPECT_FALSE(sync["ok"].get<bool>());
  EXPECT_NE(sync["error"].get<std::string>().find("synchronous send"), std::string::npos) << sync["error"];
  EXPECT_TRUE(buffered["ok"].get<bool>()) << buffered["error"];
}

// tune_by_model: calls without an algorithm are priced by the linear model (sp1: t_s = 60, t_c = 1):
// a 1024-word bcast on 64 ranks runs nesbt with 114-word packets, M + d - 1 = 9 + 5 = 14 steps.
// The knobs of the algorithms MPI and NCCL use, from firmware: a chain broadcast in segments of
// 2 words and a linear all-to-all with 3 messages in flight, against their schedules' oracles.
TEST(CclLibrary, SegmentAndWindowKnobs) {
  const int n = 9;
  const uint32_t b = 6, at_bcast = Library::scratch_words(n);
  alg::ccl::Call bc{alg::ccl::Op::Bcast, "chain", n, 4, b};
  bc.packet = 2;
  bc.barrier = false;
  alg::ccl::Call ix{alg::ccl::Op::Index, "linear", n, 0, 2};
  ix.window = 3;
  const alg::Schedule sb = alg::ccl::build(bc), si = alg::ccl::build(ix);
  const uint32_t at_index = at_bcast + sb.memory_words, end = at_index + si.memory_words;
  const auto init = [&](int node, uint32_t a) -> alg::Word {
    if (a >= at_bcast && a < at_index) return sb.initial(node, a - at_bcast);
    return a >= at_index && a < end ? si.initial(node, a - at_index) : 0;
  };
  const auto r = run_firmware(
      net("mesh:3x3"), opts(),
      [&](int) -> FirmwareFn {
        return [&](NodeApi& api) {
          Library lib(api, iota(n), 0, /*barrier=*/false);
          lib.bcast(lib.all(), 4, at_bcast, b, {"chain", 2, 0, 2, 1});
          lib.index(lib.all(), at_index, 2, {"linear", 2, 0, 0, 3});
        };
      },
      end, init);
  ASSERT_TRUE(r.ok) << r.error;
  for (int node = 0; node < n; ++node)
    for (uint32_t a = at_bcast; a < end; ++a) {
      const auto want = a < at_index ? sb.expected(node, a - at_bcast) : si.expected(node, a - at_index);
      if (want) ASSERT_EQ(r.memory[size_t(node)][a], *want) << "node " << node << " word " << a;
    }
  // chain: 3 segments down 8 links; linear: 9 x 8 blocks, each its own message.
  EXPECT_EQ(r.log.messages.size(), 3u * 8u + 9u * 8u);
}

// The pipelined algorithms for any n, from firmware on 9 ranks: Träff's circulant-graph broadcast
// in packets of 2 words (M = 3: M + ceil(log2 9) - 1 = 6 steps, 8 x 3 messages) and the double
// binary tree all-reduce of a sum in chunks of 2 words (halves of 4: 2 (n - 1) x 4 messages),
// against their schedules' oracles.
TEST(CclLibrary, PipelinedForAnyN) {
  const int n = 9;
  const uint32_t at_bcast = Library::scratch_words(n);
  const alg::OpId sum = alg::find_combine_op("sum");
  alg::ccl::Call bc{alg::ccl::Op::Bcast, "circ-graph", n, 4, 6};
  bc.packet = 2;
  bc.barrier = false;
  alg::ccl::Call cb{alg::ccl::Op::Combine, "dbtree", n, 0, 8};
  cb.packet = 2;
  cb.op_id = sum;
  const alg::Schedule sb = alg::ccl::build(bc), sc = alg::ccl::build(cb);
  EXPECT_EQ(sb.steps, 6);
  const uint32_t at_combine = at_bcast + sb.memory_words, end = at_combine + sc.memory_words;
  const auto init = [&](int node, uint32_t a) -> alg::Word {
    if (a >= at_bcast && a < at_combine) return sb.initial(node, a - at_bcast);
    return a >= at_combine && a < end ? sc.initial(node, a - at_combine) : 0;
  };
  const auto r = run_firmware(
      net("mesh:3x3"), opts(),
      [&](int) -> FirmwareFn {
        return [&](NodeApi& api) {
          Library lib(api, iota(n), 0, /*barrier=*/false);
          lib.bcast(lib.all(), 4, at_bcast, 6, {"circ-graph", 2, 0, 2});
          lib.combine(lib.all(), sum, at_combine, 8, {"dbtree", 2, 0, 2});
        };
      },
      end, init);
  ASSERT_TRUE(r.ok) << r.error;
  for (int node = 0; node < n; ++node)
    for (uint32_t a = at_bcast; a < end; ++a) {
      const auto want = a < at_combine ? sb.expected(node, a - at_bcast) : sc.expected(node, a - at_combine);
      if (want) ASSERT_EQ(r.memory[size_t(node)][a], *want) << "node " << node << " word " << a;
    }
  EXPECT_EQ(r.log.messages.size(), 8u * 3u + 2u * 8u * 4u);
}

TEST(CclLibrary, TunedByTheLinearModel) {
  const uint32_t words = 1024, base = Library::scratch_words(64);
  std::string why;
  const auto r = run_firmware(
      net("cube:6"), opts(),
      [&](int node) -> FirmwareFn {
        return [&, node](NodeApi& api) {
          Library lib(api, iota(64), 0, /*barrier=*/false);
          lib.tune_by_model(60, 1);
          lib.bcast(lib.all(), 0, base, words);
          if (node == 0) why = lib.last_choice();
        };
      },
      base + words + 1, [&](int node, uint32_t a) -> alg::Word { return node == 0 ? a : 0; });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(why.find("nesbt (packets of 114 words)"), std::string::npos) << why;
  std::set<uint32_t> steps;
  for (const auto& m : r.log.messages) steps.insert(m.step);
  EXPECT_EQ(steps.size(), 14u);
  for (int node = 0; node < 64; ++node) EXPECT_EQ(r.memory[size_t(node)][base + words - 1], base + words - 1);
}

}  // namespace
}  // namespace wn::fw
