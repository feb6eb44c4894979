#include "algorithms/file_algorithm.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>

#include "algorithms/schedule_file_reader.h"
#include "algorithms/schedule_oracle.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

namespace {

struct Loaded {
  ScheduleFile file;
  AlgorithmInfo info;
};

std::map<std::string, std::unique_ptr<Loaded>>& loaded() {
  static std::map<std::string, std::unique_ptr<Loaded>> m;
  return m;
}

// Ranks fit the nodes, every fixed channel exists on the port model, memory fits this machine.
void check_file(const ScheduleFile& f, const Topology& topo, const AlgorithmArgs& args) {
  const int n = int(args.group.size());
  if (n < f.ranks) {
    const bool whole = n == topo.nodes();
    throw ConfigError(
        whole ? ConfigField(Param::topology) : ConfigField(Param::group),
        fmt::format("{} has {} ranks, {} has {} nodes; allowed: {} at least {} nodes", f.path, f.ranks,
                    whole ? topo.name() : "the group", n, whole ? "a network of" : "a group of", f.ranks));
  }
  for (int r = 0; r < f.ranks; ++r)
    for (size_t i = 0; i < f.programs[size_t(r)].size(); ++i) {
      const Step& st = f.programs[size_t(r)][i];
      for (size_t k = 0; k < st.sends.size(); ++k)
        if (st.sends[k].channel >= args.ports)
          file::refuse(f.path, fmt::format("{}.steps[{}].sends[{}].channel", f.program_paths[size_t(r)], i, k),
                       fmt::format("channel {}, and the port model has {} injection channel{} per node",
                                   st.sends[k].channel, args.ports, args.ports == 1 ? "" : "s"),
                       fmt::format("0..{} or no channel key", args.ports - 1));
    }
  // The file's memory_words, not a --bytes, is what does not fit: named as the file's value.
  const uint64_t bytes = uint64_t(f.memory_words) * uint64_t(topo.nodes()) * 4, limit = node_memory_limit_bytes();
  if (bytes > limit)
    file::refuse(f.path, "memory_words",
                 fmt::format("{} words per rank need {} MiB of simulated memory on {}", f.memory_words, bytes >> 20,
                             topo.name()),
                 fmt::format("at most {} words per rank here ({})", limit / 4 / uint64_t(topo.nodes()),
                             node_memory_limit_source()));
}

Schedule build_file(const ScheduleFile& f, const AlgorithmArgs& args) {
  Schedule s;
  s.algorithm = f.name;
  s.nodes = int(args.group.size());
  s.steps = int(f.steps);
  s.memory_words = f.memory_words;
  s.programs = f.programs;
  s.programs.resize(size_t(s.nodes));
  FileOracle o = file_oracle(f, args.seed);
  s.initial = std::move(o.initial);
  s.expected = std::move(o.expected);
  s.oracle = std::move(o.description);
  return s;
}

AlgorithmInfo info_of(const ScheduleFile* f) {
  AlgorithmInfo a;
  a.name = f->name;
  a.file = f->path;
  a.summary = "the schedule of " + f->path;
  a.params = "--group";
  a.groups = true;
  a.check = [f](const Topology& topo, const AlgorithmArgs& args) { check_file(*f, topo, args); };
  a.max_messages = [f](const Topology&, const AlgorithmArgs&) { return f->messages; };
  a.build = [f](const Topology&, const AlgorithmArgs& args) { return build_file(*f, args); };
  a.cost = [f](const Topology& topo, const AlgorithmArgs&, const CostParams& c, const Schedule& s) {
    Prediction p = step_model_prediction(
        s, topo, c,
        fmt::format("step model of the file's steps: per step, every node's sends posted one startup (alpha) apart, "
                    "each message {}+{} on the channel free first, receives completed in arrival order (gamma + "
                    "copy/combine each), the last node done",
                    c.hop_term(), c.flit_term()));
    p.data = fmt::format("{}: {} ranks, {} words of memory each", f->path, f->ranks, f->memory_words);
    if (f->collective) {
      const ClaimBound b = claim_lower_bound(*f->collective, f->ranks, c);
      p.lower_bound = b.cycles;
      p.lower_bound_formula = b.formula;
    }
    return p;
  };
  return a;
}

}  // namespace

const AlgorithmInfo& schedule_file_algorithm(const std::string& path) {
  auto& m = loaded();
  if (auto it = m.find(path); it != m.end()) return it->second->info;
  auto l = std::make_unique<Loaded>();
  l->file = read_schedule_file(path);
  l->info = info_of(&l->file);
  return m.emplace(path, std::move(l)).first->second->info;
}

const ScheduleFile& schedule_file_of(const AlgorithmInfo& info) {
  auto it = loaded().find(info.file);
  if (it == loaded().end()) throw std::logic_error("no schedule file " + info.file + " was read");
  return it->second->file;
}

ClaimBound claim_lower_bound(const CollectiveClaim& c, int n, const CostParams& cost) {
  // Information from (or to) every rank spreads at most (k+1)-fold per generation of messages:
  // ceil(log_{k+1} N) generations, each at least one startup, one hop and one completion.
  const int k = cost.ports < 1 ? 1 : cost.ports;
  ClaimBound b;
  for (uint64_t reach = 1; reach < uint64_t(n); reach *= uint64_t(k + 1)) ++b.steps;
  const double generation = cost.message_cycles(1, 1);
  b.cycles = b.steps * generation;
  b.formula = fmt::format("linear model: ceil(log_{} {}) = {} generations x (alpha + 3(1+1) + {} + gamma) = {:.0f}",
                          k + 1, n, b.steps, cost.flits(1) - 1, b.cycles);
  // The busiest rank receives (or the root sends) one block, or N-1 blocks for the gathering
  // kinds, through its k channels: a flit per channel per cycle.
  const bool bulk = c.kind == CollectiveKind::Gather || c.kind == CollectiveKind::Scatter ||
                    c.kind == CollectiveKind::Allgather || c.kind == CollectiveKind::Alltoall;
  const int blocks = bulk ? n - 1 : 1;
  const double flits = double(blocks) * cost.flits(c.words) / k;
  b.formula += fmt::format("; {} block{} of {} flits through k = {} channel{} = {:.1f}; the larger", blocks,
                           blocks == 1 ? "" : "s", cost.flits(c.words), k, k == 1 ? "" : "s", flits);
  b.cycles = std::max(b.cycles, flits);
  return b;
}

}  // namespace wn::alg
