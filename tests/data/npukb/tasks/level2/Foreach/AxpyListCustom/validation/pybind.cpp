#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

std::vector<at::Tensor> custom_pybind_api(std::vector<at::Tensor> &x1, std::vector<at::Tensor> &x2, at::Tensor &alpha)
{
    std::vector<at::Tensor> result;
    TORCH_CHECK(alpha.scalar_type() == torch::kFloat32 || alpha.scalar_type() == torch::kFloat16,   // the C++ frontend's dtype names
                "alpha is a float32 or float16 tensor");
    for (const auto &t : x1) {
        result.push_back(torch::empty_like(t));
    }
    at::TensorList out = at::TensorList(result);
    at::TensorList in1 = at::TensorList(x1);
    at::TensorList in2 = at::TensorList(x2);
    EXEC_NPU_CMD(aclnnCustomOp, in1, in2, alpha, out);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("custom_pybind_api", &custom_pybind_api, "");
}
