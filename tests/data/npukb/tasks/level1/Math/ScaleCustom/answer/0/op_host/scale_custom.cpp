// Tiling (with a TilingParse compile info) and InferShape/InferDataType of ScaleCustom, registered by op type.
#include "scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "graph/utils/type_utils.h"
#include "platform/platform_info.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct ScaleCompileInfo {
    uint32_t coreNum = 0;
    uint64_t ubSize = 0;
};

static ge::graphStatus TilingPrepare4Scale(gert::TilingParseContext* context)
{
    auto* info = context->GetCompiledInfo<ScaleCompileInfo>();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    info->coreNum = platform.GetCoreNumAiv();
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, info->ubSize);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus Tiling4Scale(gert::TilingContext* context)
{
    auto* info = reinterpret_cast<const ScaleCompileInfo*>(context->GetCompileInfo());
    if (info == nullptr || info->coreNum == 0) {
        return ge::GRAPH_FAILED;
    }
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeLength = 0;
    ge::TypeUtils::GetDataTypeLength(dt, typeLength);
    if (typeLength == 0 || static_cast<int>(typeLength) != ge::GetSizeByDataType(dt)) {
        std::cout << "ScaleCustom: no size for " << ge::TypeUtils::DataTypeToSerialString(dt) << std::endl;
        return ge::GRAPH_FAILED;
    }
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t align = 32 / typeLength;
    uint32_t perCore = (total + info->coreNum - 1) / info->coreNum;
    perCore = (perCore + align - 1) / align * align;
    uint32_t tile = static_cast<uint32_t>(info->ubSize / 4 / typeLength) / align * align;   // 2 queues x 2 buffers
    ScaleCustomTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_tileLength(perCore < tile ? perCore : tile);
    tiling.set_isHalf(dt == ge::DT_FLOAT16);
    context->SetBlockDim((total + perCore - 1) / perCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(ScaleCustom)
    .Tiling(Tiling4Scale)
    .TilingParse<ScaleCompileInfo>(TilingPrepare4Scale);
}  // namespace optiling

namespace ge {
static graphStatus InferShape4Scale(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType4Scale(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(ScaleCustom)
    .InferShape(InferShape4Scale)
    .InferDataType(InferDataType4Scale);
}  // namespace ge
