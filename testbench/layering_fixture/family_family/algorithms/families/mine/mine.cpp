// Layering-check fixture: a family that includes another family (must be reported).
#include "algorithms/families/other/other.h"
