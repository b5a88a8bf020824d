#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor custom_pybind_api(at::Tensor &x, double alpha)
{
    at::Tensor result = torch::empty_like(x);
    c10::Scalar scale(alpha);   // an aclScalar for the Scalar() input
    EXEC_NPU_CMD(aclnnCustomOp, x, scale, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("custom_pybind_api", &custom_pybind_api, "");
}
