// `wormnet compare`: the same collective under several algorithms (built-ins and schedule
// files), port models, message sizes and sources (app/compare_run.cpp runs it).
#include <memory>

#include "app/commands.h"
#include "app/run_options.h"

namespace wn::cli {

int run_compare(const RunCli& c, bool with_cost);

void add_compare_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  c->opt.ports = "one,all";
  auto* cmd = app.add_subcommand("compare", "the same job under several algorithms, port models, sizes and sources");
  add_common_options(cmd, *c, true);
  auto with_cost = std::make_shared<bool>(false);
  cmd->add_flag("--cost", *with_cost,
                "also synthesize each port model's router (yosys, cached; `wormnet cost`) and "
                "print cycles x area");
  runners()["compare"] = [c, with_cost]() { return run_compare(*c, *with_cost); };
}

}  // namespace wn::cli
