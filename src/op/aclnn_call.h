// The boundary between a MultiKernelBench python binding compiled against kgen's torch shim (include/torch_shim)
// and the op runner: EXEC_NPU_CMD(aclnnXxx, args...) in the binding becomes exec_aclnn("aclnnXxx", args), which
// runs operator Xxx of the loaded op project on the emulator exactly as the generated aclnn two-phase API would:
// the arguments are the op's inputs in OpDef order, then its attrs in order, then its outputs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kgen::op {
struct BindArg {
  enum Kind { Tensor, None, Int, Float, Bool, Str, IntList, FloatList, BoolList, TensorList, ScalarList } kind = None;
  // Tensor: contiguous host memory the caller owns, written in place for outputs.
  std::vector<int64_t> shape;
  int dtype = 0;                  // ge::DataType value
  void* data = nullptr;
  size_t bytes = 0;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<bool> bools;
  std::vector<BindArg> items;     // TensorList: its tensors (at::TensorList, std::vector<at::Tensor>); ScalarList: its
                                  // Int / Float / Bool scalars (at::ArrayRef<at::Scalar>, an aclScalarList)
  // The C++ type the binding passed to EXEC_NPU_CMD ("float", "int32_t", "std::vector<int64_t>", ...; "" when the
  // argument did not come from a binding). On the chip the aclnn function is called through a pointer typed from
  // these (pytorch_npu_helper.hpp), so a type that differs from the generated signature garbles the value.
  std::string cpp;
};
// "tensor", "int", "tensor list"...: a kind as messages name it.
inline const char* bind_kind_name(BindArg::Kind k) {
  static const char* n[] = {"tensor", "None", "int", "float", "bool", "str", "int list", "float list", "bool list",
                            "tensor list", "scalar list"};
  return k >= 0 && k <= BindArg::ScalarList ? n[k] : "?";
}
// Returns "" on success, or the error (already formatted as kgen's one-line diagnostics) otherwise. Emulator
// checks in the kernel end the process with exit status 3 as for any kernel.
// site: "file:line" of the EXEC_NPU_CMD call, for the warnings it prints (e.g. warning[abi]).
std::string exec_aclnn(const std::string& api, std::vector<BindArg>& args, const std::string& site = "");
// Whether [data, data + bytes) lies in an output a launch of this process wrote completely (every element by a
// traced instruction) and holds what the launch left there; `why` says what is wrong otherwise. A binding's result
// must pass this: a tensor computed in plain C++ on the host is not the kernel's work.
bool launch_output(const void* data, size_t bytes, std::string& why);
}  // namespace kgen::op

// Exported by a binding library built with the torch shim: calls the function registered with m.def(name, ...)
// in its PYBIND11_MODULE. Returns 0 and appends the returned tensors to *results, or returns nonzero with *error.
extern "C" int kgen_bind_call(const char* name, const kgen::op::BindArg* args, size_t n,
                              std::vector<kgen::op::BindArg>* results, std::string* error);
