// Which wormnet produced an output: the project version (CMakeLists.txt's project(), the one
// place it is written) and the git revision of the checkout it was built from. Reports carry
// both so a result can be traced to the code that computed it.
#pragma once
#include <nlohmann/json_fwd.hpp>

namespace wn {

const char* version();       // "0.9.0"
const char* git_revision();  // `git describe --always --dirty --abbrev=12`, "unknown" outside a checkout
// {"version": ..., "git": ...}: the "wormnet" object of every JSON report and sweep line.
nlohmann::json version_json();

}  // namespace wn
