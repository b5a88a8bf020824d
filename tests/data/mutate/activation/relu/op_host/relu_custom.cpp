// ReluCustom, host side: y = max(x, 0) for float32, float16, bfloat16 and int32 tensors of any shape.
// Tiling: whole 32-byte blocks of x split evenly over all vector cores, each core's share streamed through UB in
// double-buffered tiles; bfloat16 also needs a float32 work tile (the 910B vector unit has no bfloat16 Relu).
#include "relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;         // DMA and vector operands move whole 32-byte blocks
constexpr uint32_t TILE_ALIGN = 64;          // tile lengths: multiples of one 256-byte float repeat
constexpr uint32_t BUFFER_NUM = 2;           // double buffering: copy tile i+1 in while tile i is computed
constexpr uint32_t MAX_TILE_BYTES = 16384;   // of x per tile: large DMA bursts, still several tiles per core

static uint32_t TypeSize(ge::DataType dtype)
{
    return (dtype == ge::DT_FLOAT16 || dtype == ge::DT_BF16) ? 2 : 4;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = TypeSize(dtype);
    uint32_t alignNum = BLOCK_BYTES / typeSize;                     // elements per 32-byte block
    if (totalLength == 0 || totalLength > UINT32_MAX || coreNum == 0) {
        return ge::GRAPH_FAILED;
    }

    // Whole 32-byte blocks over the cores: the first formerNum cores take one block more. Only the last core
    // ends on a partial block, which the kernel moves with DataCopyPad.
    uint64_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? static_cast<uint32_t>(totalBlocks) : coreNum;
    uint64_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(totalBlocks % usedCores);
    uint64_t formerLength = (blocksPerCore + 1) * alignNum;
    uint64_t tailLength = blocksPerCore * alignNum;

    // UB per tile element: BUFFER_NUM x-buffers and BUFFER_NUM y-buffers, plus a float work tile for bfloat16.
    uint64_t bytesPerElem = 2 * BUFFER_NUM * typeSize + (dtype == ge::DT_BF16 ? sizeof(float) : 0);
    uint64_t tileLength = MAX_TILE_BYTES / typeSize;
    if (tileLength > ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN) {
        tileLength = ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN;
    }
    uint64_t coreMax = (formerNum > 0) ? formerLength : tailLength;
    if (tileLength > coreMax) {
        tileLength = (coreMax + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;   // small inputs: one tile per core
    }

    ReluCustomTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(static_cast<uint32_t>(formerLength));
    tiling.set_tailLength(static_cast<uint32_t>(tailLength));
    tiling.set_tileLength(static_cast<uint32_t>(tileLength));

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaceSizes = context->GetWorkspaceSizes(1);
    workspaceSizes[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReluCustom : public OpDef {
public:
    explicit ReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ReluCustom);
}  // namespace ops
