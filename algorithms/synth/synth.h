// Schedule synthesis with a SAT solver (docs/guide/synth.md; the EDN thesis's non-power-of-two
// and 3D meshes, Ch 3, Tables 3.2-3.5, whose figures are lost): the
// fewest steps in which a broadcast (or a reduction) reaches every node of a
// network when every node sends at most K messages per step, sends only what
// it holds, and the routes of one step's messages — the network's own routing
// function — share no channel (no stepwise contention, as the thesis defines it).
//
// Encoding (CaDiCaL, encode.h): h[v][t] "v holds the message after step t",
// x[u->v][t] "u sends to v in step t" for every pair allowed by the
// constraints; x -> h[u][t-1], x -> !h[v][t-1] (nobody receives twice),
// h[v][t] <-> h[v][t-1] or some x[.->v][t]; at most K sends per node per step;
// no two messages of a step on one channel (as overlapping straight runs of
// their routes); h[v][N] for all v. N runs up from the lower bound
// max(ceil(log_{K+1} n), the most messages any node is away) in one
// incremental solver; every N that is UNSAT is a proof that no such schedule
// has N steps. Mirror images of the network that fix the root and every route
// are broken by lex-leader constraints.
// A reduction is the broadcast tree reversed in time, each message taking the
// route from the child to the parent; that route decides the channel conflicts.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/schedule.h"
#include "systemc/topology/topology.h"

namespace wn::alg::synth {

enum class Collective { Broadcast, Reduce };

struct Request {
  Collective collective = Collective::Broadcast;
  int source = 0;  // the root
  int ports = 1;   // K: sends per node per step (broadcast), receives (reduce)
  int steps = 0;   // 0: minimise from the lower bound; else exactly this many
  // Seconds for the whole synthesis of one root: the routes, the greedy search, building the
  // encoding and every solver call (an attempt the deadline cuts short is a "timeout").
  double timeout_s = 60;
  int max_hops = 0;             // 0: any route length
  std::vector<int> avoid;       // faulty nodes: no message from, to or through them
  bool min_total_hops = false;  // then, among minimum-step schedules, the fewest hops summed
  bool symmetry = true;         // lex-leader constraints for the mirror images that fix the root
  bool incremental = true;      // one solver across step counts (else a fresh CNF per attempt)
  bool heuristic = true;        // a greedy schedule first: the solver then only tries fewer steps
};

struct Message {
  int step = 0;  // 0-based, in the collective's own order
  int from = 0, to = 0;
};

struct Attempt {
  int steps = 0;
  // "SAT", "UNSAT", "timeout" (the deadline, in the solver or while encoding), "memory" (the step's
  // encoding would not fit the host limit: not built) or "greedy" (the heuristic's schedule, no solver)
  std::string result;
  uint64_t memory_bytes = 0, memory_limit = 0;  // "memory": the estimated need in all, the host limit
  uint64_t vars = 0, clauses = 0;
  double seconds = 0;         // in the solver
  double encode_seconds = 0;  // building the clauses added for this attempt
  int max_total_hops = -1;    // the bound of a hop-minimising attempt (-1: none)
};

struct Result {
  bool found = false;
  bool optimal = false;  // every smaller step count was proven UNSAT (or is below the lower bound)
  int steps = 0;
  int lower_bound = 0;
  int total_hops = 0;         // summed over the messages
  bool hops_optimal = false;  // min_total_hops: one hop fewer was proven UNSAT
  std::vector<Message> messages;
  std::vector<Attempt> attempts;
  int symmetries = 0;            // route-preserving mirror images fixing the root that were broken
  uint64_t candidates = 0;       // (sender, receiver) pairs allowed by the constraints
  double build_seconds = 0;      // routes, segments and symmetries before the first attempt
  bool build_timed_out = false;  // the deadline passed while building the routes (no attempt made)
};

// Host memory a synthesis needs before its first solver call, estimated from the topology alone
// (nothing is built): the routes of every pair, the candidate messages, and the encoding of the
// first step count it must try (--steps, else the lower bound ceil(log_{K+1} n)).
struct MemoryEstimate {
  uint64_t candidates = 0;     // (sender, receiver) pairs, an upper bound
  uint64_t route_bytes = 0;    // every pair's route (freed once the candidates are built)
  uint64_t net_bytes = 0;      // the candidate messages with their runs and channels
  uint64_t layer_clauses = 0;  // one more step of the encoding: its clauses
  uint64_t layer_bytes = 0;    // and their host memory (in the solver and ours)
  int first_steps = 1;         // the step count of the first solver call
  uint64_t peak_bytes = 0;     // net + max(routes, the first call's encoding)
};
MemoryEstimate estimate_memory(const Topology& topo, const Request& req);
// Throws ConfigError(Param::topology, sizes and the limit) when the estimate's peak exceeds the host
// limit of simulated node memory (node_memory_limit_bytes: a third of this machine's RAM).
void check_memory(const Topology& topo, const Request& req);

// Throws ConfigError for a request that cannot be encoded (a root that is
// avoided, ports < 1, steps above the node count).
Result synthesize(const Topology& topo, const Request& req);

// Every root's schedule from one root's: `sigma` is a route-preserving node permutation
// (route_symmetries), the result is for root sigma[source].
Result mapped(const Result& r, const std::vector<int>& sigma);
// The route-preserving node permutations of `topo` that keep `avoid` avoided (mirror images; a
// torus's translations): roots in one orbit need the same steps.
std::vector<std::vector<int>> route_symmetries(const Topology& topo, const std::vector<int>& avoid);

// The schedule IR of a found schedule, `words` words per node (the synth-* algorithms run it;
// `wormnet synth --out` writes it as a schedule file). Broadcast: the root's [0, words) to every
// node. Reduce: IN = [0, words), OUT = [words, 2 words); the root's OUT = op over every IN.
Schedule schedule_of(const Topology& topo, const Result& r, Collective c, int root, uint32_t words, OpId op);

// The solver's facts as JSON text and back (the cache's entries; the `synth` key of a schedule file).
std::string to_json(const Topology& topo, const Request& req, const Result& r);
// Throws ConfigError(Param::schedule, why) for a file that does not describe `topo`, a number out
// of range (checked before conversion) or a found schedule that breaks a constraint (invalid()).
Result from_json(const std::string& text, const Topology& topo, Request* req);
// "" when the found schedule `r` obeys every constraint of `req` on `topo` (each live node but the
// root receives exactly once, from a node that holds the message; at most req.ports sends per
// node per step; no two messages of a step on one channel; --max-hops, --avoid), else why not.
std::string invalid(const Topology& topo, const Request& req, const Result& r);

// The cache directory: $WORMNET_SYNTH_CACHE, else $XDG_CACHE_HOME/wormnet/synth, else
// ~/.cache/wormnet/synth. The file for a request (its key names every parameter).
std::string cache_dir();
std::string cache_file(const Topology& topo, const Request& req);

}  // namespace wn::alg::synth
