// MseLossCustom, host side: y = mean((pred - target)^2), a 0-dim tensor, for float, float16 and bfloat16 (computed
// in float). The elements are split over all vector cores; each core writes its partial sum to the workspace
// (one 32-byte slot per core), the cores meet at SyncAll, and core 0 adds the partials and scales by 1 / N.
#include "mse_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t BLOCK_BYTES = 32;
constexpr uint64_t BUFFER_NUM = 2;
constexpr uint64_t MAX_TILE_ELEMS = 4096;   // 16 KiB of float per buffer
constexpr uint64_t MIN_TILE_ELEMS = 1024;
constexpr uint64_t TILES_PER_CORE = 4;      // enough tiles for copy-in and compute to overlap

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t coreNum = platform.GetCoreNumAiv();

    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    if (static_cast<uint64_t>(context->GetInputShape(1)->GetOriginShape().GetShapeSize()) != totalLength) {
        return ge::GRAPH_FAILED;                      // pred and target have one shape
    }
    uint64_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    uint64_t alignNum = BLOCK_BYTES / typeSize;
    if (totalLength == 0 || totalLength > UINT32_MAX || coreNum == 0) {
        return ge::GRAPH_FAILED;
    }

    uint64_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint64_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    uint64_t blocksPerCore = totalBlocks / usedCores;
    uint64_t formerNum = totalBlocks % usedCores;
    uint64_t coreElems = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * alignNum;

    // UB per tile element: two double-buffered inputs, float copies of both (16-bit types), the float
    // accumulator and ReduceSum's work buffer.
    uint64_t bytesPerElem = 2 * BUFFER_NUM * typeSize + (typeSize == 4 ? 0 : 2 * 4) + 2 * 4;
    uint64_t tileElems = (ubSize - 4 * BLOCK_BYTES - usedCores * BLOCK_BYTES) / bytesPerElem;
    if (tileElems > MAX_TILE_ELEMS) tileElems = MAX_TILE_ELEMS;
    uint64_t pipelined = (coreElems + TILES_PER_CORE - 1) / TILES_PER_CORE;
    if (pipelined < MIN_TILE_ELEMS) pipelined = MIN_TILE_ELEMS;
    if (tileElems > pipelined) tileElems = pipelined;
    if (tileElems > coreElems) tileElems = coreElems;
    tileElems = (tileElems + alignNum - 1) / alignNum * alignNum;

    MseLossCustomTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(static_cast<uint32_t>(formerNum));
    tiling.set_formerLength(static_cast<uint32_t>((blocksPerCore + 1) * alignNum));
    tiling.set_tailLength(static_cast<uint32_t>(blocksPerCore * alignNum));
    tiling.set_tileLength(static_cast<uint32_t>(tileElems));
    tiling.set_usedCores(static_cast<uint32_t>(usedCores));
    tiling.set_scale(static_cast<float>(1.0 / static_cast<double>(totalLength)));

    context->SetBlockDim(static_cast<uint32_t>(usedCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaceSizes = context->GetWorkspaceSizes(1);
    workspaceSizes[0] = usedCores * BLOCK_BYTES;      // one 32-byte slot per core for its partial sum
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// The loss is a 0-dim tensor of pred's dtype.
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    context->GetOutputShape(0)->SetDimNum(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MseLossCustom : public OpDef {
public:
    explicit MseLossCustom(const char* name) : OpDef(name)
    {
        this->Input("pred")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("target")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MseLossCustom);
}  // namespace ops
