// y[i] = sigmoid(x[i] * scales[i]) over a tensor list: tensor i is core i % blockDim's, in tiles of 256 elements.
#include "scale_sigmoid_list_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleSigmoidListTilingData tiling;
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
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    tiling.set_count(count);
    tiling.set_tile(256);
    tiling.set_numel(numel);
    context->SetBlockDim(count < cores ? count : cores);
    context->SetTilingKey(0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScaleSigmoidListCustom : public OpDef {
public:
    explicit ScaleSigmoidListCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).AutoContiguous();
        this->Input("scales").ScalarList().ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(DYNAMIC).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).AutoContiguous();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleSigmoidListCustom);
}  // namespace ops
