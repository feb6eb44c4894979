// Layering-check fixture: the co-simulation, listed below algorithms but not reached by it.
#pragma once
