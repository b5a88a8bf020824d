// kgen torch shim (see kgen_torch.h).
#pragma once
#include "kgen_torch.h"
