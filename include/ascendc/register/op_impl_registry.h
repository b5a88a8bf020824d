// CANN register/op_impl_registry.h: IMPL_OP(type) (and its spellings IMPL_OP_OPTILING, IMPL_OP_INFERSHAPE) starts
// a registration of the op's InferShape / InferDataType / Tiling / TilingParse functions by op type:
//   IMPL_OP_OPTILING(TopKV3).Tiling(Tiling4TopKV3).TilingParse<TopKV3CompileInfo>(TilingPrepare4TopKV3);
// The builder is gert::OpImplRegisterV2 (register/op_def.h); libkgen_host keeps what it registers (src/host/op_impl.cpp).
#pragma once
#include "exe_graph/runtime/tiling_parse_context.h"
#include "register/op_def.h"

#define KGEN_IMPL_OP_CAT2(a, b) a##b
#define KGEN_IMPL_OP_CAT(a, b) KGEN_IMPL_OP_CAT2(a, b)
#define IMPL_OP(op_type)                                                                    \
  [[maybe_unused]] static ::gert::OpImplRegisterV2 KGEN_IMPL_OP_CAT(g_kgen_impl_##op_type##_, __COUNTER__) = \
      ::gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#define IMPL_OP_DEFAULT() IMPL_OP(DefaultImpl)
