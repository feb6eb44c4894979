// The run API for firmware of your own (firmware/program.h): the same run, result, summary and
// JSON report `wormnet run` gives a built-in algorithm — minus what needs a schedule (the step
// model's prediction, the static check). `wormnet run --firmware` runs a plugin through it.
#pragma once
#include <string>

#include "experiments/collective_run.h"
#include "firmware/program.h"

namespace wn::fw {

// The context a program is built for: the options' network, port model, block size, root, seed.
ProgramContext program_context(const ScheduleRunOptions& opt, const NetworkSetup& net);
// Runs `program` on the options' network (opt.algorithm, opt.schedule and opt.firmware are not
// read). Throws ConfigError for options that do not fit (--bytes, --source, the network).
ScheduleRunResult run_firmware(const ScheduleRunOptions& opt, const FirmwareProgram& program);
ScheduleRunResult run_firmware(const ScheduleRunOptions& opt, const NetworkSetup& net, const FirmwareProgram& program);
// opt.firmware's plugin (experiments/firmware_plugin.h), built for the options' context, run.
ScheduleRunResult run_plugin(const ScheduleRunOptions& opt, const NetworkSetup& net);

}  // namespace wn::fw
