// CANN register/op_def_factory.h: where OP_ADD registers an operator definition (kgen: libkgen_host's registry,
// which the op runner reads after loading the op's host library).
#pragma once
#include "register/op_def.h"

namespace ops {
using OpDefCreator = OpDef (*)(const char*);
class OpDefFactory {
 public:
  static int OpDefRegister(const char* name, OpDefCreator func);

 private:
  OpDefFactory() = delete;
};
}  // namespace ops
