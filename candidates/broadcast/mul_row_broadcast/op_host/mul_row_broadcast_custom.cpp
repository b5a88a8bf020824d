// MulRowBroadcastCustom, host side: y = x * scale, scale[N] broadcast over the rows of x[..., N], for float32,
// float16 and int32. The tiling gives each vector core a run of whole rows, so that the kernel can keep scale
// resident in UB and multiply a tile of rows by it with one repeat per row.
#include "mul_row_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint32_t BUFFER_NUM = 2;          // double buffering of x and y
constexpr uint32_t MAX_TILE_BYTES = 16384;  // per buffer: large DMA bursts, still several tiles per core in flight
constexpr uint32_t MAX_REPEAT = 255;        // a vector instruction repeats at most 255 times (one per row)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& scaleShape = context->GetInputShape(1)->GetOriginShape();
    size_t dims = xShape.GetDimNum();
    if (dims == 0 || coreNum == 0 || scaleShape.GetShapeSize() != xShape.GetDim(dims - 1)) {
        return ge::GRAPH_FAILED;                      // scale must have the length of x's last dim
    }
    uint64_t cols = xShape.GetDim(dims - 1);
    uint64_t rows = cols == 0 ? 0 : xShape.GetShapeSize() / cols;
    if (rows == 0 || rows > UINT32_MAX || cols > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    uint32_t typeSize = (context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16) ? 2 : 4;
    uint64_t rowBytes = (cols * typeSize + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;   // a UB row, padded
    if (rowBytes * (1 + 2 * BUFFER_NUM) > ubSize) {
        return ge::GRAPH_FAILED;                      // one row does not fit UB: rows this long need a column split
    }

    // Rows over the cores: the first (rows % usedCores) cores take one row more.
    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint64_t tailRows = rows / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint64_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // UB holds scale once and BUFFER_NUM tiles of x and of y.
    uint64_t tileRows = (ubSize - rowBytes) / (2 * BUFFER_NUM * rowBytes);
    uint64_t capRows = MAX_TILE_BYTES / rowBytes;
    if (tileRows > capRows) tileRows = capRows;
    if (tileRows > MAX_REPEAT) tileRows = MAX_REPEAT;
    if (tileRows > formerRows) tileRows = formerRows;
    if (tileRows == 0) tileRows = 1;

    MulRowBroadcastCustomTilingData tiling;
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_colsAligned(static_cast<uint32_t>(rowBytes / typeSize));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(static_cast<uint32_t>(tailRows + 1));
    tiling.set_tailRows(static_cast<uint32_t>(tailRows));
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);     // scale broadcasts into x's shape
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MulRowBroadcastCustom : public OpDef {
public:
    explicit MulRowBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MulRowBroadcastCustom);
}  // namespace ops
