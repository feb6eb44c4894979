#include "experiments/program_run.h"

#include <fmt/format.h>

#include "experiments/firmware_plugin.h"
#include "systemc/core/config_error.h"

namespace wn::fw {

ProgramContext program_context(const ScheduleRunOptions& opt, const NetworkSetup& net) {
  const Topology& topo = net.topology;
  ProgramContext c;
  c.topology = topo.name();
  c.radix = topo.radix();
  c.nodes = topo.nodes();
  c.ports = net.params.inj;
  c.words = words_of(opt);
  c.source = source_of(opt, topo);
  if (c.source >= c.nodes)
    throw ConfigError(Param::source, fmt::format("{} is not a node of {}; allowed: 0..{} or random", c.source,
                                                 topo.name(), c.nodes - 1));
  c.seed = opt.seed;
  return c;
}

ScheduleRunResult run_firmware(const ScheduleRunOptions& opt, const FirmwareProgram& program) {
  return run_firmware(opt, resolve_network(opt), program);
}

ScheduleRunResult run_firmware(const ScheduleRunOptions& opt, const NetworkSetup& net, const FirmwareProgram& program) {
  const ProgramContext ctx = program_context(opt, net);
  if (!program.firmware)
    throw ConfigError(Param::firmware,
                      "the program has no firmware; allowed: a program whose firmware gives each "
                      "node's function");
  ScheduleRunResult res;
  res.options = opt;
  res.options.algorithm = program.name.empty() ? "firmware" : program.name;
  res.options.source = std::to_string(ctx.source);
  res.network = net;
  res.source = ctx.source;
  validate(opt.run.profile);
  // No schedule, so no step model: the report says so instead of a prediction.
  res.predicted.formula = "none (firmware of your own: no schedule for the step model)";
  res.oracle = program.check ? "the program's own check" : "";
  const auto zeros = [](int, uint32_t) -> alg::Word { return 0; };
  res.run = run_firmware(net, opt.run, program.firmware, program.memory_words,
                         program.init ? program.init : std::function<alg::Word(int, uint32_t)>(zeros));
  for (const auto& m : res.run.log.messages) {
    ++res.messages;
    res.words += m.words;
  }
  measure_run(res);
  if (!res.run.ok) {
    res.data_error = "not checked: the run did not complete";
  } else if (!program.check) {
    res.data_ok = true;  // nothing to check against: the run's own checks (scoreboard, deadlock) passed
    res.data_checked = false;
  } else {
    res.data_error = program.check(res.run.memory);
    res.data_ok = res.data_error.empty();
  }
  return res;
}

ScheduleRunResult run_plugin(const ScheduleRunOptions& opt, const NetworkSetup& net) {
  return run_firmware(opt, net, plugin_program(opt.firmware, program_context(opt, net)));
}

}  // namespace wn::fw
