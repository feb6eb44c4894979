// wormnet: command-line entry. libsystemc provides main() and calls sc_main.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <systemc>

#include "app/commands.h"
#include "systemc/core/config_error.h"
#include "systemc/router/lockstep/lockstep_router.h"

int sc_main(int argc, char** argv) {
  CLI::App app{"wormnet: cycle-accurate co-simulation of wormhole routers (RTL and C++ model) with node firmware"};
  app.require_subcommand(1);
  wn::cli::add_traffic_command(app);
  wn::cli::add_sweep_command(app, wn::cli::runners());
  wn::cli::add_bench_command(app, wn::cli::runners());
  wn::cli::add_run_command(app);
  wn::cli::add_compare_command(app);
  wn::cli::add_check_command(app);
  wn::cli::add_list_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints its own message; usage errors exit 2 like every bad input.
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    return wn::cli::run_selected(app);
  } catch (const wn::ConfigError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const wn::LockstepDivergence& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 3;
  }
}
