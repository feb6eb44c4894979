// Bruck n = 5 gold data (Bruck et al.: index states as in Figs. 1 and 3 for r = 2,
// the other r and k written out from the paper's algorithm; Fig. 9 concatenation;
// the figures' tables are not in our copy of the paper, so they are regenerated) read from node memory snapshotted
// during the cycle-accurate run: after each step's local operations (Phase 1) and after each step (rounds, Phase 3).
// Lock-step backend (RTL and model compared every cycle) unless WN_TEST_BACKEND says otherwise.
#include <sstream>

#include "algorithms/families/baselines/baselines.h"
#include "testbench/algorithms/families/bruck_helpers.h"

namespace wn::fw {
namespace {

using namespace bruck_test;
constexpr int kN = 5;

std::string backend() {
  const char* b = std::getenv("WN_TEST_BACKEND");
  return b ? b : "lockstep";
}

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> v;
  for (std::string w; in >> w;) v.push_back(w);
  return v;
}

// "ij" = B[i -> j], as the index schedule writes it (one word per block).
alg::Word cell(const std::string& e) { return alg::data_word(e[0] - '0', uint32_t(e[1] - '0'), 0, kN, 1); }

// Index memory (m = 1): IN [0,5), OUT [5,10), TMP [10,15).
constexpr uint32_t kOut = 5, kTmp = 10;

// A state given per processor: five "p0 offsets | p1 offsets | ...".
void expect_state(const std::vector<std::vector<alg::Word>>& mem, uint32_t base, const std::string& procs,
                  const std::string& what) {
  const auto v = split(procs);
  ASSERT_EQ(v.size(), size_t(kN * kN)) << what;
  for (int p = 0; p < kN; ++p)
    for (int t = 0; t < kN; ++t)
      EXPECT_EQ(mem[size_t(p)][base + uint32_t(t)], cell(v[size_t(p * kN + t)])) << what << " p" << p << " off " << t;
}

// The same, given as the paper's tables (Fig. 3): five rows (offsets), columns p0..p4.
std::string by_offset(const std::string& rows) {
  const auto v = split(rows);
  std::string out;
  for (int p = 0; p < kN; ++p)
    for (int t = 0; t < kN; ++t) out += v[size_t(t * kN + p)] + " ";
  return out;
}

struct Snapshots {
  std::vector<std::vector<alg::Word>> phase1;               // after step 0's locals
  std::vector<std::vector<std::vector<alg::Word>>> rounds;  // [round][node]
};

Snapshots index_states(int r, int k, size_t rounds) {
  const ScheduleRunResult res = run_schedule(bruck_run("bruck-index", kN, k, 1, r, backend(), true));
  Snapshots s;
  EXPECT_TRUE(res.ok()) << res.run.error << res.data_error;
  s.rounds.resize(rounds);
  for (int p = 0; p < kN; ++p) {
    const auto& spans = res.run.steps[size_t(p)];
    EXPECT_EQ(spans.size(), rounds);
    if (spans.size() != rounds) return s;
    s.phase1.push_back(spans[0].before_sends);
    for (size_t t = 0; t < rounds; ++t) s.rounds[t].push_back(spans[t].memory);
  }
  return s;
}

const char* kInitial = "00 01 02 03 04 10 11 12 13 14 20 21 22 23 24 30 31 32 33 34 40 41 42 43 44";
const char* kPhase1 = "00 01 02 03 04 11 12 13 14 10 22 23 24 20 21 33 34 30 31 32 44 40 41 42 43";
const char* kPhase2 = "00 40 30 20 10 11 01 41 31 21 22 12 02 42 32 33 23 13 03 43 44 34 24 14 04";
const char* kFinal = "00 10 20 30 40 01 11 21 31 41 02 12 22 32 42 03 13 23 33 43 04 14 24 34 44";

void expect_ends(const Snapshots& s) {
  ASSERT_FALSE(s.rounds.empty());
  expect_state(s.phase1, 0, kInitial, "S0 initial (IN)");
  expect_state(s.phase1, kTmp, kPhase1, "after Phase 1");
  expect_state(s.rounds.back(), kTmp, kPhase2, "after Phase 2");
  expect_state(s.rounds.back(), kOut, kFinal, "after Phase 3");
}

TEST(BruckGolden, Fig3IndexR2) {  // r = 2 (Figs. 1 and 3)
  const Snapshots s = index_states(2, 1, 3);
  expect_ends(s);
  expect_state(s.rounds[0], kTmp,
               by_offset("00 11 22 33 44  40 01 12 23 34  02 13 24 30 41  42 03 14 20 31  04 10 21 32 43"),
               "after round 1");
  expect_state(s.rounds[1], kTmp,
               by_offset("00 11 22 33 44  40 01 12 23 34  30 41 02 13 24  20 31 42 03 14  04 10 21 32 43"),
               "after round 2");
  expect_state(s.rounds[2], kTmp,
               by_offset("00 11 22 33 44  40 01 12 23 34  30 41 02 13 24  20 31 42 03 14  10 21 32 43 04"),
               "after round 3");
}

const char* kR3Round1 = "00 40 02 03 43 11 01 13 14 04 22 12 24 20 10 33 23 30 31 21 44 34 41 42 32";
const char* kR3Round2 = "00 40 30 03 43 11 01 41 14 04 22 12 02 20 10 33 23 13 31 21 44 34 24 42 32";
const char* kR4Round1 = "00 40 02 03 04 11 01 13 14 10 22 12 24 20 21 33 23 30 31 32 44 34 41 42 43";
const char* kR4Round2 = "00 40 30 03 04 11 01 41 14 10 22 12 02 20 21 33 23 13 31 32 44 34 24 42 43";
const char* kR4Round3 = "00 40 30 20 04 11 01 41 31 10 22 12 02 42 21 33 23 13 03 32 44 34 24 14 43";

TEST(BruckGolden, IndexR3) {
  const Snapshots s = index_states(3, 1, 3);
  expect_ends(s);
  expect_state(s.rounds[0], kTmp, kR3Round1, "after round 1");
  expect_state(s.rounds[1], kTmp, kR3Round2, "after round 2");
}

TEST(BruckGolden, IndexR4) {
  const Snapshots s = index_states(4, 1, 4);
  expect_ends(s);
  expect_state(s.rounds[0], kTmp, kR4Round1, "after round 1");
  expect_state(s.rounds[1], kTmp, kR4Round2, "after round 2");
  expect_state(s.rounds[2], kTmp, kR4Round3, "after round 3");
}

TEST(BruckGolden, IndexR5DirectExchange) {  // rounds 1-3 as r = 4's
  const Snapshots s = index_states(5, 1, 4);
  expect_ends(s);
  expect_state(s.rounds[0], kTmp, kR4Round1, "after round 1");
  expect_state(s.rounds[1], kTmp, kR4Round2, "after round 2");
  expect_state(s.rounds[2], kTmp, kR4Round3, "after round 3");
}

// k = 2: the rounds reach the k = 1 states.
TEST(BruckGolden, IndexTwoPortsR3) {
  const Snapshots r3 = index_states(3, 2, 2);
  expect_ends(r3);
  expect_state(r3.rounds[0], kTmp, kR3Round2, "r=3 k=2 after round 1 (= k=1 round 2)");
}
TEST(BruckGolden, IndexTwoPortsR5) {
  const Snapshots r5 = index_states(5, 2, 2);
  expect_ends(r5);
  expect_state(r5.rounds[0], kTmp, kR4Round2, "r=5 k=2 after round 1 (= k=1 round 2)");
}

// Fig. 9: one-port concatenation, n = 5, in the paper's negative-offset
// convention; wormnet uses positive offsets, i.e. the mirror image:
// node v slot u holds B[-j] where the paper's node -v slot u holds B[j].
TEST(BruckGolden, Fig9ConcatMirrored) {
  const char* fig9[] = {"B0 B1 | B1 B2 | B2 B3 | B3 B4 | B4 B0",
                        "B0 B1 B2 B3 | B1 B2 B3 B4 | B2 B3 B4 B0 | B3 B4 B0 B1 | B4 B0 B1 B2",
                        "B0 B1 B2 B3 B4 | B1 B2 B3 B4 B0 | B2 B3 B4 B0 B1 | B3 B4 B0 B1 B2 | B4 B0 B1 B2 B3"};
  const ScheduleRunResult res = run_schedule(bruck_run("bruck-concat", kN, 1, 1, 0, backend(), true));
  ASSERT_TRUE(res.ok()) << res.run.error << res.data_error;
  for (int round = 0; round < 3; ++round) {
    std::vector<std::vector<int>> neg(kN);
    int node = 0;
    for (const auto& e : split(fig9[round])) e == "|" ? void(++node) : neg[size_t(node)].push_back(e[1] - '0');
    for (int v = 0; v < kN; ++v) {
      const auto& mem = res.run.steps[size_t(v)][size_t(round)].memory;
      const auto& paper = neg[size_t((kN - v) % kN)];
      for (size_t u = 0; u < paper.size(); ++u)
        EXPECT_EQ(mem[kN + u], alg::data_word((kN - paper[u]) % kN, 0, 0, kN, 1))
            << "round " << round << " node " << v << " slot " << u;
    }
  }
  for (int v = 0; v < kN; ++v)  // after lines 17-18: every node B0..B4
    for (int j = 0; j < kN; ++j)
      EXPECT_EQ(res.run.steps[size_t(v)].back().memory[size_t(j)], alg::data_word(j, 0, 0, kN, 1));
}

// k-port rounds on the RTL: K7 (n = 10, k = 3, b = 3: offsets +4, +6, +8) and
// I17 (n = 16, k = 3, r = 4: C1 = 2, C2 = 8b), data checked word for word.
TEST(BruckGolden, LockstepKPortConcatK7) {
  const Measured m = run_and_measure(bruck_run("bruck-concat", 10, 3, 3, 0, backend()), 10);
  EXPECT_EQ(m.c1, 2);
  EXPECT_EQ(m.c2, 9u);
  EXPECT_EQ(m.offsets, (std::set<int>{4, 6, 8}));
}
TEST(BruckGolden, LockstepKPortIndexI17) {
  const Measured m = run_and_measure(bruck_run("bruck-index", 16, 3, 2, 4, backend()), 16);
  EXPECT_EQ(m.c1, 2);
  EXPECT_EQ(m.c2, 16u);  // 8 blocks of 2 words
}

}  // namespace
}  // namespace wn::fw
