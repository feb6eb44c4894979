#include "systemc/topology/port_model.h"

#include <fmt/format.h>

#include "systemc/core/config_error.h"

namespace wn {

int parse_port_model(const std::string& ports, const Topology& topo) {
  if (ports == "one") return 1;
  if (ports == "all") return topo.ports();
  const std::string allowed = fmt::format("allowed: one, all, or K = 1..{} for {}", topo.ports(), topo.name());
  if (ports.empty() || ports.size() > 3 || ports.find_first_not_of("0123456789") != std::string::npos)
    throw ConfigError(Param::ports, fmt::format("'{}' is not a port model; {}", ports, allowed));
  const int k = std::stoi(ports);
  if (k < 1 || k > topo.ports()) throw ConfigError(Param::ports, fmt::format("{} is out of range; {}", k, allowed));
  return k;
}

}  // namespace wn
