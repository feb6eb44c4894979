// Loading a firmware plugin (firmware/plugin.h): LIB[:ENTRY], ENTRY defaulting to
// wormnet_firmware. A library is opened once per process and stays loaded (its code runs in the
// nodes' threads until the end of the run).
#pragma once
#include <string>

#include "firmware/plugin.h"

namespace wn::fw {

struct Plugin {
  std::string library, entry_name;  // as given / the default entry
  FirmwareEntry entry = nullptr;
};

// Throws ConfigError(Param::firmware) naming the library, the entry or both ABIs when the
// library cannot be opened, lacks the entry or the ABI tag, or was built for another ABI.
const Plugin& load_plugin(const std::string& spec);
// The program the plugin's entry builds for `ctx` (its name: LIB:ENTRY when it gives none).
FirmwareProgram plugin_program(const std::string& spec, const ProgramContext& ctx);
// This program's ABI string, which a plugin must carry.
const char* host_plugin_abi();

}  // namespace wn::fw
