#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include <ATen/Scalar.h>
#include "pytorch_npu_helper.hpp"

std::vector<at::Tensor> custom_pybind_api(std::vector<at::Tensor> &x, at::Tensor &scales)
{
    std::vector<at::Scalar> values;
    auto read = scales.accessor<float, 1>();
    for (int64_t i = 0; i < scales.size(0); ++i) {
        values.push_back(at::Scalar(read[i]));
    }
    std::vector<at::Tensor> result;
    for (const auto &t : x) {
        result.push_back(torch::empty_like(t));
    }
    at::TensorList in = at::TensorList(x);
    at::TensorList out = at::TensorList(result);
    at::ArrayRef<at::Scalar> scalar_list(values);
    EXEC_NPU_CMD(aclnnCustomOp, in, scalar_list, out);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("custom_pybind_api", &custom_pybind_api, "");
}
