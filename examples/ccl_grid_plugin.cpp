// examples/ccl_grid.cpp's firmware as a plugin: `wormnet run --firmware libccl_grid_plugin.so`
// runs it with everything a built-in algorithm gets (backends, port models, profiles, the
// contention and delay views, --json, compare across port models).
#include "ccl_grid_program.h"
#include "firmware/plugin.h"

WORMNET_FIRMWARE_PLUGIN()

extern "C" void wormnet_firmware(const wn::fw::ProgramContext& ctx, wn::fw::FirmwareProgram& program) {
  program = ccl_grid::program(ctx);
}

// A second entry (`--firmware libccl_grid_plugin.so:unchecked`): the same firmware without its
// check; the report then says the data were not checked.
extern "C" void unchecked(const wn::fw::ProgramContext& ctx, wn::fw::FirmwareProgram& program) {
  program = ccl_grid::program(ctx);
  program.name = "ccl-grid-unchecked";
  program.check = nullptr;
}
