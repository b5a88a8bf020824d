// ClampBroadcastCustom, host side: y = min(max(x, lo), hi) with lo[N], hi[N] broadcast over the rows of x[..., N]
// (float32, float16, bfloat16). Each vector core gets a run of whole rows so that lo and hi stay in UB and a tile
// of rows is clamped with one repeat per row; bfloat16 also needs a float32 work tile, which the tile size counts.
#include "clamp_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint64_t BUFFER_NUM = 2;          // double buffering of x and y
constexpr uint64_t MAX_TILE_BYTES = 16384;  // per x buffer: large DMA bursts, still several tiles per core in flight
constexpr uint64_t MAX_REPEAT = 255;        // a vector instruction repeats at most 255 times (one per row)

static uint64_t RoundUp(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    size_t dims = xShape.GetDimNum();
    if (dims == 0 || coreNum == 0 ||
        context->GetInputShape(1)->GetOriginShape().GetShapeSize() != xShape.GetDim(dims - 1) ||
        context->GetInputShape(2)->GetOriginShape().GetShapeSize() != xShape.GetDim(dims - 1)) {
        return ge::GRAPH_FAILED;                      // lo and hi must have the length of x's last dim
    }
    uint64_t cols = xShape.GetDim(dims - 1);
    uint64_t rows = cols == 0 ? 0 : xShape.GetShapeSize() / cols;
    if (rows == 0 || rows > UINT32_MAX || cols > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint64_t typeSize = (dtype == ge::DT_FLOAT) ? 4 : 2;
    bool widen = dtype == ge::DT_BF16;                // Max/Min have no bfloat16 form on the 910B
    uint64_t pitch = RoundUp(cols, BLOCK_BYTES / typeSize);

    // Rows over the cores: the first (rows % usedCores) cores take one row more.
    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint64_t tailRows = rows / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint64_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // UB: lo and hi as loaded (and as float32 for bfloat16); per tile row BUFFER_NUM rows of x and y, and a float32
    // work row for bfloat16.
    uint64_t rowBytes = pitch * typeSize;
    uint64_t fixedBytes = 2 * rowBytes + (widen ? 2 * pitch * sizeof(float) : 0);
    uint64_t perRow = 2 * BUFFER_NUM * rowBytes + (widen ? pitch * sizeof(float) : 0);
    if (fixedBytes + perRow > ubSize) {
        return ge::GRAPH_FAILED;                      // one row does not fit UB: rows this long need a column split
    }
    uint64_t tileRows = (ubSize - fixedBytes) / perRow;
    uint64_t capRows = MAX_TILE_BYTES / rowBytes;
    if (tileRows > capRows) tileRows = capRows;
    if (tileRows > MAX_REPEAT) tileRows = MAX_REPEAT;
    if (tileRows > formerRows) tileRows = formerRows;
    if (tileRows == 0) tileRows = 1;

    ClampBroadcastCustomTilingData tiling;
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_pitch(static_cast<uint32_t>(pitch));
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);     // lo and hi broadcast into x's shape
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ClampBroadcastCustom : public OpDef {
public:
    explicit ClampBroadcastCustom(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"x", "lo", "hi"};
        for (const char* input : inputs) {
            this->Input(input)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
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

OP_ADD(ClampBroadcastCustom);
}  // namespace ops
