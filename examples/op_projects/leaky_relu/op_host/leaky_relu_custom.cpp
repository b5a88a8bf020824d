// LeakyReluCustom, host side: y = x >= 0 ? x : negative_slope * x for float and float16 tensors of any shape.
#include "leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint32_t BUFFER_NUM = 2;          // double buffering: copy tile i+1 in while tile i is computed
constexpr uint32_t QUEUE_NUM = 2;           // one input queue (x) and one output queue (y)
constexpr uint32_t MAX_TILE_BYTES = 16384;  // keeps several tiles per core so that the pipeline overlaps

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t alignNum = BLOCK_BYTES / typeSize;               // elements per 32-byte block
    const float* negativeSlope = context->GetAttrs()->GetAttrPointer<float>(0);
    if (totalLength == 0 || totalLength > UINT32_MAX || coreNum == 0 || negativeSlope == nullptr) {
        return ge::GRAPH_FAILED;
    }

    // Split whole 32-byte blocks over the cores as evenly as possible: the first formerNum cores take one
    // block more. Only the last core ends on a partial block (the kernel copies it with DataCopyPad).
    uint64_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? static_cast<uint32_t>(totalBlocks) : coreNum;
    uint64_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(totalBlocks % usedCores);

    // Tile size: BUFFER_NUM buffers for each of the QUEUE_NUM queues must fit UB.
    uint64_t tileBytes = ubSize / (BUFFER_NUM * QUEUE_NUM) / BLOCK_BYTES * BLOCK_BYTES;
    if (tileBytes > MAX_TILE_BYTES) {
        tileBytes = MAX_TILE_BYTES;
    }
    uint64_t coreBytes = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * BLOCK_BYTES;
    if (tileBytes > coreBytes) {
        tileBytes = coreBytes;                                // small inputs: no larger than one core's share
    }

    LeakyReluCustomTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(static_cast<uint32_t>((blocksPerCore + 1) * alignNum));
    tiling.set_tailLength(static_cast<uint32_t>(blocksPerCore * alignNum));
    tiling.set_tileLength(static_cast<uint32_t>(tileBytes / typeSize));
    tiling.set_negativeSlope(*negativeSlope);

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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LeakyReluCustom : public OpDef {
public:
    explicit LeakyReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LeakyReluCustom);
}  // namespace ops
