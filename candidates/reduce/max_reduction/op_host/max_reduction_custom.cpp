// MaxReductionCustom, host side: y = x.max(dim).values (the reduced dim removed) for float, float16 (compared in
// float) and int32. x is viewed as [outer, reduceLen, inner]. Reducing the last dim (inner == 1,
// tiling key 1) reduces contiguous rows; any other dim (tiling key 2) compares reduceLen rows of inner contiguous
// elements, so the work is split by column chunks, sized so that every vector core gets at least one chunk.
#include "max_reduction_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint64_t MAX_TILE_BYTES = 16384;   // per input buffer
constexpr uint64_t MAX_REPEAT = 255;
constexpr uint64_t MAX_BLOCK_COUNT = 4095;   // DataCopyPad blockCount
// Key 1: a UB row is addressed with a repeat stride in 32-byte blocks (at most 255): 2032 floats, also a whole
// number of 32-byte blocks in float16.
constexpr uint64_t MAX_TILE_COLS = 2032;
constexpr uint64_t COL_ALIGN = 16;           // column chunks: whole 32-byte blocks in 16- and 32-bit types
constexpr uint64_t MIN_CHUNK_COLS = 64;      // key 2: at least 256 bytes of float per row of a chunk
constexpr uint64_t MAX_CHUNK_COLS = 1024;
constexpr uint64_t TILING_KEY_ROWS = 1;
constexpr uint64_t TILING_KEY_COLS = 2;

static uint64_t AlignUp(uint64_t n, uint64_t a) { return (n + a - 1) / a * a; }

static bool ReducedDim(const gert::Shape& shape, const int64_t* dimAttr, size_t& dim)
{
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    int64_t d = dimAttr == nullptr ? -1 : *dimAttr;
    if (d < 0) d += rank;
    if (rank == 0 || d < 0 || d >= rank) return false;
    dim = static_cast<size_t>(d);
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    size_t dim = 0;
    if (coreNum == 0 || !ReducedDim(xShape, context->GetAttrs()->GetAttrPointer<int64_t>(0), dim)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1, inner = 1;
    for (size_t i = 0; i < dim; i++) outer *= xShape.GetDim(i);
    for (size_t i = dim + 1; i < xShape.GetDimNum(); i++) inner *= xShape.GetDim(i);
    uint64_t reduceLen = xShape.GetDim(dim);
    if (outer == 0 || inner == 0 || reduceLen == 0 || outer * reduceLen * inner > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint64_t typeSize = dtype == ge::DT_FLOAT16 ? 2 : 4;
    uint64_t computeBytes = typeSize == 4 ? 0 : 4;      // a float copy of each 16-bit input tile

    MaxReductionCustomTilingData tiling;
    uint64_t units, tileRows, tileCols, chunkNum = 1, rowsPad = 8;
    if (inner == 1) {
        // Key 1: rows of reduceLen elements; tileRows rows of tileCols elements per UB tile.
        tileCols = AlignUp(reduceLen, COL_ALIGN);
        if (tileCols > MAX_TILE_COLS) tileCols = MAX_TILE_COLS;
        units = outer;
        uint64_t rowsPerCore = (units + coreNum - 1) / coreNum;
        tileRows = MAX_TILE_BYTES / (tileCols * typeSize);
        if (tileRows > MAX_REPEAT) tileRows = MAX_REPEAT;
        if (tileRows > rowsPerCore) tileRows = rowsPerCore;
        if (tileRows == 0) tileRows = 1;
        rowsPad = AlignUp(tileRows, 8);
        // input (double-buffered), float copy, outputs and partial results, int32 transpose buffers
        uint64_t need = BUFFER_NUM * tileRows * tileCols * (typeSize) + tileRows * tileCols * computeBytes +
                        (BUFFER_NUM + 2) * rowsPad * 4 + 3 * rowsPad * 8 * 4;
        if (need > ubSize) return ge::GRAPH_FAILED;
    } else {
        // Key 2: cut inner into chunks so that outer * chunkNum covers the cores.
        uint64_t chunksPerOuter = (coreNum + outer - 1) / outer;
        tileCols = AlignUp((inner + chunksPerOuter - 1) / chunksPerOuter, COL_ALIGN);
        if (tileCols < MIN_CHUNK_COLS) tileCols = MIN_CHUNK_COLS;
        if (tileCols > MAX_CHUNK_COLS) tileCols = MAX_CHUNK_COLS;
        if (tileCols > AlignUp(inner, COL_ALIGN)) tileCols = AlignUp(inner, COL_ALIGN);
        chunkNum = (inner + tileCols - 1) / tileCols;
        units = outer * chunkNum;
        tileRows = MAX_TILE_BYTES / (tileCols * typeSize);
        if (tileRows > reduceLen) tileRows = reduceLen;
        if (tileRows > MAX_BLOCK_COUNT) tileRows = MAX_BLOCK_COUNT;
        if (tileRows == 0) tileRows = 1;
        uint64_t need = BUFFER_NUM * tileRows * tileCols * typeSize + tileRows * tileCols * computeBytes +
                        tileCols * 4 + BUFFER_NUM * tileCols * typeSize;
        if (need > ubSize) return ge::GRAPH_FAILED;
    }
    uint64_t usedCores = units < coreNum ? units : coreNum;
    tiling.set_outer(static_cast<uint32_t>(outer));
    tiling.set_reduceLen(static_cast<uint32_t>(reduceLen));
    tiling.set_inner(static_cast<uint32_t>(inner));
    tiling.set_formerNum(static_cast<uint32_t>(units % usedCores));
    tiling.set_formerUnits(static_cast<uint32_t>(units / usedCores + 1));
    tiling.set_tailUnits(static_cast<uint32_t>(units / usedCores));
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));
    tiling.set_tileCols(static_cast<uint32_t>(tileCols));
    tiling.set_chunkNum(static_cast<uint32_t>(chunkNum));
    tiling.set_rowsPad(static_cast<uint32_t>(rowsPad));

    context->SetTilingKey(inner == 1 ? TILING_KEY_ROWS : TILING_KEY_COLS);
    context->SetBlockDim(static_cast<uint32_t>(usedCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaceSizes = context->GetWorkspaceSizes(1);
    workspaceSizes[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y has x's shape without the reduced dim.
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    const int64_t* dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(xShape->GetDimNum());
    int64_t dim = dimAttr == nullptr ? -1 : *dimAttr;
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) {
        return GRAPH_FAILED;
    }
    yShape->SetDimNum(static_cast<size_t>(rank - 1));
    for (int64_t i = 0, j = 0; i < rank; i++) {
        if (i != dim) yShape->SetDim(static_cast<size_t>(j++), xShape->GetDim(static_cast<size_t>(i)));
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
class MaxReductionCustom : public OpDef {
public:
    explicit MaxReductionCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(-1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MaxReductionCustom);
}  // namespace ops
