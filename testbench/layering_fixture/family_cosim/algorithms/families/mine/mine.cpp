// Layering-check fixture: a family that includes the co-simulation (must be reported).
#include "systemc/cosim/cosim.h"
