#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor custom_pybind_api(at::Tensor &value, int64_t n)
{
    auto scalarValue = ConvertTensorToAclScaler(value);
    at::Tensor result = torch::empty(n, value.options());
    EXEC_NPU_CMD(aclnnCustomOp, scalarValue, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("custom_pybind_api", &custom_pybind_api, "");
}
