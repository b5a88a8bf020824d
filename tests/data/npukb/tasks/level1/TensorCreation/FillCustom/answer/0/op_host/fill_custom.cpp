// FillCustom: a Scalar() input and one output; the output's dtype picks the column (float or int32).
#include "fill_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t total = static_cast<uint32_t>(context->GetOutputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + 7) / 8 * 8;   // 32 bytes of 4-byte elements
    FillCustomTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_tileLength(perCore < 2048 ? perCore : 2048);
    context->SetBlockDim((total + perCore - 1) / perCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class FillCustom : public OpDef {
public:
    explicit FillCustom(const char* name) : OpDef(name)
    {
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).Scalar();
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FillCustom);
}  // namespace ops
