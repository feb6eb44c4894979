// Layering-check fixture: a low layer that includes a higher one (must be reported).
#pragma once
#include "systemc/network/net.h"
