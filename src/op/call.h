// `kgen-oprun call ...`: the MultiKernelBench binding mode (helper MKB, src/op/call*.cpp). kgen-oprun's main
// dispatches `kgen-oprun call ARGS...` here with argv[0] = "call".
#pragma once

namespace kgen::op {
int call_main(int argc, char** argv);
}  // namespace kgen::op
