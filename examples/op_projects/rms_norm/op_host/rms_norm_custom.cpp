// RmsNormCustom, host side: y = x / sqrt(mean(x^2) + epsilon) * gamma over the last dim, float and float16, through
// the RmsNorm high-level API. Rows are split over the vector cores, each core runs [tileRows, N] UB tiles; the
// temporary buffer is sized with GetRmsNormMaxMinTmpSize and each tile shape gets its GetRmsNormTilingInfo tiling.
#include "rms_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE_BYTES = 16384;   // per input buffer

// RmsNorm tiling of a tile of `tileRows` rows: the API sees [1, tileRows, colsAligned] (H padded to 32 bytes),
// originally [1, tileRows, cols].
static bool RowsTiling(uint32_t tileRows, uint32_t cols, uint32_t colsAligned, uint32_t tmpBytes, uint32_t typeSize,
                       RmsNormTiling& tiling)
{
    ge::Shape srcShape({1, static_cast<int64_t>(tileRows), static_cast<int64_t>(colsAligned)});
    ge::Shape originShape({1, static_cast<int64_t>(tileRows), static_cast<int64_t>(cols)});
    return AscendC::GetRmsNormTilingInfo(srcShape, originShape, tmpBytes, typeSize, tiling);
}

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
    if (context->GetInputShape(1)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(cols)) {
        return ge::GRAPH_FAILED;                     // gamma has the length of the last dim
    }
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(0);
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t alignNum = BLOCK_BYTES / typeSize;
    uint64_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    uint64_t rowBytes = colsAligned * typeSize;
    if (rows == 0 || rows > UINT32_MAX || colsAligned > UINT16_MAX || epsilon == nullptr) {
        return ge::GRAPH_FAILED;
    }

    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint32_t formerRows = tailRows + 1;

    // Rows per tile: 16 KiB per x / y buffer, at most a core's rows; then the temporary buffer: the API's maximum
    // for the tile (one pass per tile) when UB has room for it, else what is left, which must reach the minimum.
    uint64_t tileRows = MAX_TILE_BYTES / rowBytes;
    if (tileRows > formerRows) tileRows = formerRows;
    if (tileRows == 0) tileRows = 1;
    uint32_t maxTmp = 0;
    uint32_t minTmp = 0;
    ge::Shape tileShape({1, static_cast<int64_t>(tileRows), static_cast<int64_t>(colsAligned)});
    if (!AscendC::GetRmsNormMaxMinTmpSize(tileShape, typeSize, maxTmp, minTmp)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t used = rowBytes + 2 * BUFFER_NUM * tileRows * rowBytes;   // gamma, x and y buffers
    if (used + minTmp > ubSize) {
        return ge::GRAPH_FAILED;                     // a row of this length does not fit in UB
    }
    uint64_t tmpBytes = ubSize - used < maxTmp ? (ubSize - used) / BLOCK_BYTES * BLOCK_BYTES : maxTmp;

    RmsNormCustomTilingData tiling;
    uint32_t formerLast = formerRows - (formerRows - 1) / tileRows * tileRows;
    uint32_t tailLast = tailRows - (tailRows - 1) / tileRows * tileRows;
    if (!RowsTiling(tileRows, cols, colsAligned, tmpBytes, typeSize, tiling.fullTiling) ||
        !RowsTiling(formerLast, cols, colsAligned, tmpBytes, typeSize, tiling.formerLastTiling) ||
        !RowsTiling(tailLast, cols, colsAligned, tmpBytes, typeSize, tiling.tailLastTiling)) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));
    tiling.set_tmpBytes(static_cast<uint32_t>(tmpBytes));
    tiling.set_epsilon(*epsilon);

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
class RmsNormCustom : public OpDef {
public:
    explicit RmsNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(RmsNormCustom);
}  // namespace ops
