// Layering-check fixture: the higher layer.
#pragma once
