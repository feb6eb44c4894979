// `wormnet export`: any built-in algorithm's schedule as a wormnet.schedule/1 file, with the
// options of `run` that shape a schedule. Run back with `wormnet run --schedule FILE` it gives
// the built-in run's cycles, steps, messages and delay views (testbench: every algorithm).
#include <fmt/format.h>

#include <memory>

#include "algorithms/dataflow_run.h"
#include "algorithms/pipeline.h"
#include "algorithms/schedule_file.h"
#include "algorithms/schedule_oracle.h"
#include "app/commands.h"
#include "app/run_options.h"
#include "experiments/report_file.h"
#include "systemc/core/config_error.h"
#include "systemc/core/version.h"

namespace wn::cli {

namespace {

// The claim a family declares for its layout, with this run's sizes.
std::optional<alg::CollectiveClaim> claim_of(const alg::AlgorithmInfo& info, const alg::BuiltSchedule& b) {
  if (info.collective.empty()) return std::nullopt;
  const auto& kinds = alg::collective_kinds();
  const auto it = std::find(kinds.begin(), kinds.end(), info.collective);
  if (it == kinds.end()) throw std::logic_error(info.name + " declares an unknown collective " + info.collective);
  alg::CollectiveClaim c;
  c.kind = alg::CollectiveKind(it - kinds.begin());
  c.words = b.args.words;
  if (alg::collective_rooted(c.kind)) c.root = b.args.source_rank;
  if (alg::collective_reduces(c.kind)) c.op = b.args.op;
  return c;
}

// The claim must describe what the schedule does (an order of folding, a layout): checked on the
// ideal execution of the file, with the file's own initial memory.
bool claim_holds(const alg::ScheduleFile& f, uint64_t seed) {
  const alg::FileOracle o = alg::file_oracle(f, seed);
  const auto mem = alg::dataflow_memory(f.programs, f.memory_words, o.initial);
  for (int r = 0; r < f.ranks; ++r)
    for (uint32_t a = 0; a < f.memory_words; ++a)
      if (const auto w = o.expected(r, a); w && *w != mem[size_t(r)][a]) return false;
  return true;
}

}  // namespace

void add_export_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  auto* cmd = app.add_subcommand("export",
                                 "write a built-in algorithm's schedule as a wormnet.schedule/1 file "
                                 "(then: wormnet run --schedule FILE)");
  add_common_options(cmd, *c, false);
  // What only a simulation reads is not an export option (refused as unknown, not ignored).
  for (const char* name :
       {"--schedule", "--backend", "--json", "--csv", "--trace", "--sync", "--sends", "--barrier-cycles",
        "--max-cycles", "--no-idle-skip", "--explain-deadlock", "--vcs", "--buf"})
    if (auto* opt = cmd->get_option_no_throw(name)) cmd->remove_option(opt);
  auto out = std::make_shared<std::string>();
  cmd->add_option("--out", *out, "the schedule file to write")->required();
  runners()["export"] = [c, out]() {
    const fw::ScheduleRunOptions o = resolve(*c);
    check_writable(*out, "--out");
    const NetworkSetup net = fw::resolve_network(o);
    const alg::AlgorithmInfo& info = fw::algorithm_of(o);
    check_unread_params(*c, {&info});
    check_profile_unread(*c, info, "export");
    const alg::AlgorithmArgs args = fw::algorithm_args(o, net);
    const alg::BuiltSchedule b = alg::build_schedule(info, net.topology, args, false);
    alg::ScheduleFile f;
    f.path = *out;
    f.name = info.name;
    f.ranks = int(b.schedule.programs.size());
    f.memory_words = b.schedule.memory_words;
    f.programs = b.schedule.programs;
    f.collective = claim_of(info, b);
    std::string dropped;
    if (f.collective && !claim_holds(f, o.seed)) {
      dropped = fmt::format(" ({}'s result is not the format's {} with {}: no claim)", info.name,
                            alg::collective_name(f.collective->kind), o.op);
      f.collective.reset();
    }
    f.meta = {{"exported_by", "wormnet export"},
              {"wormnet", version_json()},
              {"topology", o.topology},
              {"ports", o.ports},
              {"algorithm", info.name},
              {"bytes", o.bytes},
              {"source", args.source},
              {"op", o.op},
              {"group", o.group},
              {"options", o.family_options}};
    const std::string text = alg::schedule_file_text(f);
    // What we write must read back: the same checks as any user's file.
    const alg::ScheduleFile back = alg::parse_schedule_file(text, *out);
    write_report(*out, text, "--out");
    fmt::print(
        "exported {} ({} on {}, {} ports, {} bytes{}): {} ranks, {} steps, {} messages, {} words of memory per "
        "rank, oracle: {}{} -> {}\n",
        info.name, info.name, net.topology.name(), o.ports, o.bytes,
        info.rooted ? fmt::format(", source {}", args.source) : "", back.ranks, back.steps, back.messages,
        back.memory_words,
        back.collective ? alg::collective_name(back.collective->kind) + " claim"
                        : std::string("reference execution (the family's layout is its own)"),
        dropped, *out);
    return 0;
  };
}

}  // namespace wn::cli
