// y[i] = x1[i] + x2[i] * alpha over tensor lists: tensor i is core i % blockDim's.
#include "axpy_list_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AxpyListTilingData tiling;
    uint32_t numel[MAX_LIST] = {0};
    uint32_t count = 0;
    for (; count < MAX_LIST; ++count) {
        const gert::Tensor* t = context->GetDynamicInputTensor(0, count);
        if (t == nullptr) {
            break;
        }
        numel[count] = static_cast<uint32_t>(t->GetStorageShape().GetShapeSize());
    }
    if (count == 0 || context->GetDynamicInputTensor(0, MAX_LIST) != nullptr) {
        return ge::GRAPH_FAILED;   // an empty list, or more tensors than the tiling struct holds
    }
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = platform.GetCoreNumAiv();
    tiling.set_count(count);
    tiling.set_tile(static_cast<uint32_t>(ub / 8 / typeSize) / 32 * 32);   // 3 queues, 2 buffers, headroom
    tiling.set_numel(numel);
    context->SetBlockDim(count < cores ? count : cores);
    context->SetTilingKey(typeSize == 2 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AxpyListCustom : public OpDef {
public:
    explicit AxpyListCustom(const char* name) : OpDef(name)
    {
        this->Input("x1").ParamType(DYNAMIC).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).AutoContiguous();
        this->Input("x2").ParamType(DYNAMIC).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).AutoContiguous();
        this->Input("alpha").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(DYNAMIC).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).AutoContiguous();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxpyListCustom);
}  // namespace ops
