// TileMatmul, host side: c[M, N] (float) = a[M, K] @ b[K, N] (float16), one 32-row tile of c per core, K and N
// whole in each core's L1 (K <= 256, N <= 128). The kernel is written the way Catlass writes kernels (op_kernel).
#include "tile_matmul_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t kTileM = 32, kMaxK = 256, kMaxN = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetOriginShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;   // a: [M, K], b: [K, N]
    }
    TileMatmulTilingData tiling;
    tiling.set_m(static_cast<uint32_t>(aShape.GetDim(0)));
    tiling.set_k(static_cast<uint32_t>(aShape.GetDim(1)));
    tiling.set_n(static_cast<uint32_t>(bShape.GetDim(1)));
    if (tiling.get_m() == 0 || tiling.get_k() == 0 || tiling.get_k() > kMaxK || tiling.get_n() == 0 ||
        tiling.get_n() > kMaxN) {
        return ge::GRAPH_FAILED;
    }
    context->SetBlockDim((tiling.get_m() + kTileM - 1) / kTileM);
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
    const gert::Shape* aShape = context->GetInputShape(0);
    const gert::Shape* bShape = context->GetInputShape(1);
    gert::Shape* cShape = context->GetOutputShape(0);
    cShape->SetDimNum(2);
    cShape->SetDim(0, aShape->GetDim(0));
    cShape->SetDim(1, bShape->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TileMatmul : public OpDef {
public:
    explicit TileMatmul(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TileMatmul);
}  // namespace ops
