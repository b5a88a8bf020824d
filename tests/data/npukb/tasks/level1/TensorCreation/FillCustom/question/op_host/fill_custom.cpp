// The skeleton given with the task: the OpDef's input, output and dtypes; the tiling is the model's to write.
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class FillCustom : public OpDef {
public:
    explicit FillCustom(const char* name) : OpDef(name)
    {
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).Scalar();
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FillCustom);
}  // namespace ops
