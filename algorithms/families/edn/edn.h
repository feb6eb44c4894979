// EDN (extended dominating node) broadcast of Tsai & McKinley (Tsai's thesis:
// meshes Ch 3 and the Appendix, tori Ch 4) with 3-port (or all-port) nodes. On 2^k x 2^k meshes the
// source reaches the 4 top-level EDNs in a 2-step startup, then the message
// descends one level of the dominating-set hierarchy per step (k + 1 steps);
// on 2^d x 2^d tori Y/T phases (and one F step) take d steps. Every step's
// routes are channel-disjoint, N - 1 messages, for every source.
#pragma once
#include <utility>
#include <vector>

#include "algorithms/registry.h"
#include "algorithms/thesis_formulas.h"

namespace wn::alg::edn {

using Node = std::pair<int, int>;  // (x, y): x is the first-routed dimension
using Send2D = std::pair<Node, Node>;
using StepSends = std::vector<Send2D>;
using IdSends = std::vector<std::pair<int, int>>;  // (from, to) node ids

// The 4 level-(k-1) nodes A, B, C, D (Appendix A recurrence; k = 2: pattern B).
std::vector<Node> top_nodes(int k);
// The descent of a 2^k x 2^k mesh, one entry per step: top(k), then the
// replicated steps of tree(k-1); k = 2: the level-1 nodes to their neighbours.
std::vector<StepSends> tree(int k);

// An EDN hierarchy of a mesh: the top nodes (level t) and the descent, one entry per step, from the
// tops down to every node.
struct Hierarchy {
  std::vector<Node> tops;
  std::vector<StepSends> descent;
  bool one_step = false;  // a top reaches the other three in one step (a one-step startup from it)
  int top_hops = 0;       // hops of the first descent step (the search's objective)
};
// b when side = b * 2^k with b in 4..7 (and k set), else 0.
int base_factor(int side, int* k);
// The hierarchy of a w x h mesh with w = b1 * 2^k and h = b2 * 2^k, b1, b2 in 4..7: 2^k x 2^k
// (b1 = b2 = 4) from the Appendix recurrence (top_nodes, tree), the others from our base blocks
// (mesh_blocks.cpp); nullptr for other sizes. Computed once per size.
const Hierarchy* mesh_hierarchy(int w, int h);
// The same for a 2D mesh topology (nullptr for any other).
const Hierarchy* mesh_hierarchy(const Topology& topo);
// 3D meshes w x h x z, z >= 2, with 2D hierarchies on their w x h planes (mesh3d.cpp); the units of
// the thesis's structure where w = h = 4 * 2^k and z is in 2..5 or a multiple of one of 2..5 (the
// unit's depth: unit_depth, which sets the copies stacked along z, or 0).
int unit_depth(int z, int* copies);
bool mesh3_supported(const Topology& topo);
// The broadcast's sends per step from `source`: startup, the spread along z, the unit's descent.
std::vector<IdSends> mesh3_steps(const Topology& topo, int source);
// Steps of the descent below the 4 tops (the hierarchy's height).
int mesh3_height(const Topology& topo);

// The 2-step startup from `source` to the top nodes (our deterministic rule;
// the thesis's figures of it are lost): step 1 and step 2 sends (none: a one-step startup). Paths of
// one step are channel-disjoint.
template <class T>
struct BasicStartup {
  std::vector<std::pair<T, T>> step1, step2;
};
using Startup = BasicStartup<Node>;
using IdStartup = BasicStartup<int>;
// The same rule toward any 4 `tops`; `reversed`: the paths are checked in the
// direction the messages will finally travel, top -> holder (a reduction's
// completion is the time-reverse of a startup: reversed XY = YX forward).
Startup startup_to(const Topology& topo, const std::vector<Node>& tops, Node source, bool reversed);
// The same rule on node ids of any mesh (3D: the 3D EDN's startup), at most `cap` sends per node.
IdStartup startup_ids(const Topology& topo, const std::vector<int>& tops, int source, int cap);

// log2 of the side w >= 4 of `topo` when it is `kind` with `dims` dimensions and a square
// 2^k x 2^k cross-section (any third radix), or 0.
int square_log2(const Topology& topo, TopoKind kind, int dims);
// log2 of the side of a square 2^k x 2^k mesh with k >= 2, or 0 when `topo` is not one.
int mesh_k(const Topology& topo);
// The same for a 2^d x 2^d torus, d >= 2.
int torus_d(const Topology& topo);
// The sends of every step of the torus EDN broadcast from `source` (d steps).
std::vector<StepSends> torus_steps(int d, Node source);
// d of a 2^d x 2^d x z torus (d >= 2, z >= 2), or 0; and its broadcast's sends per step.
int torus3_d(const Topology& topo);
std::vector<IdSends> torus3_steps(const Topology& topo, int source);

// A broadcast schedule from its per-step sends (ids): a parent never sends to the source.
Schedule broadcast_schedule(const char* name, const Topology& topo, int src, uint32_t m,
                            const std::vector<IdSends>& steps);
// The family's input check: --bytes of at least one word, `words_per_node` of node memory that fits.
void check_message(const Topology& topo, const AlgorithmArgs& args, uint64_t words_per_node);

// A broadcast's memory and oracle: the source holds the message (distinct words), every other node
// scratch; afterwards every node holds the message.
void set_broadcast_memory(Schedule& s, int source);

Schedule build_edn_broadcast(const Topology& topo, const AlgorithmArgs& args);
// Dimensional broadcast on a w x w mesh or torus: RD along the source's row, then along every column.
std::vector<StepSends> dimensional_steps(int w, Node source);
Schedule build_dim_broadcast(const Topology& topo, const AlgorithmArgs& args);
// Scatter-collect broadcast on a w x w mesh or torus (2 log w + 2 (w - 1) steps).
Schedule build_sc_broadcast(const Topology& topo, const AlgorithmArgs& args);
// The sends of every step of the reduction toward `root` on a w x h mesh with a hierarchy
// (the thesis's Ch 3, Fig 3.26): the broadcast tree of the h x w mesh rotated by 90 degrees and
// reversed, then the reversed startup (2 steps, or 1); k + 1 steps on 2^k x 2^k. With `plain`, the
// un-rotated reversed tree of the w x h mesh (the thesis's negative example: contention for k >= 3).
std::vector<StepSends> reduce_steps(const Topology& topo, Node root, bool plain);
Schedule build_edn_reduce(const Topology& topo, const AlgorithmArgs& args);
// The same schedule with concatenation: the root collects every node's block.
Schedule build_edn_gather(const Topology& topo, const AlgorithmArgs& args);

// sld-broadcast (the thesis's Ch 3, Fig 3.3) on a 2^k x 2^k mesh, k >= 2: the sends (ids) of every step, log2 N - 1
// steps.
std::vector<IdSends> sld_steps(const Topology& topo, int source);
// ft-broadcast (the thesis's Ch 5, the Fibonacci tree of Table 5.3): N(t, K) and t(P, K) live with the thesis's
// formulas (the tau model evaluates them too).
using alg::ft_nodes;
using alg::ft_steps;
Schedule build_ft_broadcast(const Topology& topo, const AlgorithmArgs& args);
// edn-transpose (the thesis's Ch 3; its pairing figure is lost, ours is reconstructed): the transpose of an m x m
// matrix in (block, block) distribution in k steps on a 2^k x 2^k mesh. One move of the plan: the `items` (abstract ids
// x + 2^k y of the blocks' owners) go from `from` to `to` in step `step`; see transpose_plan.cpp for the design.
struct Transfer {
  int step = 0;
  Node from, to;
  std::vector<int> items;
};
std::vector<Transfer> transpose_plan(int k);
Schedule build_edn_transpose(const Topology& topo, const AlgorithmArgs& args);
// Words per node the schedule needs (own block, result block, the scratch of relaying nodes).
uint64_t transpose_memory_words(int k, uint32_t words);
AlgorithmInfo transpose_info();

}  // namespace wn::alg::edn

namespace wn::alg {
// Their registrations (family.cpp stays a table of contents).
AlgorithmInfo sld_info();
AlgorithmInfo ft_info();
}  // namespace wn::alg
