// The one way a schedule is made from user arguments, for every family:
// topology support, --group and --source resolved, the family's checks, its
// generator, the group remap (once, here), structural validation; then the
// analytic cost of exactly that schedule.
#pragma once
#include <map>
#include <string>

#include "algorithms/registry.h"

namespace wn::alg {

// `given`: family flags the user set (flag -> text); unset flags take their
// defaults. A flag the algorithm does not read, or a bad value, is a
// ConfigError naming the flag and what is allowed.
OptionValues parse_options(const AlgorithmInfo& info, const std::map<std::string, std::string>& given);

struct BuiltSchedule {
  AlgorithmArgs args;  // as resolved (group members, source rank)
  Schedule schedule;   // on physical nodes
};

// Throws ConfigError for anything the user can fix; std::logic_error when a
// generator builds an invalid schedule.
// `on_nodes` false: a `groups` algorithm's schedule stays over ranks 0..group-1 (`wormnet export`).
BuiltSchedule build_schedule(const AlgorithmInfo& info, const Topology& topo, AlgorithmArgs args, bool on_nodes = true);
// build_schedule's checks alone (nothing built): the args resolved (group members, source rank).
AlgorithmArgs check_schedule(const AlgorithmInfo& info, const Topology& topo, AlgorithmArgs args);
Prediction predict(const AlgorithmInfo& info, const Topology& topo, const BuiltSchedule& built, const CostParams& c);

}  // namespace wn::alg
