// BiasGeluCustom, host side: y = gelu(x + bias) = 0.5 * v * (1 + erf(v / sqrt(2))), v = x + bias, bias [N] broadcast
// over the rows of x [..., N]; float32, float16 and bfloat16 (the kernel computes in float32). Each vector core
// gets a run of whole rows; the tile size is chosen so that two float32 work tiles and the Erf scratch fit UB
// next to the double-buffered x and y tiles.
#include "bias_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint64_t BUFFER_NUM = 2;          // double buffering of x and y
constexpr uint64_t MAX_TILE_ELEMS = 2048;   // per tile: keeps two or more tiles per core in flight on these sizes
constexpr uint64_t MAX_REPEAT = 255;        // a vector instruction repeats at most 255 times (one per row)
constexpr uint64_t WORK_TILES = 2;          // float32 work tiles: v (then erf) and v / sqrt(2)
// Erf's scratch, per tile element. CANN's GetErfMaxMinTmpSize (not in kgen's host API) gives the range; its minimum
// for float32 is 3 * 256 bytes, and more lets the expansion run over more elements per instruction.
constexpr uint64_t ERF_TMP_PER_ELEM = 3 * sizeof(float);
constexpr uint64_t ERF_TMP_MIN = 3 * 256;

static uint64_t RoundUp(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& biasShape = context->GetInputShape(1)->GetOriginShape();
    size_t dims = xShape.GetDimNum();
    if (dims == 0 || coreNum == 0 || biasShape.GetShapeSize() != xShape.GetDim(dims - 1)) {
        return ge::GRAPH_FAILED;                      // bias must have the length of x's last dim
    }
    uint64_t cols = xShape.GetDim(dims - 1);
    uint64_t rows = cols == 0 ? 0 : xShape.GetShapeSize() / cols;
    if (rows == 0 || rows > UINT32_MAX || cols > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    uint64_t typeSize = (context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT) ? 4 : 2;
    uint64_t pitch = RoundUp(cols, BLOCK_BYTES / typeSize);

    // Rows over the cores: the first (rows % usedCores) cores take one row more.
    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint64_t tailRows = rows / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint64_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // UB: bias (as loaded and as float32) once; per tile element BUFFER_NUM x and y, the float32 work tiles, Erf's
    // scratch.
    uint64_t fixedBytes = pitch * typeSize + pitch * sizeof(float);
    uint64_t perElem = 2 * BUFFER_NUM * typeSize + WORK_TILES * sizeof(float) + ERF_TMP_PER_ELEM;
    if (fixedBytes + pitch * perElem > ubSize) {
        return ge::GRAPH_FAILED;                      // one row does not fit UB: rows this long need a column split
    }
    uint64_t tileRows = (ubSize - fixedBytes) / (pitch * perElem);
    uint64_t capRows = MAX_TILE_ELEMS / pitch;
    if (tileRows > capRows) tileRows = capRows;
    if (tileRows > MAX_REPEAT) tileRows = MAX_REPEAT;
    if (tileRows > formerRows) tileRows = formerRows;
    if (tileRows == 0) tileRows = 1;
    uint64_t erfTmpBytes = tileRows * pitch * ERF_TMP_PER_ELEM;
    if (erfTmpBytes < ERF_TMP_MIN) erfTmpBytes = ERF_TMP_MIN;

    BiasGeluCustomTilingData tiling;
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_pitch(static_cast<uint32_t>(pitch));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(static_cast<uint32_t>(tailRows + 1));
    tiling.set_tailRows(static_cast<uint32_t>(tailRows));
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));
    tiling.set_erfTmpBytes(static_cast<uint32_t>(erfTmpBytes));

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
    *context->GetOutputShape(0) = *context->GetInputShape(0);     // bias broadcasts into x's shape
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class BiasGeluCustom : public OpDef {
public:
    explicit BiasGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
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

OP_ADD(BiasGeluCustom);
}  // namespace ops
