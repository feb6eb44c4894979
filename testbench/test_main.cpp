// GoogleTest runs from sc_main, which the SystemC kernel calls. Our own main() keeps SystemC's
// banner off also in the test programs that never link the engine (which does it for every
// other program, systemc/cosim/engine.cpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
