// MulAddClampCustom, host side: y = clamp(a * b + c, lo, hi) for float32, float16 and int32 tensors of one shape,
// lo and hi integer attrs. Elementwise, so the tiling splits the flat element range over all vector cores in
// 32-byte blocks; float16 tiles also need two float32 staging buffers in UB, which the tile size accounts for.
#include "mul_add_clamp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint32_t BUFFER_NUM = 2;          // double buffering: copy tile i+1 in while tile i is computed
constexpr uint32_t QUEUE_NUM = 4;           // a, b, c in, y out
constexpr uint32_t MAX_TILE_ELEMS = 4096;   // 16 KiB of float32 per buffer: several tiles per core in flight

static int32_t SaturateInt32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : static_cast<int32_t>(v));
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    for (size_t i = 1; i < 3; i++) {
        if (static_cast<uint64_t>(context->GetInputShape(i)->GetOriginShape().GetShapeSize()) != totalLength) {
            return ge::GRAPH_FAILED;                  // a, b and c must have the same number of elements
        }
    }
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t alignNum = BLOCK_BYTES / typeSize;               // elements per 32-byte block
    const int64_t* lo = context->GetAttrs()->GetInt(0);
    const int64_t* hi = context->GetAttrs()->GetInt(1);
    if (totalLength == 0 || totalLength > UINT32_MAX || coreNum == 0 || lo == nullptr || hi == nullptr) {
        return ge::GRAPH_FAILED;
    }

    // Whole 32-byte blocks over the cores: the first formerNum cores take one block more. Only the last core ends
    // on a partial block (the kernel moves it with DataCopyPad).
    uint64_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? static_cast<uint32_t>(totalBlocks) : coreNum;
    uint64_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(totalBlocks % usedCores);
    uint64_t formerLength = (blocksPerCore + 1) * alignNum;

    // UB per tile element: BUFFER_NUM copies of each queue, plus two float32 staging elements for float16.
    uint64_t bytesPerElem = QUEUE_NUM * BUFFER_NUM * typeSize + (dtype == ge::DT_FLOAT16 ? 2 * sizeof(float) : 0);
    uint64_t tileLength = ubSize / bytesPerElem / alignNum * alignNum;
    if (tileLength > MAX_TILE_ELEMS) tileLength = MAX_TILE_ELEMS;
    if (tileLength > formerLength) tileLength = formerLength;  // small inputs: one tile per core

    MulAddClampCustomTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(static_cast<uint32_t>(formerLength));
    tiling.set_tailLength(static_cast<uint32_t>(blocksPerCore * alignNum));
    tiling.set_tileLength(static_cast<uint32_t>(tileLength));
    tiling.set_loInt(SaturateInt32(*lo));
    tiling.set_hiInt(SaturateInt32(*hi));
    tiling.set_loFloat(static_cast<float>(*lo));
    tiling.set_hiFloat(static_cast<float>(*hi));

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
class MulAddClampCustom : public OpDef {
public:
    explicit MulAddClampCustom(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"a", "b", "c"};
        for (const char* input : inputs) {
            this->Input(input)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lo").AttrType(REQUIRED).Int();
        this->Attr("hi").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MulAddClampCustom);
}  // namespace ops
