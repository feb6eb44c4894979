// The user's words for the run parameters the layers below name by id (systemc/core/config_error.h):
// every parameter is a command-line flag here, and a sweep spec's key is the flag without "--".
#pragma once
#include <string>

#include "systemc/core/config_error.h"

namespace wn::cli {

std::string flag_word(Param p);
// A message's param_ref() marks as flags.
std::string worded(const std::string& text);
// "FIELD: DETAIL" with the field and every mark as the user typed them.
std::string describe(const ConfigError& e);

}  // namespace wn::cli
