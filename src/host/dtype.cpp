// ge::DataType / ge::Format names for the op runner (op_host.h).
#include "graph/utils/type_utils.h"
#include "host/op_host.h"

namespace kgen::host {
namespace {
struct DtRow {
  int dt;
  const char* cpp;
  const char* np;
  size_t size;
};
const DtRow kDtypes[] = {
    {0, "float", "float32", 4},    {1, "half", "float16", 2},      {2, "int8_t", "int8", 1},
    {3, "int32_t", "int32", 4},    {4, "uint8_t", "uint8", 1},     {6, "int16_t", "int16", 2},
    {7, "uint16_t", "uint16", 2},  {8, "uint32_t", "uint32", 4},   {9, "int64_t", "int64", 8},
    {10, "uint64_t", "uint64", 8}, {11, "double", "float64", 8},   {12, "bool", "bool", 1},
    {16, "complex64", "complex64", 8},   // CANN's DTYPE_ name for it (asc-devkit ascendc_impl_build.py DTYPE_MAP)
    {27, "bfloat16_t", "bfloat16", 2},
};
const DtRow* row(int dt) {
  for (const auto& r : kDtypes)
    if (r.dt == dt) return &r;
  return nullptr;
}
const char* const kDtEnum[] = {
    "DT_FLOAT", "DT_FLOAT16", "DT_INT8", "DT_INT32", "DT_UINT8", "DT_UNKNOWN_5", "DT_INT16", "DT_UINT16",
    "DT_UINT32", "DT_INT64", "DT_UINT64", "DT_DOUBLE", "DT_BOOL", "DT_STRING", "DT_DUAL_SUB_INT8",
    "DT_DUAL_SUB_UINT8", "DT_COMPLEX64", "DT_COMPLEX128", "DT_QINT8", "DT_QINT16", "DT_QINT32", "DT_QUINT8",
    "DT_QUINT16", "DT_RESOURCE", "DT_STRING_REF", "DT_DUAL", "DT_VARIANT", "DT_BF16", "DT_UNDEFINED", "DT_INT4",
    "DT_UINT1", "DT_INT2", "DT_UINT2", "DT_COMPLEX32", "DT_HIFLOAT8", "DT_FLOAT8_E5M2", "DT_FLOAT8_E4M3FN",
    "DT_FLOAT8_E8M0", "DT_FLOAT6_E3M2", "DT_FLOAT6_E2M3", "DT_FLOAT4_E2M1", "DT_FLOAT4_E1M2", "DT_HIFLOAT4"};
const char* const kFmtEnum[] = {
    "FORMAT_NCHW", "FORMAT_NHWC", "FORMAT_ND", "FORMAT_NC1HWC0", "FORMAT_FRACTAL_Z", "FORMAT_NC1C0HWPAD",
    "FORMAT_NHWC1C0", "FORMAT_FSR_NCHW", "FORMAT_FRACTAL_DECONV", "FORMAT_C1HWNC0",
    "FORMAT_FRACTAL_DECONV_TRANSPOSE", "FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS", "FORMAT_NC1HWC0_C04",
    "FORMAT_FRACTAL_Z_C04", "FORMAT_CHWN", "FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS", "FORMAT_HWCN",
    "FORMAT_NC1KHKWHWC0", "FORMAT_BN_WEIGHT", "FORMAT_FILTER_HWCK", "FORMAT_HASHTABLE_LOOKUP_LOOKUPS",
    "FORMAT_HASHTABLE_LOOKUP_KEYS", "FORMAT_HASHTABLE_LOOKUP_VALUE", "FORMAT_HASHTABLE_LOOKUP_OUTPUT",
    "FORMAT_HASHTABLE_LOOKUP_HITS", "FORMAT_C1HWNCoC0", "FORMAT_MD", "FORMAT_NDHWC", "FORMAT_FRACTAL_ZZ",
    "FORMAT_FRACTAL_NZ", "FORMAT_NCDHW", "FORMAT_DHWCN", "FORMAT_NDC1HWC0", "FORMAT_FRACTAL_Z_3D", "FORMAT_CN",
    "FORMAT_NC", "FORMAT_DHWNC", "FORMAT_FRACTAL_Z_3D_TRANSPOSE", "FORMAT_FRACTAL_ZN_LSTM", "FORMAT_FRACTAL_Z_G",
    "FORMAT_RESERVED", "FORMAT_ALL", "FORMAT_NULL", "FORMAT_ND_RNN_BIAS", "FORMAT_FRACTAL_ZN_RNN", "FORMAT_NYUV",
    "FORMAT_NYUV_A", "FORMAT_NCL", "FORMAT_FRACTAL_Z_WINO", "FORMAT_C1HWC0", "FORMAT_FRACTAL_NZ_C0_16",
    "FORMAT_FRACTAL_NZ_C0_32", "FORMAT_FRACTAL_NZ_C0_2", "FORMAT_FRACTAL_NZ_C0_4", "FORMAT_FRACTAL_NZ_C0_8"};
}  // namespace

const char* dtype_cpp_name(int dtype) {
  const DtRow* r = row(dtype);
  return r ? r->cpp : "";
}
const char* dtype_name(int dtype) {
  const DtRow* r = row(dtype);
  return r ? r->np : "";
}
size_t dtype_size(int dtype) {
  const DtRow* r = row(dtype);
  return r ? r->size : 0;
}
const char* dtype_enum_name(int dtype) {
  if (dtype < 0 || dtype >= int(sizeof(kDtEnum) / sizeof(kDtEnum[0]))) return "DT_UNKNOWN";
  return kDtEnum[dtype];
}
const char* format_enum_name(int format) {
  if (format < 0 || format >= int(sizeof(kFmtEnum) / sizeof(kFmtEnum[0]))) return "FORMAT_UNKNOWN";
  return kFmtEnum[format];
}
}  // namespace kgen::host

namespace ge {
int GetSizeByDataType(DataType data_type) {
  size_t n = kgen::host::dtype_size(static_cast<int>(data_type));
  return n ? static_cast<int>(n) : -1;
}
bool TypeUtils::GetDataTypeLength(DataType data_type, uint32_t& length) {
  size_t n = kgen::host::dtype_size(static_cast<int>(data_type));
  if (!n) return false;
  length = static_cast<uint32_t>(n);
  return true;
}
std::string TypeUtils::DataTypeToSerialString(DataType data_type) {
  return kgen::host::dtype_enum_name(static_cast<int>(data_type));
}
std::string TypeUtils::FormatToSerialString(Format format) {
  return kgen::host::format_enum_name(static_cast<int>(format));
}
}  // namespace ge

