// The YAML reading under sweep specs (experiments/sweep_spec.cpp): errors that name the file and
// the key, mapping keys, and a parameter's values (a scalar, a list or a range, expanded).
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "systemc/core/config_error.h"

namespace wn::spec_yaml {

// Where an error is: the file (and part); fail() throws ConfigError("FILE: KEY", what).
struct Ctx {
  const std::string& file;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ConfigError(file + ": " + key, what);
  }
};

// A node as flow-style YAML text, for messages.
std::string dump(const YAML::Node& n);
// A mapping key: a plain name, else fail naming it.
std::string key_of(const Ctx& c, const YAML::Node& k);
// A parameter's values: a scalar, a non-empty list of scalars, or a range {from, to, step | factor}
// (both ends included, integers kept integers, no float drift); else fail naming `key`.
std::vector<std::string> values_of(const Ctx& c, const std::string& key, const YAML::Node& n);

}  // namespace wn::spec_yaml
