// MatmulCustom, host side: c[M, N] = a[M, K] @ b[K, N] (+ bias[N]) through the Matmul API; a and b float or
// float16, bias and c float. The work is split over the cores by MultiCoreMatmulTiling.
#include "matmul_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetOriginShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;                     // a: [M, K], b: [K, N]
    }
    int32_t m = static_cast<int32_t>(aShape.GetDim(0));
    int32_t k = static_cast<int32_t>(aShape.GetDim(1));
    int32_t n = static_cast<int32_t>(bShape.GetDim(1));
    const gert::StorageShape* biasShape = context->GetOptionalInputShape(2);
    bool hasBias = biasShape != nullptr;
    if (hasBias && biasShape->GetOriginShape().GetShapeSize() != n) {
        return ge::GRAPH_FAILED;                     // bias: [N]
    }
    matmul_tiling::DataType inType = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16
                                         ? matmul_tiling::DataType::DT_FLOAT16
                                         : matmul_tiling::DataType::DT_FLOAT;

    // A Matmul kernel is a MIX kernel: each AI Cube core serves two vector cores, which issue the Matmul calls.
    uint32_t aicNum = platform.GetCoreNumAic();
    uint32_t aivNum = platform.GetCoreNumAiv();
    matmul_tiling::MultiCoreMatmulTiling cubeTiling(platform);
    cubeTiling.SetDim(static_cast<int32_t>(aivNum));
    cubeTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType);
    cubeTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType);
    cubeTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                           matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(m, n, k);
    cubeTiling.SetOrgShape(m, n, k);
    cubeTiling.EnableBias(hasBias);
    cubeTiling.SetBufferSpace(-1, -1, -1);

    MatmulCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t usedCores = static_cast<uint32_t>(tiling.cubeTilingData.get_usedCoreNum());
    context->SetBlockDim(platform.CalcTschBlockDim(usedCores, aicNum, aivNum));

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaceSizes = context->GetWorkspaceSizes(1);
    workspaceSizes[0] = platform.GetLibApiWorkSpaceSize();   // the Matmul API's system workspace
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* aShape = context->GetInputShape(0);
    const gert::Shape* bShape = context->GetInputShape(1);
    if (aShape->GetDimNum() != 2 || bShape->GetDimNum() != 2) {
        return GRAPH_FAILED;
    }
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
class MatmulCustom : public OpDef {
public:
    explicit MatmulCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulCustom);
}  // namespace ops
