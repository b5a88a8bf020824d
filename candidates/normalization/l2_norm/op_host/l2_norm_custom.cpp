// L2NormCustom, host side: y = x / max(||x||_2, eps) over the last dim (F.normalize(x, p=2, dim=-1), eps 1e-12)
// for float, float16 and bfloat16, computed in float. Rows are split over the vector cores. When a whole row
// (padded to 32 bytes) fits the UB budget, tiling key 1 normalizes [tileRows, N] tiles in one pass; otherwise
// tiling key 2 reads every row twice in chunks: once for the sum of squares, once to scale and write.
#include "l2_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t BLOCK_BYTES = 32;
constexpr uint64_t BUFFER_NUM = 2;
constexpr uint64_t MAX_TILE_BYTES = 32768;   // float bytes per tile (key 1) or chunk (key 2)
constexpr uint64_t MAX_REPEAT = 255;
// Key 1 addresses a row with a repeat stride in 32-byte blocks (at most 255): rows up to 2032 floats.
constexpr uint64_t MAX_ROW_COLS = 2032;
constexpr uint64_t CHUNK_COLS = 4096;         // key 2
constexpr uint64_t TILING_KEY_ROWS = 1;
constexpr uint64_t TILING_KEY_CHUNKS = 2;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    size_t dims = xShape.GetDimNum();
    if (dims == 0 || xShape.GetDim(dims - 1) <= 0 || coreNum == 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t cols = xShape.GetDim(dims - 1);
    uint64_t rows = xShape.GetShapeSize() / cols;
    if (rows == 0 || rows * cols > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    uint64_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    uint64_t alignNum = BLOCK_BYTES / typeSize;

    uint64_t usedCores = rows < coreNum ? rows : coreNum;
    uint64_t tailRows = rows / usedCores;
    uint64_t formerNum = rows % usedCores;
    uint64_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    uint64_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    uint64_t tileRows = 1, tileCols;
    uint64_t key;
    if (colsAligned <= MAX_ROW_COLS) {
        key = TILING_KEY_ROWS;
        tileCols = colsAligned;
        tileRows = MAX_TILE_BYTES / (tileCols * 4);
        if (tileRows > MAX_REPEAT) tileRows = MAX_REPEAT;
        if (tileRows > formerRows) tileRows = formerRows;
        if (tileRows == 0) tileRows = 1;
        // x and y (double-buffered), float work and squares, per-row sums / broadcast buffers
        uint64_t need = 2 * BUFFER_NUM * tileRows * tileCols * typeSize + 2 * tileRows * tileCols * 4 +
                        tileRows * 8 * 4 + 4 * ((tileRows + 7) / 8 * 8) * 4;
        if (need > ubSize) return ge::GRAPH_FAILED;
    } else {
        key = TILING_KEY_CHUNKS;
        tileCols = CHUNK_COLS;
    }

    L2NormCustomTilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_formerNum(static_cast<uint32_t>(formerNum));
    tiling.set_formerRows(static_cast<uint32_t>(tailRows + 1));
    tiling.set_tailRows(static_cast<uint32_t>(tailRows));
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));
    tiling.set_tileCols(static_cast<uint32_t>(tileCols));
    tiling.set_epsilon(1e-12f);

    context->SetTilingKey(key);
    context->SetBlockDim(static_cast<uint32_t>(usedCores));
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
class L2NormCustom : public OpDef {
public:
    explicit L2NormCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
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

OP_ADD(L2NormCustom);
}  // namespace ops
