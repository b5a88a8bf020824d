# kgen-expect: op-def @
# A MultiKernelBench AscendC submission (the six-string format) for z = x + y, written for kgen.
# Any element count: each core takes a contiguous span of whole 32-byte blocks, the last core also the tail; tiles
# move with DataCopyPad so the tail of a row that is not a multiple of 32 bytes is copied exactly.
project_json_src = '''
[
    {
        "op": "AddCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "z", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
}
"""

host_operator_src = """
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    AddCustomTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t perBlock = 32 / sizeof(float);          // elements in one 32-byte block
    uint32_t blocks = (total + perBlock - 1) / perBlock;
    uint32_t used = blocks < cores ? (blocks == 0 ? 1 : blocks) : cores;
    uint32_t perCore = (blocks / used) * perBlock;          // whole blocks per core; the last core adds the tail
    // 3 queues x 2 buffers of one tile each must fit in UB.
    uint32_t tile = static_cast<uint32_t>(ubSize / (6 * sizeof(float))) / perBlock * perBlock;
    if (tile > 8192) tile = 8192;

    context->SetBlockDim(used);
    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_tileLength(tile);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
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
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t perCore, uint32_t tile)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t start = perCore * idx;
        this->length = (idx == AscendC::GetBlockNum() - 1) ? total - start : perCore;
        this->tile = tile;
        xGm.SetGlobalBuffer((__gm__ float *)x + start, this->length);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, this->length);
        zGm.SetGlobalBuffer((__gm__ float *)z + start, this->length);
        pipe.InitBuffer(inX, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(inY, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(outZ, BUFFER_NUM, tile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < this->length; off += this->tile) {
            uint32_t n = this->length - off < this->tile ? this->length - off : this->tile;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        AscendC::LocalTensor<float> x = inX.AllocTensor<float>();
        AscendC::LocalTensor<float> y = inY.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(x, xGm[off], params, pad);
        AscendC::DataCopyPad(y, yGm[off], params, pad);
        inX.EnQue(x);
        inY.EnQue(y);
    }
    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<float> x = inX.DeQue<float>();
        AscendC::LocalTensor<float> y = inY.DeQue<float>();
        AscendC::LocalTensor<float> z = outZ.AllocTensor<float>();
        AscendC::Add(z, x, y, n);
        outZ.EnQue<float>(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        AscendC::LocalTensor<float> z = outZ.DeQue<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(zGm[off], z, params);
        outZ.FreeTensor(z);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    uint32_t length = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.perCore, tilingData.tileLength);
    op.Process();
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor add_custom_impl_npu(const at::Tensor &x, const at::Tensor &y)
{
    TORCH_CHECK(x.sizes() == y.sizes(), "add_custom: x and y must have the same shape");
    at::Tensor z = at::empty_like(x);
    EXEC_NPU_CMD(aclnnAddCustom, x, y, y, z);  // ERROR-HERE
    return z;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("add_custom", &add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("add_custom", &add_custom_impl_npu, "z = x + y");
}
"""

model_src = '''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, a, b):
        return custom_ops_lib.add_custom(a, b)
'''
