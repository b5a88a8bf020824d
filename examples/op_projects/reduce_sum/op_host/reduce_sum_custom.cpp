// ReduceSumCustom, host side: y = x.sum(dim=-1) for float (tiling key 1) and float16 (tiling key 2, summed in
// float). The output has x's shape without its last dim.
#include "reduce_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE_BYTES = 16384;   // per input buffer
constexpr uint32_t MAX_REPEAT = 255;
// The float work rows are addressed with a repeat stride in 32-byte blocks (at most 255): 2032 floats, also a
// whole number of 32-byte blocks in float16.
constexpr uint32_t MAX_TILE_COLS = 2032;
constexpr uint64_t TILING_KEY_FLOAT = 1;
constexpr uint64_t TILING_KEY_HALF = 2;

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
    if (rows == 0 || rows > UINT32_MAX || cols > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t typeSize = isHalf ? 2 : 4;
    uint32_t alignNum = BLOCK_BYTES / typeSize;

    uint64_t tileCols = (cols + alignNum - 1) / alignNum * alignNum;
    if (tileCols > MAX_TILE_COLS) {
        tileCols = MAX_TILE_COLS;
    }
    // UB per tile row: BUFFER_NUM input rows, a float copy of the row (float16 only), and the float results
    // (output, accumulator and partial sums: a few bytes per row, bounded by 3 * 32 bytes of padding + 12).
    uint64_t rowBytes = BUFFER_NUM * tileCols * typeSize + (isHalf ? tileCols * 4 : 0) + 3 * 4 + BUFFER_NUM * 4;
    uint64_t tileRows = (ubSize - 8 * BLOCK_BYTES) / rowBytes;
    uint64_t capRows = MAX_TILE_BYTES / (tileCols * typeSize);
    if (tileRows > capRows) tileRows = capRows;
    if (tileRows > MAX_REPEAT) tileRows = MAX_REPEAT;
    if (tileRows == 0) tileRows = 1;

    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    if (tileRows > tailRows + 1) tileRows = tailRows + 1;

    ReduceSumCustomTilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(tailRows + 1);
    tiling.set_tailRows(tailRows);
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));
    tiling.set_tileCols(static_cast<uint32_t>(tileCols));

    context->SetTilingKey(isHalf ? TILING_KEY_HALF : TILING_KEY_FLOAT);
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
    size_t dims = xShape->GetDimNum();
    if (dims == 0) {
        return GRAPH_FAILED;
    }
    yShape->SetDimNum(dims - 1);                  // drop the reduced last dim
    for (size_t i = 0; i + 1 < dims; i++) {
        yShape->SetDim(i, xShape->GetDim(i));
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReduceSumCustom : public OpDef {
public:
    explicit ReduceSumCustom(const char* name) : OpDef(name)
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

OP_ADD(ReduceSumCustom);
}  // namespace ops
