// `wormnet conform`: the conformance suite for a router RTL (experiments/conform.h,
// docs/guide/conform.md). Exit 0 when the router conforms, 1 naming the first violation.
#include <fmt/format.h>

#include "app/commands.h"
#include "app/options.h"
#include "experiments/conform.h"
#include "experiments/report_file.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

void add_conform_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners) {
  auto* cmd = app.add_subcommand("conform",
                                 "conformance of the router RTL: zero-load timing, delivery under every pattern "
                                 "and port model at low load and past saturation, credits, deadlock, saturation");
  auto topologies = std::make_shared<std::string>("mesh:4x4,torus:4x4,cube:4");
  auto backend = std::make_shared<std::string>("rtl");
  auto json = std::make_shared<std::string>();
  auto o = std::make_shared<ConformOptions>();
  cmd->add_option("--topologies", *topologies, "comma-separated topologies")->capture_default_str();
  cmd->add_option("--backend", *backend, "rtl | model | lockstep")->capture_default_str();
  add_uint(cmd, "--vcs", o->net.vcs, "virtual channels per port (even on a torus)", 1, kMaxVcs);
  add_uint(cmd, "--buf", o->net.buf, "buffer depth per VC in flits", 1, kMaxBuf);
  add_uint(cmd, "--cycles", o->cycles, "measured cycles per delivery run", 1, 10'000'000);
  add_uint(cmd, "--seed", o->seed, "seed of the traffic", 0, UINT64_MAX);
  add_uint(cmd, "-j,--jobs", o->jobs, "runs at once (results never depend on it)", 1, 1024);
  cmd->add_option("--json", *json, "write the results as JSON (wormnet.conform/1) to this file");
  runners["conform"] = [=]() {
    ConformOptions opt = *o;
    opt.topologies = split_list(*topologies, "--topologies");
    opt.net.backend = parse_backend(*backend);
    check_writable(*json, "--json");
    const ConformResult r = run_conform(opt);
    size_t collectives = 0;
    for (const auto& c : r.cases) collectives += c.collective;
    fmt::print(
        "wormnet conform: backend {}, {} VCs x {} flits, {} delivery runs of {} cycles, {} collectives, seed {}\n",
        *backend, opt.net.vcs, opt.net.buf, r.cases.size() - collectives, opt.cycles, collectives, opt.seed);
    fmt::print("{}", r.table());
    if (r.ok())
      fmt::print("conforms: every probe, every packet, every credit, every delay view\n");
    else
      fmt::print(stderr, "error: does not conform: {}\n", r.first_violation);
    if (!json->empty()) write_json_report(*json, r.to_json());
    return r.ok() ? 0 : 1;
  };
}

}  // namespace wn::cli
