// SoftmaxCustom, host side: y = softmax(x, dim=-1) for float and float16 (computed in float), N <= 2032.
#include "softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE_BYTES = 16384;   // per input buffer
constexpr uint32_t MAX_REPEAT = 255;
constexpr uint32_t MAX_COLS = 2032;          // a float row is addressed by a repeat stride of at most 255 blocks

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    size_t dims = xShape.GetDimNum();
    if (dims == 0 || xShape.GetDim(dims - 1) <= 0 || coreNum == 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t cols = xShape.GetDim(dims - 1);
    uint64_t rows = xShape.GetShapeSize() / cols;
    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t typeSize = isHalf ? 2 : 4;
    uint32_t alignNum = BLOCK_BYTES / typeSize;
    uint64_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    if (rows == 0 || rows > UINT32_MAX || colsAligned > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }

    // UB per tile row: BUFFER_NUM rows of x and of y, a float work row (float16 only), the 64-float partial
    // row of the reductions, the row's max/sum and its 32-byte broadcast block.
    uint64_t rowBytes = 2 * BUFFER_NUM * colsAligned * typeSize + (isHalf ? colsAligned * 4 : 0) + 256 + 3 * 32;
    uint64_t tileRows = (ubSize - 4 * BLOCK_BYTES) / rowBytes;
    uint64_t capRows = MAX_TILE_BYTES / (colsAligned * typeSize);
    if (tileRows > capRows) tileRows = capRows;
    if (tileRows > MAX_REPEAT) tileRows = MAX_REPEAT;
    if (tileRows == 0) tileRows = 1;

    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    if (tileRows > tailRows + 1) tileRows = tailRows + 1;

    SoftmaxCustomTilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(tailRows + 1);
    tiling.set_tailRows(tailRows);
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));

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
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SoftmaxCustom);
}  // namespace ops
