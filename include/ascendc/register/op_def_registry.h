// CANN register/op_def_registry.h: OP_ADD(OpType) registers the OpDef subclass OpType (constructed with its own
// name) when the op's host library is loaded.
#pragma once
#include <iostream>   // CANN's host headers make std::cout reachable; real op projects rely on it

#include "register/op_def.h"
#include "register/op_def_factory.h"
#include "register/op_impl_registry.h"

#define OP_ADD(opType, ...)                                                                                 \
  static int g_##opType##_added =                                                                           \
      ::ops::OpDefFactory::OpDefRegister(#opType, [](const char* name) -> ::ops::OpDef { return opType(name); })
