// Layering-check fixture: another family's header.
#pragma once
