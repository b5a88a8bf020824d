// MatrixScalarMultiplicationCustom, host side: C = A * scalar for float32, float16 and bfloat16 tensors of any
// shape. The op is purely elementwise, so the tiling ignores the shape: it splits the flat element range over all
// vector cores in 32-byte blocks and picks a UB tile that leaves room for a float32 staging buffer (bfloat16).
#include "matrix_scalar_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint32_t BUFFER_NUM = 2;          // double buffering: copy tile i+1 in while tile i is computed
constexpr uint32_t MAX_TILE_ELEMS = 8192;   // 32 KiB of float32 per buffer: big DMA bursts, several tiles per core

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dtype == ge::DT_FLOAT) ? 4 : 2;
    uint32_t alignNum = BLOCK_BYTES / typeSize;               // elements per 32-byte block
    const float* scalar = context->GetAttrs()->GetAttrPointer<float>(0);
    if (totalLength == 0 || totalLength > UINT32_MAX || coreNum == 0 || scalar == nullptr) {
        return ge::GRAPH_FAILED;
    }

    // Whole 32-byte blocks over the cores: the first formerNum cores take one block more. Only the last core ends
    // on a partial block (the kernel moves it with DataCopyPad).
    uint64_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? static_cast<uint32_t>(totalBlocks) : coreNum;
    uint64_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(totalBlocks % usedCores);
    uint64_t formerLength = (blocksPerCore + 1) * alignNum;

    // UB per tile element: BUFFER_NUM copies of A and of C, plus one float32 staging element for bfloat16.
    uint64_t bytesPerElem = 2 * BUFFER_NUM * typeSize + (dtype == ge::DT_BF16 ? sizeof(float) : 0);
    uint64_t tileLength = ubSize / bytesPerElem / alignNum * alignNum;
    if (tileLength > MAX_TILE_ELEMS) tileLength = MAX_TILE_ELEMS;
    if (tileLength > formerLength) tileLength = formerLength;  // small inputs: one tile per core

    MatrixScalarMultiplicationCustomTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(static_cast<uint32_t>(formerLength));
    tiling.set_tailLength(static_cast<uint32_t>(blocksPerCore * alignNum));
    tiling.set_tileLength(static_cast<uint32_t>(tileLength));
    tiling.set_scalar(*scalar);

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
class MatrixScalarMultiplicationCustom : public OpDef {
public:
    explicit MatrixScalarMultiplicationCustom(const char* name) : OpDef(name)
    {
        this->Input("A")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("C")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scalar").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatrixScalarMultiplicationCustom);
}  // namespace ops
