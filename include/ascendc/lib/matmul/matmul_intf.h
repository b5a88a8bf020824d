// CANN's alternative path of lib/matmul_intf.h.
#pragma once
#include "lib/matmul_intf.h"
