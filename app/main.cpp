// wormnet: command-line entry. Our main() silences SystemC's copyright banner
// (it would print on every invocation, --help and errors included) and hands
// over to the SystemC kernel, which calls sc_main.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <new>
#include <systemc>

#include "app/commands.h"
#include "app/param_words.h"
#include "systemc/core/config_error.h"
#include "systemc/core/version.h"
#include "systemc/router/lockstep/lockstep_router.h"
#include "wormnet/rtl_radices.h"

namespace {

// CLI11's own parse errors (unknown flag or subcommand, a value that is not a
// number, a missing value) as the one line every bad input gets.
int usage_error(const CLI::App& app, const CLI::ParseError& e) {
  std::string what = e.what();
  if (app.get_subcommands().empty()) {
    // No subcommand recognised: name what was typed and the subcommands there are.
    std::string names;
    for (const auto* s : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + s->get_name();
    const auto rest = app.remaining();
    if (!rest.empty()) what = fmt::format("'{}' is not a subcommand", rest.front());
    what += "; allowed subcommands: " + names;
  } else if (what.find("allowed") == std::string::npos) {
    what += fmt::format("; allowed: the options `wormnet {} --help` lists", app.get_subcommands().front()->get_name());
  }
  std::fprintf(stderr, "error: %s\n", what.c_str());
  return 2;
}

// An output option given with an empty path would be silently no output: refused like any bad value.
void refuse_empty_outputs(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands())
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->count() == 0 || opt->get_lnames().empty()) continue;
      const std::string name = "--" + opt->get_lnames().front();
      if (name != "--json" && name != "--csv" && name != "--out" && name != "--trace" && name != "--schedule") continue;
      for (const auto& v : opt->results())
        if (v.empty()) throw wn::ConfigError(name, "an empty path; allowed: a file name");
    }
}

}  // namespace

int sc_main(int argc, char** argv) {
  CLI::App app{"wormnet: cycle-accurate co-simulation of wormhole routers (RTL and C++ model) with node firmware"};
  // CLI11 runs flag callbacks (this one throws CallForVersion) before it checks for the required
  // subcommand, so `wormnet --version` alone answers and exits 0.
  app.set_version_flag("--version", fmt::format("wormnet {} (git {})", wn::version(), wn::git_revision()));
  app.require_subcommand(1);
  wn::cli::add_traffic_command(app);
  wn::cli::add_sweep_command(app, wn::cli::runners());
  wn::cli::add_bench_command(app, wn::cli::runners());
  wn::cli::add_synth_command(app, wn::cli::runners());
  wn::cli::add_cost_command(app, wn::cli::runners());
  wn::cli::add_conform_command(app, wn::cli::runners());
  wn::cli::add_run_command(app);
  wn::cli::add_compare_command(app);
  wn::cli::add_tau_command(app);
  wn::cli::add_tune_command(app);
  wn::cli::add_check_command(app);
  wn::cli::add_export_command(app);
  wn::cli::add_list_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(app, e);
  }
  if (wn::kForeignRouter)  // the model backend (the default) simulates the shipped router, not this build's
    std::fprintf(stderr,
                 "warning: this build verilates the router RTL of %s (WORMNET_ROUTER_RTL); --backend model and "
                 "lockstep describe the shipped rtl/, so use --backend rtl for this router\n",
                 wn::kRouterRtlDir);
  try {
    refuse_empty_outputs(app);
    return wn::cli::run_selected(app);
  } catch (const wn::ConfigError& e) {
    std::fprintf(stderr, "error: %s\n", wn::cli::describe(e).c_str());
    return 2;
  } catch (const wn::LockstepDivergence& e) {
    std::fprintf(stderr, "error: %s\n", wn::cli::worded(e.what()).c_str());
    return 3;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "error: out of memory: the run needs more than this machine has; reduce --topology or --bytes\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", wn::cli::worded(e.what()).c_str());
    return 1;
  }
}

int main(int argc, char** argv) {
  // No SystemC banner: the engine's library turns it off for every program (systemc/cosim/engine.cpp).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // reports flushed line by line, also into a pipe or file
  return sc_core::sc_elab_and_sim(argc, argv);
}
