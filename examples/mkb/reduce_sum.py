# A MultiKernelBench AscendC submission (the six-string format) for a sum over the last dimension (keepdim), fp32,
# written for kgen. Rows are spread over the cores; a row longer than one tile is summed tile by tile (ReduceSum of
# the tile, then Add into the row's running sum); each row's sum leaves UB with a 4-byte DataCopyPad.
project_json_src = '''
[
    {
        "op": "ReduceSumCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceSumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceSumCustom, ReduceSumCustomTilingData)
}
"""

host_operator_src = """
#include "reduce_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ReduceSumCustomTilingData tiling;
    const gert::Shape &shape = context->GetInputShape(0)->GetOriginShape();
    size_t dims = shape.GetDimNum();
    if (dims == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(dims - 1));
    uint32_t rows = cols == 0 ? 0 : static_cast<uint32_t>(shape.GetShapeSize() / cols);
    if (rows == 0 || cols == 0) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t used = rows < cores ? rows : cores;
    uint32_t perCore = (rows + used - 1) / used;
    used = (rows + perCore - 1) / perCore;

    context->SetBlockDim(used);
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(perCore);
    tiling.set_tileLength(8192);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(x->GetDimNum() - 1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ReduceSumCustom : public OpDef {
public:
    explicit ReduceSumCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReduceSumCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

class KernelReduceSum {
public:
    __aicore__ inline KernelReduceSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t perCore, uint32_t tile)
    {
        uint32_t first = perCore * AscendC::GetBlockIdx();
        myRows = first + perCore <= rows ? perCore : rows - first;
        this->cols = cols;
        this->tile = cols < tile ? cols : tile;
        xGm.SetGlobalBuffer((__gm__ float *)x + static_cast<uint64_t>(first) * cols, static_cast<uint64_t>(myRows) * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y + first, myRows);
        uint32_t tileBytes = (this->tile * sizeof(float) + 31) / 32 * 32;
        pipe.InitBuffer(inQ, 2, tileBytes);
        pipe.InitBuffer(outQ, 2, 32);
        pipe.InitBuffer(workBuf, tileBytes);
        pipe.InitBuffer(partBuf, 32);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows; ++r) {
            AscendC::LocalTensor<float> sum = outQ.AllocTensor<float>();
            for (uint32_t off = 0; off < cols; off += tile) {
                uint32_t n = cols - off < tile ? cols - off : tile;
                AscendC::LocalTensor<float> xin = inQ.AllocTensor<float>();
                AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
                AscendC::DataCopyPad(xin, xGm[static_cast<uint64_t>(r) * cols + off], params,
                                     AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                inQ.EnQue(xin);
                AscendC::LocalTensor<float> xt = inQ.DeQue<float>();
                AscendC::LocalTensor<float> work = workBuf.Get<float>();
                if (off == 0) {
                    AscendC::ReduceSum(sum, xt, work, n);
                } else {
                    AscendC::LocalTensor<float> part = partBuf.Get<float>();
                    AscendC::ReduceSum(part, xt, work, n);
                    AscendC::Add(sum, sum, part, 1);
                }
                inQ.FreeTensor(xt);
            }
            outQ.EnQue<float>(sum);
            AscendC::LocalTensor<float> s = outQ.DeQue<float>();
            AscendC::DataCopyExtParams one{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[r], s, one);
            outQ.FreeTensor(s);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQ;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> workBuf, partBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t myRows = 0, cols = 0, tile = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelReduceSum op;
    op.Init(x, y, t.rows, t.cols, t.rowsPerCore, t.tileLength);
    op.Process();
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor reduce_sum_custom_impl_npu(const at::Tensor &x)
{
    TORCH_CHECK(x.dim() >= 1, "reduce_sum_custom: x must have at least one dimension");
    std::vector<int64_t> shape = x.sizes().vec();
    shape.back() = 1;
    at::Tensor y = at::empty(shape, x.options());
    EXEC_NPU_CMD(aclnnReduceSumCustom, x, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("reduce_sum_custom", &reduce_sum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("reduce_sum_custom", &reduce_sum_custom_impl_npu, "sum over the last dimension, keepdim");
}
"""

model_src = '''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return custom_ops_lib.reduce_sum_custom(x)
'''
