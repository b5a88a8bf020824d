# A MultiKernelBench AscendC submission (the six-string format) for LeakyReLU with the attr negative_slope, written
# for kgen. y = max(x, 0) + negative_slope * min(x, 0); the slope travels from the OpDef attr through the tiling.
project_json_src = '''
[
    {
        "op": "LeakyReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LeakyReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyReluCustom, LeakyReluCustomTilingData)
}
"""

host_operator_src = """
#include "leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LeakyReluCustomTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    const float *slope = context->GetAttrs()->GetAttrPointer<float>(0);
    if (slope == nullptr) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    const uint32_t perBlock = 32 / sizeof(float);
    uint32_t blocks = (total + perBlock - 1) / perBlock;
    uint32_t used = blocks == 0 ? 1 : (blocks < cores ? blocks : cores);

    context->SetBlockDim(used);
    tiling.set_totalLength(total);
    tiling.set_perCore((blocks / used) * perBlock);
    tiling.set_tileLength(4096);
    tiling.set_slope(*slope);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class LeakyReluCustom : public OpDef {
public:
    explicit LeakyReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LeakyReluCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t perCore, uint32_t tile, float slope)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t start = perCore * idx;
        length = (idx == AscendC::GetBlockNum() - 1) ? total - start : perCore;
        this->tile = tile;
        this->slope = slope;
        xGm.SetGlobalBuffer((__gm__ float *)x + start, length);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, length);
        pipe.InitBuffer(inQ, 2, tile * sizeof(float));
        pipe.InitBuffer(outQ, 2, tile * sizeof(float));
        pipe.InitBuffer(negBuf, tile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < length; off += tile) {
            uint32_t n = length - off < tile ? length - off : tile;
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            AscendC::LocalTensor<float> xin = inQ.AllocTensor<float>();
            AscendC::DataCopyPad(xin, xGm[off], params, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            inQ.EnQue(xin);

            AscendC::LocalTensor<float> x = inQ.DeQue<float>();
            AscendC::LocalTensor<float> y = outQ.AllocTensor<float>();
            AscendC::LocalTensor<float> neg = negBuf.Get<float>();
            AscendC::Mins(neg, x, 0.0f, n);
            AscendC::Maxs(y, x, 0.0f, n);
            AscendC::Muls(neg, neg, slope, n);
            AscendC::Add(y, y, neg, n);
            outQ.EnQue<float>(y);
            inQ.FreeTensor(x);

            AscendC::LocalTensor<float> yout = outQ.DeQue<float>();
            AscendC::DataCopyPad(yGm[off], yout, params);
            outQ.FreeTensor(yout);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQ;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> negBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t length = 0, tile = 0;
    float slope = 0.0f;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelLeakyRelu op;
    op.Init(x, y, t.totalLength, t.perCore, t.tileLength, t.slope);
    op.Process();
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor leaky_relu_custom_impl_npu(const at::Tensor &x, double negative_slope)
{
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnLeakyReluCustom, x, negative_slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("leaky_relu_custom", &leaky_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("leaky_relu_custom", &leaky_relu_custom_impl_npu, "LeakyReLU");
}
"""

model_src = '''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        return custom_ops_lib.leaky_relu_custom(x, self.negative_slope)
'''
