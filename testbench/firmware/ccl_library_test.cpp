// The CCL library called from node firmware (firmware/ccl.h): the process
// group examples PG1-PG4 of spec seed-001 §5.10, every operation on a permuted
// group checked against its schedule's oracle, row and column broadcasts in
// flight at once on a grid, and non-interference of point-to-point messages.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "firmware/ccl.h"
#include "experiments/isolated_run.h"
#include "firmware/firmware_run.h"

#include <cstring>

namespace wn::fw {
namespace {

using ccl::Group;
using ccl::Library;
using alg::ccl::Op;

NetworkSetup net(const std::string& topo) {
  NetworkParams np;
  const char* b = std::getenv("WN_TEST_BACKEND");
  np.backend = parse_backend(b ? b : "model");
  return NetworkSetup::resolve(topo, "one", np);
}

FirmwareRunOptions opts() {
  FirmwareRunOptions o;
  o.profile = find_profile("ideal");
  return o;
}

std::vector<int> iota(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = i;
  return v;
}

const auto zero = [](int, uint32_t) -> alg::Word { return 0; };

// PG1 then PG2: partition(ALL, pid % 2, 0), then group() with the same lists.
TEST(CclLibrary, PG1PartitionThenPG2Group) {
  std::map<int, std::pair<Group, Group>> got;
  std::map<int, uint32_t> counters;
  const auto r = run_firmware(net("mesh:3x3"), opts(), [&](int node) -> FirmwareFn {
    return [&, node](NodeApi& api) {
      if (node >= 7) return;
      Library lib(api, iota(7), 0);
      Group p = lib.partition(lib.all(), node % 2, 0);
      Group g = lib.group(node % 2 ? std::vector<int>{1, 3, 5} : std::vector<int>{0, 2, 4, 6}, node % 2);
      got[node] = {p, g};
      counters[node] = lib.counter();
    };
  }, 256, zero);
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

// PG3 (Example 2): myval = temperature < BOILING ? COLD : HOT, key = temperature.
TEST(CclLibrary, PG3PartitionByTemperature) {
  const int temp[7] = {50, 120, 30, 100, 100, 10, 200}, kCold = 0, kHot = 1;
  std::map<int, Group> got;
  const auto r = run_firmware(net("mesh:3x3"), opts(), [&](int node) -> FirmwareFn {
    return [&, node](NodeApi& api) {
      if (node >= 7) return;
      Library lib(api, iota(7), 0);
      got[node] = lib.partition(lib.all(), temp[node] < 100 ? kCold : kHot, temp[node]);
    };
  }, 256, zero);
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

// PG4: partition over 7 processes is one concat: 3 steps of 1, 2, 3 records (4 words each).
TEST(CclLibrary, PG4PartitionIsOneConcat) {
  const auto r = run_firmware(net("mesh:3x3"), opts(), [&](int node) -> FirmwareFn {
    return [node](NodeApi& api) {
      if (node >= 7) return;
      Library lib(api, iota(7), 0);
      lib.partition(lib.all(), 0, node);
    };
  }, 256, zero);
  ASSERT_TRUE(r.ok) << r.error;
  std::map<uint32_t, uint32_t> words;
  for (const auto& m : r.log.messages) words[m.step] = std::max(words[m.step], m.words);
  EXPECT_EQ(words, (std::map<uint32_t, uint32_t>{{0, 4}, {1, 8}, {2, 12}}));
  EXPECT_EQ(r.log.messages.size(), 21u);
}

// Every operation from firmware on a permuted group (rank r = node perm[r]),
// each in its own memory region, against the oracle of the operation's schedule.
TEST(CclLibrary, EveryOperationOnAPermutedGroup) {
  const std::vector<int> perm = {8, 6, 4, 2, 0, 1, 3, 5, 7};
  const int n = 9;
  const uint32_t b = 3;
  const alg::OpId affine = alg::find_combine_op("affine");
  struct Region { alg::ccl::Call call; uint32_t base; alg::Schedule sched; };
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
  const auto r = run_firmware(net("mesh:3x3"), opts(), [&](int) -> FirmwareFn {
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
    };
  }, base, init);
  ASSERT_TRUE(r.ok) << r.error;
  for (int node = 0; node < n; ++node)
    for (const auto& rg : regions)
      for (uint32_t a = 0; a < rg.sched.memory_words; ++a)
        if (const auto want = rg.sched.expected(rank(node), a))
          ASSERT_EQ(r.memory[size_t(node)][rg.base + a], *want)
              << alg::ccl::op_names()[size_t(rg.call.op)] << " node " << node << " word " << a;
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
  const auto r = run_firmware(net("mesh:4x4"), opts(), [&](int node) -> FirmwareFn {
    return [&, node](NodeApi& api) {
      Library lib(api, iota(16), 0, /*barrier=*/false);
      auto [row, col] = lib.grid(lib.all(), 4);
      lib.bcast(row, row.pid(0), row_at, b);
      lib.bcast(col, col.pid(0), col_at, b);
      (void)node;
    };
  }, 256, init);
  ASSERT_TRUE(r.ok) << r.error;
  for (int node = 0; node < 16; ++node)
    for (uint32_t o = 0; o < b; ++o) {
      EXPECT_EQ(r.memory[size_t(node)][row_at + o], 1000u * uint32_t(node / 4 * 4) + o) << node;
      EXPECT_EQ(r.memory[size_t(node)][col_at + o], 5000u * uint32_t(node % 4) + o) << node;
    }
}

// §1.3 non-interference: ranks 1..n-1 send to 0, which receives from n-1 first.
TEST(CclLibrary, UnexpectedMessagesDoNotBlockASelectedOne) {
  const int n = 9;
  std::vector<int> order;
  const auto r = run_firmware(net("mesh:3x3"), opts(), [&](int node) -> FirmwareFn {
    return [&, node](NodeApi& api) {
      SendOptions so;
      so.tag = 5;
      if (node != 0) return void(api.send(0, {alg::Word(node)}, so));
      for (int s = n - 1; s >= 1; --s) order.push_back(int(api.recv(s, 5).words.at(0)));
    };
  }, 16, zero);
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
      const auto r = run_firmware(net("cube:3"), opts(), [&](int) -> FirmwareFn {
        return [&](NodeApi& api) {
          Library lib(api, iota(n), 0);
          lib.combine(lib.all(), op, base, b, t);
        };
      }, base + 2 * b + 1, init);
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

// MPICH-style group shapes: dup (the same list twice: distinct PGIDs, independent tags), half,
// split (partition by rank < n/2), even ranks; an affine combine (rank order) in each, concurrently
// where the groups are disjoint.
TEST(CclLibrary, GroupShapesDupHalfSplitEven) {
  const int n = 12;
  const uint32_t b = 2, base = Library::scratch_words(n), stride = 16;
  const alg::OpId affine = alg::find_combine_op("affine");
  const auto x = [](int node, uint32_t o) { return alg::Word(0x10001u * uint32_t(node + 3) + o); };
  const auto init = [&](int node, uint32_t a) -> alg::Word {
    return a >= base && (a - base) % stride < b ? x(node, (a - base) % stride) : 0;
  };
  std::map<int, std::vector<std::vector<int>>> members;  // node -> members of the groups it used, in order
  std::map<int, std::vector<std::pair<uint32_t, int>>> ids;
  const auto r = run_firmware(net("mesh:4x3"), opts(), [&](int node) -> FirmwareFn {
    return [&, node](NodeApi& api) {
      Library lib(api, iota(n), 0);
      std::vector<Group> gs;
      gs.push_back(lib.group(iota(n), 1));   // dup: the same list twice
      gs.push_back(lib.group(iota(n), 1));
      gs.push_back(lib.partition(lib.all(), node < n / 2, node));  // split
      if (node % 2 == 0) gs.push_back(lib.group({0, 2, 4, 6, 8, 10}, 2));  // even ranks
      if (node < n / 2) gs.push_back(lib.group({0, 1, 2, 3, 4, 5}, 3));    // half
      for (size_t i = 0; i < gs.size(); ++i) {
        lib.combine(gs[i], affine, base + uint32_t(i) * stride, b);
        members[node].push_back(gs[i].members);
        ids[node].push_back(gs[i].pgid);
      }
    };
  }, base + 5 * stride, init);
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

// The synchronous-send check can fail: a ring where every node sends before it receives deadlocks
// with synchronous sends (everybody waits for a posted receive) and completes with buffered ones.
TEST(CclLibrary, SendThenReceiveRingDeadlocksWithSynchronousSends) {
  auto ring = [](bool synchronous) {
    return run_isolated([synchronous] {
      FirmwareRunOptions o = opts();
      o.synchronous_sends = synchronous;
      o.max_cycles = 100000;
      const auto r = run_firmware(net("mesh:2x2"), o, [](int node) -> FirmwareFn {
        return [node](NodeApi& api) {
          SendOptions so;
          so.tag = 1;
          api.send((node + 1) % 4, {alg::Word(node)}, so);
          api.recv((node + 3) % 4, 1);
        };
      }, 4, zero);
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
TEST(CclLibrary, TunedByTheLinearModel) {
  const uint32_t words = 1024, base = Library::scratch_words(64);
  std::string why;
  const auto r = run_firmware(net("cube:6"), opts(), [&](int node) -> FirmwareFn {
    return [&, node](NodeApi& api) {
      Library lib(api, iota(64), 0, /*barrier=*/false);
      lib.tune_by_model(60, 1);
      lib.bcast(lib.all(), 0, base, words);
      if (node == 0) why = lib.last_choice();
    };
  }, base + words + 1, [&](int node, uint32_t a) -> alg::Word { return node == 0 ? a : 0; });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(why.find("nesbt (packets of 114 words)"), std::string::npos) << why;
  std::set<uint32_t> steps;
  for (const auto& m : r.log.messages) steps.insert(m.step);
  EXPECT_EQ(steps.size(), 14u);
  for (int node = 0; node < 64; ++node) EXPECT_EQ(r.memory[size_t(node)][base + words - 1], base + words - 1);
}

}  // namespace
}  // namespace wn::fw
