// SgdMomentumCustom, host side: one SGD step with momentum and weight decay,
//   new_buf = momentum * momentum_buf + (grad + weight_decay * param),  new_param = param - lr * new_buf,
// for float, float16 and bfloat16 tensors of any (equal) shape. The work is elementwise: the host splits the
// elements over all vector cores in 32-byte blocks and sizes the UB tiles so that each core runs several
// double-buffered tiles (16-bit tiles are computed in float, in four float work buffers).
#include "sgd_momentum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint32_t BUFFER_NUM = 2;          // double buffering: copy tile i+1 in while tile i is computed
constexpr uint32_t QUEUE_NUM = 5;           // param, grad, momentum_buf in; new_param, new_buf out
constexpr uint32_t FLOAT_WORK_NUM = 4;      // float copies of the three inputs and new_param (16-bit types)
constexpr uint32_t MAX_TILE_ELEMS = 4096;   // 16 KiB of float per buffer
constexpr uint32_t MIN_TILE_ELEMS = 1024;   // below this DMA overheads dominate
constexpr uint32_t TILES_PER_CORE = 4;      // enough tiles for the pipeline to overlap copy-in, compute, copy-out

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    for (size_t i = 1; i < 3; i++) {
        if (static_cast<uint64_t>(context->GetInputShape(i)->GetOriginShape().GetShapeSize()) != totalLength) {
            return ge::GRAPH_FAILED;                          // param, grad and momentum_buf have one shape
        }
    }
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dtype == ge::DT_FLOAT) ? 4 : 2;
    uint32_t alignNum = BLOCK_BYTES / typeSize;
    auto attrs = context->GetAttrs();
    const float* lr = attrs->GetAttrPointer<float>(0);
    const float* momentum = attrs->GetAttrPointer<float>(1);
    const float* weightDecay = attrs->GetAttrPointer<float>(2);
    if (totalLength == 0 || totalLength > UINT32_MAX || coreNum == 0 || lr == nullptr || momentum == nullptr ||
        weightDecay == nullptr) {
        return ge::GRAPH_FAILED;
    }

    uint64_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? static_cast<uint32_t>(totalBlocks) : coreNum;
    uint64_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(totalBlocks % usedCores);
    uint64_t coreElems = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * alignNum;

    // Tile: fits UB (BUFFER_NUM buffers per queue, plus the float work buffers for 16-bit types), at most
    // MAX_TILE_ELEMS, and small enough to give each core TILES_PER_CORE tiles unless that drops below
    // MIN_TILE_ELEMS.
    uint64_t bytesPerElem = BUFFER_NUM * QUEUE_NUM * typeSize + (typeSize == 4 ? 0 : FLOAT_WORK_NUM * 4);
    uint64_t tileElems = ubSize / bytesPerElem;
    if (tileElems > MAX_TILE_ELEMS) tileElems = MAX_TILE_ELEMS;
    uint64_t pipelined = (coreElems + TILES_PER_CORE - 1) / TILES_PER_CORE;
    if (pipelined < MIN_TILE_ELEMS) pipelined = MIN_TILE_ELEMS;
    if (tileElems > pipelined) tileElems = pipelined;
    if (tileElems > coreElems) tileElems = coreElems;
    tileElems = (tileElems + alignNum - 1) / alignNum * alignNum;

    SgdMomentumCustomTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(static_cast<uint32_t>((blocksPerCore + 1) * alignNum));
    tiling.set_tailLength(static_cast<uint32_t>(blocksPerCore * alignNum));
    tiling.set_tileLength(static_cast<uint32_t>(tileElems));
    tiling.set_lr(*lr);
    tiling.set_momentum(*momentum);
    tiling.set_weightDecay(*weightDecay);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaceSizes = context->GetWorkspaceSizes(1);
    workspaceSizes[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// new_param and new_buf have param's shape and dtype.
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* paramShape = context->GetInputShape(0);
    *context->GetOutputShape(0) = *paramShape;
    *context->GetOutputShape(1) = *paramShape;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    const ge::DataType dtype = context->GetInputDataType(0);
    context->SetOutputDataType(0, dtype);
    context->SetOutputDataType(1, dtype);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SgdMomentumCustom : public OpDef {
public:
    explicit SgdMomentumCustom(const char* name) : OpDef(name)
    {
        const char* names[] = {"param", "grad", "momentum_buf"};
        for (const char* n : names) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("new_param")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("new_buf")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(0.01);
        this->Attr("momentum").AttrType(OPTIONAL).Float(0.9);
        this->Attr("weight_decay").AttrType(OPTIONAL).Float(0.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SgdMomentumCustom);
}  // namespace ops
