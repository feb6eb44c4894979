// A firmware plugin: a shared library that `wormnet run --firmware LIB[:ENTRY]` (and compare,
// sweep) loads. It includes this header once, says WORMNET_FIRMWARE_PLUGIN(), and defines
// entries of type FirmwareEntry (default name wormnet_firmware) that fill in a program for the
// run's context:
//
//   #include "firmware/plugin.h"
//   WORMNET_FIRMWARE_PLUGIN()
//   extern "C" void wormnet_firmware(const wn::fw::ProgramContext& ctx, wn::fw::FirmwareProgram& p) {...}
//
// Build it against the installed package's wormnet::plugin (headers and ABI settings; the code
// it calls lives in the wormnet program that loads it). Loading refuses a library built for
// another wormnet version or C++ ABI, naming both (docs/own-firmware.md).
#pragma once
#include "firmware/program.h"
#include "wormnet/plugin_abi.h"

#define WN_PLUGIN_STR2(x) #x
#define WN_PLUGIN_STR(x) WN_PLUGIN_STR2(x)
// The generated part (wormnet version, SystemC's C++ standard) and this compiler's libstdc++ ABI.
#define WN_PLUGIN_ABI_STRING WN_PLUGIN_ABI " cxx11abi " WN_PLUGIN_STR(_GLIBCXX_USE_CXX11_ABI)

namespace wn::fw {
using FirmwareEntry = void (*)(const ProgramContext&, FirmwareProgram&);
}  // namespace wn::fw

#define WORMNET_FIRMWARE_PLUGIN() \
  extern "C" const char* wormnet_plugin_abi() { return WN_PLUGIN_ABI_STRING; }
