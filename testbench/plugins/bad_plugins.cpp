// Firmware plugins that must be refused with one line naming --firmware (testbench/app/
// firmware_plugin_test.cpp). Built twice: WN_BAD_ABI set gives a library whose ABI tag names
// another wormnet; without it, a library with an entry but no ABI tag at all.
#include "firmware/plugin.h"

#ifdef WN_BAD_ABI
extern "C" const char* wormnet_plugin_abi() { return "wormnet-firmware/0 wormnet 0.1 systemc-cxx 201103L cxx11abi 0"; }
#endif

extern "C" void wormnet_firmware(const wn::fw::ProgramContext&, wn::fw::FirmwareProgram& p) {
  p.memory_words = 1;
  p.firmware = [](int) -> wn::fw::FirmwareFn { return [](wn::fw::NodeApi&) {}; };
}
