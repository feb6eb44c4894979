#include "experiments/firmware_plugin.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <map>
#include <memory>
#include <mutex>

#include "systemc/core/config_error.h"

namespace wn::fw {

const char* host_plugin_abi() { return WN_PLUGIN_ABI_STRING; }

namespace {

// LIB[:ENTRY]; a ':' inside the path before the last '/' belongs to the path.
std::pair<std::string, std::string> split_spec(const std::string& spec) {
  const size_t colon = spec.rfind(':'), slash = spec.rfind('/');
  if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) return {spec, "wormnet_firmware"};
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

}  // namespace

const Plugin& load_plugin(const std::string& spec) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Plugin>> loaded;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = loaded.find(spec); it != loaded.end()) return *it->second;
  auto [lib, entry] = split_spec(spec);
  if (lib.empty() || entry.empty())
    throw ConfigError(Param::firmware, fmt::format("'{}': allowed: LIBRARY.so or LIBRARY.so:ENTRY", spec));
  // A bare name would be searched in the system's library path: only a path names the user's file.
  const std::string path = lib.find('/') == std::string::npos ? "./" + lib : lib;
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw ConfigError(Param::firmware, fmt::format("cannot load {}: {}", lib, dlerror()));
  using AbiFn = const char* (*)();
  auto abi = reinterpret_cast<AbiFn>(dlsym(h, "wormnet_plugin_abi"));
  if (!abi)
    throw ConfigError(Param::firmware,
                      fmt::format("{} is not a wormnet firmware plugin (no wormnet_plugin_abi); allowed: a library "
                                  "built with firmware/plugin.h and WORMNET_FIRMWARE_PLUGIN()",
                                  lib));
  if (std::string(abi()) != host_plugin_abi())
    throw ConfigError(Param::firmware,
                      fmt::format("{} was built for '{}', this wormnet is '{}'; allowed: a plugin rebuilt against "
                                  "this wormnet's headers",
                                  lib, abi(), host_plugin_abi()));
  auto fn = reinterpret_cast<FirmwareEntry>(dlsym(h, entry.c_str()));
  if (!fn)
    throw ConfigError(Param::firmware,
                      fmt::format("{} has no entry '{}'; allowed: LIBRARY.so:ENTRY naming an extern \"C\" function "
                                  "of type wn::fw::FirmwareEntry",
                                  lib, entry));
  auto p = std::make_unique<Plugin>(Plugin{lib, entry, fn});
  return *loaded.emplace(spec, std::move(p)).first->second;
}

FirmwareProgram plugin_program(const std::string& spec, const ProgramContext& ctx) {
  const Plugin& p = load_plugin(spec);
  FirmwareProgram prog;
  try {
    p.entry(ctx, prog);
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {  // the program refuses this run (its network, size, ...)
    throw ConfigError(Param::firmware, fmt::format("{}:{} refused this run: {}", p.library, p.entry_name, e.what()));
  }
  if (prog.name.empty()) {
    const size_t slash = p.library.rfind('/');
    prog.name = (slash == std::string::npos ? p.library : p.library.substr(slash + 1)) + ":" + p.entry_name;
  }
  if (!prog.firmware)
    throw ConfigError(Param::firmware, fmt::format("{}:{} set no firmware; allowed: a program whose firmware gives "
                                                   "each node's function",
                                                   p.library, p.entry_name));
  return prog;
}

}  // namespace wn::fw
