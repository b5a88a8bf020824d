// LogSoftmaxCustom, host side: y = log_softmax(x, dim=-1) for float and float16 through the LogSoftMax high-level
// API (which gives log10 of the softmax; the kernel scales by ln 10). Rows are split over the vector cores, each
// core runs [tileRows, N] UB tiles; the temporary buffer is sized within GetLogSoftMaxMin/MaxTmpSize and the API's
// tiling comes from LogSoftMaxTilingFunc.
#include "log_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE_BYTES = 16384;   // per input buffer

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
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t alignNum = BLOCK_BYTES / typeSize;
    uint64_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    uint64_t rowBytes = colsAligned * typeSize;
    if (rows == 0 || rows > UINT32_MAX || colsAligned > UINT16_MAX) {
        return ge::GRAPH_FAILED;
    }

    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint32_t formerRows = tailRows + 1;

    // Rows per tile: 16 KiB per x / y buffer, at most a core's rows. UB then holds x and y (double-buffered), the
    // 32-byte sum and max of every row, and the temporary buffer: the API's maximum for the tile (all rows in one
    // pass) when it fits, else what is left, which must reach the minimum (one row per pass).
    uint64_t tileRows = MAX_TILE_BYTES / rowBytes;
    if (tileRows > formerRows) tileRows = formerRows;
    if (tileRows == 0) tileRows = 1;
    ge::Shape tileShape({static_cast<int64_t>(tileRows), static_cast<int64_t>(colsAligned)});
    uint32_t maxTmp = AscendC::GetLogSoftMaxMaxTmpSize(tileShape, typeSize, false);
    uint32_t minTmp = AscendC::GetLogSoftMaxMinTmpSize(tileShape, typeSize, false);
    uint64_t used = 2 * BUFFER_NUM * tileRows * rowBytes + 2 * tileRows * BLOCK_BYTES;
    if (used + minTmp > ubSize) {
        return ge::GRAPH_FAILED;                     // a row of this length does not fit in UB
    }
    uint64_t tmpBytes = ubSize - used < maxTmp ? (ubSize - used) / BLOCK_BYTES * BLOCK_BYTES : maxTmp;

    LogSoftmaxCustomTilingData tiling;
    AscendC::LogSoftMaxTilingFunc(tileShape, typeSize, static_cast<uint32_t>(tmpBytes), tiling.logSoftmaxTiling);
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));
    tiling.set_tmpBytes(static_cast<uint32_t>(tmpBytes));

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
class LogSoftmaxCustom : public OpDef {
public:
    explicit LogSoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LogSoftmaxCustom);
}  // namespace ops
