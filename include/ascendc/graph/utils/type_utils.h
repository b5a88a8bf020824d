// CANN graph/utils/type_utils.h: data type and format helpers of GE's host side (implemented in libkgen_host).
#pragma once
#include <cstdint>
#include <string>

#include "graph/types.h"

namespace ge {
class TypeUtils {
 public:
  // Element size in bytes; false (length untouched) for a type without one.
  static bool GetDataTypeLength(DataType data_type, uint32_t& length);
  static std::string DataTypeToSerialString(DataType data_type);   // "DT_FLOAT"
  static std::string FormatToSerialString(Format format);          // "FORMAT_ND"
};
}  // namespace ge
