// `wormnet compare`: the same collective under several algorithms (built-ins and schedule
// files), port models, message sizes and sources (app/compare_run.cpp runs it).
#include <memory>

#include "app/commands.h"
#include "app/compare_run.h"
#include "app/options.h"
#include "app/regression_output.h"
#include "app/run_options.h"

namespace wn::cli {

void add_compare_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  c->opt.ports = "one,all";
  c->mem_list = true;
  auto* cmd = app.add_subcommand("compare", "the same job under several algorithms, port models, sizes and sources");
  add_common_options(cmd, *c, true);
  add_threads_option(cmd, c->opt.net.threads);
  auto with_cost = std::make_shared<bool>(false);
  cmd->add_flag("--cost", *with_cost,
                "also synthesize each port model's router (yosys, cached; `wormnet cost`) and "
                "print cycles x area");
  cmd->add_option("--sort", c->sort,
                  "row order: none (as listed), time (fastest first), busbw (highest first), name; within each "
                  "size")
      ->capture_default_str();
  auto reg = std::make_shared<RegressionArgs>();
  cmd->add_option("--baseline", reg->baseline,
                  "a compare report (--json of an earlier run) to compare every row with: a regression, exit 1 "
                  "when a number moved");
  add_real(cmd, "--tolerance", reg->tolerance,
           "--baseline: relative change a number may move by (0: any change counts; 0.01: 1 %)", 0, 1000);
  runners()["compare"] = [c, with_cost, reg]() { return run_compare(*c, *with_cost, *reg); };
}

}  // namespace wn::cli
