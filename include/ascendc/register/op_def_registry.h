// CANN register/op_def_registry.h: OP_ADD(OpType) registers the OpDef subclass OpType (constructed with its own
// name) when the op's host library is loaded.
#pragma once
#include "register/op_def.h"
#include "register/op_def_factory.h"

#define OP_ADD(opType, ...)                                                                                 \
  static int g_##opType##_added =                                                                           \
      ::ops::OpDefFactory::OpDefRegister(#opType, [](const char* name) -> ::ops::OpDef { return opType(name); })
