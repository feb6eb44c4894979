// Sub-commands of the wormnet CLI. Each registers its options and a runner.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>

namespace wn::cli {

void add_traffic_command(CLI::App& app);
void add_list_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_tau_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_check_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_sweep_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners);
void add_bench_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners);
void add_cost_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners);
void add_conform_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners);
void add_synth_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners);
std::map<std::string, std::function<int()>>& runners();
// Runs whichever sub-command was parsed; returns the process exit code.
int run_selected(CLI::App& app);

}  // namespace wn::cli
