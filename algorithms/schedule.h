// The schedule IR: what a collective algorithm asks every node to do, step by
// step, with no simulator attached. `algorithms/` produces schedules (and
// their oracles and analytic costs); `firmware/` executes them on the
// cycle-accurate co-simulation; the static checker (later) reads them.
//
// Semantics (executed by firmware/schedule_interpreter):
//  - Node memory is an array of 32-bit words (`Word`), `memory_words` long
//    (or `node_words[node]`, where nodes need different amounts).
//  - A node runs its steps in order. Within a step it first performs the
//    step's local operations, then issues its sends (each costs the node's
//    processor α cycles, serialized, and gathers its source ranges into one
//    message at issue time), then completes its receives in arrival order
//    (γ cycles each, serialized, then a copy or combine into the destination
//    ranges). It moves to the next step when every receive of the step is
//    complete and every send of the step has been fully injected. There is
//    no global barrier: neighbouring steps of different nodes overlap.
//  - A receive matches the oldest unmatched message with the same source and
//    tag. Messages may arrive before their receive is reached (buffered).
//  - Node ids are physical node ids of the topology (groups are remapped by
//    the generator, see remap_group()).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/combine_op.h"

namespace wn::alg {

// `count` words of one node's memory: offset, offset + stride, ... (stride 1:
// a contiguous run). The d-cycles slots take every d-th word of a block: one
// strided range instead of a range per word (10^7 messages on a 10-cube).
struct Range {
  uint32_t offset = 0;
  uint32_t count = 0;
  uint32_t stride = 1;
  uint32_t at(uint32_t k) const { return offset + k * stride; }
  // One past the last word (for bound checks).
  uint64_t end() const { return count ? uint64_t(offset) + uint64_t(count - 1) * stride + 1 : offset; }
};
uint32_t total_words(const std::vector<Range>& ranges);

struct Send {
  int dst = 0;
  std::vector<Range> src;  // gathered, in order, into one message
  uint32_t tag = 0;        // matched by the receiver; carried as the flit's step field
  int channel = -1;        // injection channel; -1 = any free channel
};

struct Recv {
  int src = 0;
  std::vector<Range> dst;  // the message is scattered, in order, over these
  uint32_t tag = 0;
  Combine combine;  // Copy overwrites; other operators merge into memory
};

// A local memory operation (pack/unpack, rotation, local contribution of a
// reduction): dst[i] = combine(dst[i], src[i]) word by word over the
// concatenated ranges (both sides have the same total length).
struct LocalOp {
  std::vector<Range> src;
  std::vector<Range> dst;
  Combine combine;
  // Indexed (indirect) addressing: the processor computes every destination
  // address, costing the profile's index cycles per word on top (e.g. the
  // hypercube d-cycles reorder with computed indices).
  bool indexed = false;
};

struct Step {
  uint32_t tag = 0;  // the algorithm's step number (global, not per node)
  // The sends are one multi-port send operation (e.g. the CM-200 exchange,
  // which sends and receives on all d dimensions at once): the node pays one
  // startup per group of up to `ports` sends instead of one per send.
  bool multiport_send = false;
  std::vector<LocalOp> locals;  // before the sends
  std::vector<LocalOp> after;   // after the receives
  std::vector<Send> sends;
  std::vector<Recv> recvs;
};

struct Schedule {
  std::string algorithm;
  int nodes = 0;              // size of the topology (programs.size())
  int steps = 0;              // the algorithm's step count (max tag + 1)
  uint32_t memory_words = 0;  // per node: the most any node has
  // Per node, where nodes need different amounts (empty: memory_words each): a
  // complete exchange's transit buffers peak on a few nodes, and the host holds
  // every node's memory.
  std::vector<uint32_t> node_words;
  std::vector<std::vector<Step>> programs;  // per physical node; empty = idle
  // Memory before the operation, and the oracle after it (nullopt: scratch,
  // not checked). Functions, not arrays: all-to-all memory grows as N^2.
  std::function<Word(int node, uint32_t addr)> initial;
  std::function<std::optional<Word>(int node, uint32_t addr)> expected;
  // What the oracle checks, when a family's own name does not say it (schedule files).
  std::string oracle;
};

// Node `node`'s memory in words (node_words[node], else memory_words).
uint32_t node_memory_words(const Schedule& s, int node);
// Every node's memory in words (what the simulated memory costs the host / 4).
uint64_t total_memory_words(const Schedule& s);

// Counts over the whole schedule (used by tests, reports and cost models).
struct ScheduleStats {
  uint64_t messages = 0;
  uint64_t words_sent = 0;
  int max_sends_per_step = 0;  // over nodes and steps
  int max_recvs_per_step = 0;
};
ScheduleStats stats(const Schedule& s);

// Structural validation (ranges inside memory, every send has exactly one
// matching receive with the same length, tags < steps). Returns the first
// problem found, or an empty string.
std::string validate(const Schedule& s);

// Maps a schedule written over ranks 0..group.size()-1 onto physical nodes
// group[rank] of a topology with `nodes` nodes; nodes outside the group are
// idle and their memory must stay as it was.
Schedule remap_group(const Schedule& by_rank, const std::vector<int>& group, int nodes);

}  // namespace wn::alg
