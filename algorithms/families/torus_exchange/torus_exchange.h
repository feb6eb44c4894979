// Configurable complete exchange on 2^d x 2^d tori (Suh, Shin & An).
// One family T1.x, 0 <= x <= d-3: x = 0 is T2 (pure mirror
// exchange, fewest blocks), x = 1 the paper's T1.1, x = d-3 T1 (fewest
// start-ups). The paper defines T1.x for 1 <= x <= d-4 only and in outline;
// x = 0, x = d-3 and the phase-by-phase schedule for x >= 2 are ours
// (docs/papers/torus-exchange.md). Built in three stages, each in its own file:
//   plan.cpp    who talks to whom in every step (the paper's mirror partners
//               and diagonal groups, its OCR-damaged formulas read as the prose
//               says; T1.x step counts corrected, E2),
//   blocks.cpp  which blocks every message carries (the paper gives only
//               sizes: our closed-form rules in ideal mode, responsibility
//               sets in keep mode),
//   layout.cpp  where the blocks live in node memory, and the Schedule IR.
//
// Memory per node, in blocks of `words` words (the same layout as
// direct-alltoall, so the two are interchangeable in comparisons):
//   IN      [0, N)        block t = B[me -> t]; read-only, never overwritten
//   OUT     [N, 2N)       block s = B[s -> me] when the exchange is complete
//   SCRATCH [2N, 2N + k)  blocks in transit (a heavy node holds 2^x N of them)
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/registry.h"

namespace wn::alg {

// What a node does in one step of the plan.
enum class TorusRule : uint8_t {
  Idle,
  Exch,     // EXCH(p): send blocks with bit_p(r) != bit_{p-1}(r) (p = d: bit_{d-1}(r) = 1)
  Split,    // SPLIT(p): the XM_p step of concentration phase p <= x
  Handoff,  // HANDOFF(p): the YM_p step of concentration phase p; SG_{p+1}(2) sends everything
  Scatter,  // SCATTER(s): send step s (one-way)
  Recv,     // receiver of a one-way send step (sends nothing)
  Extra,    // literal T1's SG_p(2) exchange in phases 2..d-2: its data left in phase p-1, empty in ideal mode
};

struct TorusRole {
  int partner = -1;  // physical node id
  uint8_t dim = 0;   // 0: the message moves in x, 1: in y
  TorusRule rule = TorusRule::Idle;
  uint8_t p = 0;  // the phase p of EXCH/SPLIT/HANDOFF, the send step s of SCATTER
};

struct TorusStep {
  std::string label;             // P<p>S<k> or SendS<s>, as in the paper
  bool one_way = false;          // a send-phase step
  std::vector<TorusRole> roles;  // per physical node
};

struct TorusPlan {
  int d = 0, x = 0, side = 0;
  std::vector<TorusStep> steps;
};

// 2^d of a square 2D mesh/torus side, or 0 when it is not one (d >= 2).
int torus_exponent(const Topology& topo);
// The paper's diagonal groups of a 2^p x 2^p window: SG_p(1) membership (p <= 1:
// every node), and j of G_p(j), 1-based (p >= 2).
bool torus_sg1(int p, int x, int y);
bool torus_sg2(int p, int x, int y);
int torus_group(int p, int x, int y);
// The step list of T1.x on the topology (T1.x for x = 0 is T2).
// `literal` (x = d-3 only): T1 as the paper lists it, SG_p(2) exchanging too in
// phases 2..d-2; those messages are empty in ideal mode, a few blocks in keep mode.
TorusPlan torus_plan(const Topology& topo, int x, bool literal = false);
// Closed-form step count and ideal-mode block total of our schedules; they differ from the
// paper's Table 1 for T1 at d >= 6 (E1) and T1.x at x >= 2 (E2), docs/papers/torus-exchange.md.
int torus_startups(int d, int x);
uint64_t torus_blocks(int d, int x);

enum class TorusMode { Ideal, Keep };

// The blocks of every message, one step at a time (a schedule's block moves
// are ~N^2 d keys: 7.5 GB at d = 7, where one step's are at most N^2 / 2). Block
// key = t * N + s (destination-major, so a node's holdings sorted by key group
// blocks by destination and a message selected by destination is a few
// contiguous runs). `on_step(k, sent)`, if given, sees step k's keys per node,
// sorted (empty: no message). Returns, per key, the step of its last move.
constexpr uint16_t kTorusNever = UINT16_MAX;  // a block that never moves
using TorusStepFn = std::function<void(size_t step, const std::vector<std::vector<uint32_t>>& sent)>;
std::vector<uint16_t> torus_move_blocks(const TorusPlan& plan, const Topology& topo, TorusMode mode,
                                        const TorusStepFn& on_step = {});

// The Schedule of the plan's movement, blocks of `words` words (the movement
// is computed twice: first for every block's last move, then step by step).
Schedule torus_schedule(const std::string& name, const TorusPlan& plan, const Topology& topo, TorusMode mode,
                        uint32_t words);

// Payload: word o of block B[s -> t] (the value direct-alltoall uses, so that
// node memories of the two can be compared word for word).
inline Word exchange_word(int s, uint32_t t, uint32_t o, int nodes, uint32_t words) {
  return 0x40000000u + (uint32_t(s) * uint32_t(nodes) + t) * words + o;
}
inline Word exchange_scratch(int node, uint32_t addr) { return 0xc0000000u ^ (uint32_t(node) << 20) ^ addr; }

// S (start-ups = steps), B (sum over steps of the largest message, in blocks)
// and H (sum over steps of the largest hop count of a non-empty message), counted
// from a schedule of blocks of `words` words.
struct ExchangeCounts {
  int startups = 0;
  uint64_t blocks = 0;
  uint64_t hops = 0;
  std::vector<uint64_t> step_blocks;  // per tag: largest message, blocks
  std::vector<int> step_hops;         // per tag: largest hop count
};
ExchangeCounts exchange_counts(const Schedule& s, const Topology& topo, uint32_t words);

}  // namespace wn::alg
