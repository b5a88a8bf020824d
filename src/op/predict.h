// The kernel build's DTYPE_<NAME> macros, predicted before the host library is loaded: from the project's json
// (msopgen's op description) when there is one, else from the OpDef's Input/Output(...).DataType({...}) chains in the
// host source, picking the first column whose input dtypes are the given ones. The evaluator uses it to build the
// kernel outside the candidate's sandbox; kgen-oprun to start the kernel build next to the host build. A wrong or
// empty prediction costs time only: kgen-oprun builds the column it really needs.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "op/build.h"
#include "op/project.h"

namespace kgen::op {
// `inputs`: (name or "", ge::DataType of the .npy) in OpDef order; a uint16 input matches a bf16 column.
Defines predict_defines(const Project& p, const std::vector<std::pair<std::string, int>>& inputs);
std::string upper(const std::string& s);
}  // namespace kgen::op
