// AddBiasBroadcastCustom, host side: y = x + bias, bias [C, 1, ..., 1] broadcast over x [..., C, H, W, ...]
// (float32, float16, bfloat16). Planes (the trailing dims bias broadcasts over) are the unit of work: each core
// gets a run of planes, a UB row holds one plane (or a chunk of a long one), and a tile stacks up to 255 rows so
// that the kernel adds the per-plane bias with one repeat per row.
#include "add_bias_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint64_t BUFFER_NUM = 2;          // double buffering of x and y
constexpr uint64_t MAX_TILE_BYTES = 16384;  // per buffer: large DMA bursts, still several tiles per core in flight
constexpr uint64_t MAX_REPEAT = 255;        // repeat count and repeat stride (in blocks) of one vector instruction
constexpr uint64_t BRCB_ELEMS = 8;          // Brcb turns 8 elements into 8 blocks per repeat

static uint64_t RoundUp(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    // bias [C, 1, ..., 1] lines up with x's last k dims: C is x[-k], a plane is the product of x's last k - 1 dims.
    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& biasShape = context->GetInputShape(1)->GetOriginShape();
    size_t xDims = xShape.GetDimNum();
    size_t k = biasShape.GetDimNum();
    if (k == 0 || k > xDims || coreNum == 0 || biasShape.GetDim(0) != xShape.GetDim(xDims - k)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t planeLen = 1;
    for (size_t i = 1; i < k; i++) {
        if (biasShape.GetDim(i) != 1) {
            return ge::GRAPH_FAILED;                  // only a per-channel bias: [C, 1, ..., 1]
        }
        planeLen *= xShape.GetDim(xDims - k + i);
    }
    uint64_t channels = biasShape.GetDim(0);
    uint64_t total = xShape.GetShapeSize();
    if (channels == 0 || planeLen == 0 || total == 0 || total > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    uint64_t planes = total / planeLen;

    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint64_t typeSize = (dtype == ge::DT_FLOAT) ? 4 : 2;
    bool widen = dtype == ge::DT_BF16;                 // bfloat16 is added in float32 on the 910B
    uint64_t computeSize = widen ? 4 : typeSize;
    uint64_t blockElems = BLOCK_BYTES / typeSize;

    // A UB row: the whole plane when it fits one repeat stride and one tile, else chunks of the longest row that does.
    uint64_t maxRowElems = MAX_REPEAT * BLOCK_BYTES / computeSize;
    if (maxRowElems > MAX_TILE_BYTES / typeSize) maxRowElems = MAX_TILE_BYTES / typeSize;
    maxRowElems = maxRowElems / blockElems * blockElems;
    uint64_t chunkLen = planeLen <= maxRowElems ? planeLen : maxRowElems;
    uint64_t pitch = RoundUp(chunkLen, blockElems);

    // Planes over the cores: the first (planes % usedCores) cores take one plane more.
    uint32_t usedCores = planes < coreNum ? static_cast<uint32_t>(planes) : coreNum;
    uint64_t tailPlanes = planes / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(planes % usedCores);
    uint64_t formerPlanes = tailPlanes + (formerNum > 0 ? 1 : 0);

    uint64_t tilePlanes = chunkLen < planeLen ? 1 : MAX_TILE_BYTES / (pitch * typeSize);
    if (tilePlanes > MAX_REPEAT) tilePlanes = MAX_REPEAT;
    if (tilePlanes > formerPlanes) tilePlanes = formerPlanes;
    if (tilePlanes == 0) tilePlanes = 1;

    // UB: bias (plus its float32 copy), one 32-byte block of bias per channel (Brcb), BUFFER_NUM tiles of x and y,
    // and a float32 tile for bfloat16.
    uint64_t brcbElems = RoundUp(channels, BRCB_ELEMS);
    uint64_t ubUsed = RoundUp(channels, blockElems) * typeSize + (widen ? brcbElems * 4 : 0) +
                      brcbElems * BLOCK_BYTES + 2 * BUFFER_NUM * tilePlanes * pitch * typeSize +
                      (widen ? tilePlanes * pitch * 4 : 0);
    if (brcbElems / BRCB_ELEMS > MAX_REPEAT || ubUsed > ubSize) {
        return ge::GRAPH_FAILED;                      // too many channels to keep one bias block each in UB
    }

    AddBiasBroadcastCustomTilingData tiling;
    tiling.set_channels(static_cast<uint32_t>(channels));
    tiling.set_planeLen(static_cast<uint32_t>(planeLen));
    tiling.set_chunkLen(static_cast<uint32_t>(chunkLen));
    tiling.set_pitch(static_cast<uint32_t>(pitch));
    tiling.set_formerNum(formerNum);
    tiling.set_formerPlanes(static_cast<uint32_t>(tailPlanes + 1));
    tiling.set_tailPlanes(static_cast<uint32_t>(tailPlanes));
    tiling.set_tilePlanes(static_cast<uint32_t>(tilePlanes));

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
class AddBiasBroadcastCustom : public OpDef {
public:
    explicit AddBiasBroadcastCustom(const char* name) : OpDef(name)
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

OP_ADD(AddBiasBroadcastCustom);
}  // namespace ops
