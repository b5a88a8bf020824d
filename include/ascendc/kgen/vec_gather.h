// (being written)
#pragma once
#include "kgen/tensor.h"
