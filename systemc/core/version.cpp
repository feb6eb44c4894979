#include "systemc/core/version.h"

#include <nlohmann/json.hpp>

// The only includer of the generated header: a new commit recompiles this file alone.
#include "wormnet/version_git.h"

namespace wn {

const char* version() { return WN_VERSION_STRING; }

const char* git_revision() { return WN_GIT_REVISION; }

nlohmann::json version_json() { return {{"version", version()}, {"git", git_revision()}}; }

}  // namespace wn
