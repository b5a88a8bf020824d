// LayerNormCustom, host side: y = (x - mean) / sqrt(var + epsilon) * gamma + beta over the last dim (biased
// variance, as torch.nn.functional.layer_norm), float, N <= 2040.
#include "layer_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE_BYTES = 16384;   // per input buffer
constexpr uint32_t MAX_REPEAT = 255;
constexpr uint32_t MAX_COLS = 2040;          // a row is addressed by a repeat stride of at most 255 blocks

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
    if (context->GetInputShape(1)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(cols) ||
        context->GetInputShape(2)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(cols)) {
        return ge::GRAPH_FAILED;                     // gamma and beta have the length of the last dim
    }
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(0);
    uint64_t colsAligned = (cols + 7) / 8 * 8;
    if (rows == 0 || rows > UINT32_MAX || colsAligned > MAX_COLS || epsilon == nullptr) {
        return ge::GRAPH_FAILED;
    }

    // UB: gamma and beta once; per tile row BUFFER_NUM rows of x and of y, a squares row, the 64-float partial
    // row of the reductions, mean/variance and a 32-byte broadcast block.
    uint64_t fixedBytes = 2 * colsAligned * 4 + 4 * BLOCK_BYTES;
    uint64_t rowBytes = (2 * BUFFER_NUM + 1) * colsAligned * 4 + 256 + 3 * 32;
    uint64_t tileRows = (ubSize - fixedBytes) / rowBytes;
    uint64_t capRows = MAX_TILE_BYTES / (colsAligned * 4);
    if (tileRows > capRows) tileRows = capRows;
    if (tileRows > MAX_REPEAT) tileRows = MAX_REPEAT;
    if (tileRows == 0) tileRows = 1;

    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    if (tileRows > tailRows + 1) tileRows = tailRows + 1;

    LayerNormCustomTilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(tailRows + 1);
    tiling.set_tailRows(tailRows);
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));
    tiling.set_invCols(1.0f / static_cast<float>(cols));
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
class LayerNormCustom : public OpDef {
public:
    explicit LayerNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LayerNormCustom);
}  // namespace ops
