// CANN exe_graph/runtime/tiling_parse_context.h: the context of an op's TilingParse function (registered with
// IMPL_OP(...).TilingParse<CompileInfo>(func)), which fills the compile info the TilingFunc later reads with
// TilingContext::GetCompileInfo(). kgen runs it before each TilingFunc, on a fresh compile info.
#pragma once
#include "exe_graph/runtime/extended_kernel_context.h"

namespace fe {
class PlatFormInfos;
}  // namespace fe

namespace gert {
class TilingParseContext : public ExtendedKernelContext {
 public:
  template <typename T>
  T* GetCompiledInfo() {
    return static_cast<T*>(GetCompiledInfoRaw());
  }
  void* GetCompiledInfoRaw();
  fe::PlatFormInfos* GetPlatformInfo() const;
  // The op's compile-time json: kgen has no graph compiler, so it is the empty object.
  const char* GetCompiledJson() const;
};
}  // namespace gert
