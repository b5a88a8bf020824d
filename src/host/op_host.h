// What the op runner (src/op) needs from the host API library (libkgen_host.so, src/host): the operators that
// an op_host library registered with OP_ADD when it was loaded, and calls of their InferShape, InferDataType and
// TilingFunc on concrete tensors, through CANN's own gert contexts. Plain data both ways; dtypes and formats are
// the integer values of ge::DataType and ge::Format (include/ascendc/graph/types.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kgen::host {
enum class ParamKind { Required, Optional, Dynamic };
// One attribute value; `type` is one of: int, float, bool, str, list_int, list_float, list_bool, list_list_int.
struct AttrValue {
  std::string type;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<bool> bools;
  std::vector<std::vector<int64_t>> int_lists;
};
struct ParamInfo {                 // one this->Input(...) / this->Output(...) of the OpDef, in declaration order
  std::string name;
  ParamKind kind = ParamKind::Required;
  std::vector<int> dtypes;         // DataType({...}); column j of every param together is one supported combination
  std::vector<int> formats;        // Format({...}), same columns
  std::vector<int> unknown_shape_formats;
  bool value_depend = false;       // ValueDepend(...): the host sees its data (else GetAddr() is null, as on the chip)
  bool scalar = false;             // Scalar(): the aclnn call passes an aclScalar, which arrives as a 1-element tensor
  bool scalar_list = false;        // ScalarList(): an aclScalarList, which arrives as a 1-d tensor of its values
};
struct AttrInfo {                  // one this->Attr(...), in declaration order
  std::string name;
  bool required = false;           // AttrType(REQUIRED)
  AttrValue value;                 // its type, and its default when !required
};
struct OpInfo {
  std::string type;                // the OpDef's name, e.g. "AddCustom"
  std::vector<ParamInfo> inputs, outputs;
  std::vector<AttrInfo> attrs;
  std::vector<std::string> configs;   // AICore().AddConfig("ascend910b"), ...
  bool has_tiling = false, has_infer_shape = false, has_infer_dtype = false;
};
// The operators registered (OP_ADD) by every library loaded so far, in registration order.
std::vector<OpInfo> registered_ops();
// The SoC the operators registered from now on run on (kgen's name, "Ascend910B2"): an AddConfig for its family
// ("ascend910b", "ascend310p") redefines the params it names, as CANN builds the op for that SoC. Unset: every
// config's params fill only those the OpDef leaves without dtypes.
void set_target_soc(const std::string& soc);

struct TensorArg {
  bool present = true;             // false: an optional input that is not given
  std::vector<int64_t> shape;
  int dtype = 0;
  int format = 2;                  // ge::FORMAT_ND
  const void* data = nullptr;      // host copy of the values (GetInputTensor()->GetData<T>()), may be null
  // A DYNAMIC param: its tensors, each one instance of the IR param (GetDynamicInputShape(ir, k)); the fields
  // above are then unused. A list may be empty.
  bool is_list = false;
  std::vector<TensorArg> items;
};
// CANN numbers a call's tensors two ways: by IR param (the OpDef's Input/Output order; GetDynamicInput*(ir, k),
// GetOptionalInput*(ir)) and by instance (every tensor present, a DYNAMIC param's k tensors in turn, absent optional
// inputs skipped; GetInputShape(i), GetInputDesc(i), GetOutputShape(i)). An OpCall holds IR params.
struct OpCall {
  std::string op;                  // OpInfo::type
  std::string soc;                 // "Ascend910B2", ...: what PlatformAscendC(context->GetPlatformInfo()) answers for
  std::vector<TensorArg> inputs;   // one per OpDef input
  std::vector<TensorArg> outputs;  // one per OpDef output (shapes as known: given, or from infer())
  std::vector<AttrValue> attrs;    // one per OpDef attr, defaults already filled in
};
struct InferResult {
  bool ok = false;
  std::string message;             // why not ok: the function returned failure, or none is set, ...
  std::vector<std::vector<int64_t>> shapes;   // one per output instance
  std::vector<int> dtypes;                    // one per output instance (InferDataType's, or -1 when not set)
};
// Runs the op's InferShape (and InferDataType when set) on the call's inputs and attrs.
InferResult infer(const OpCall& call);

struct TilingResult {
  bool ok = false;                 // TilingFunc returned ge::GRAPH_SUCCESS
  std::string message;             // why not ok
  int status = 0;                  // the ge::graphStatus it returned
  uint32_t block_dim = 0;          // SetBlockDim (0 when never called)
  bool block_dim_set = false;
  uint64_t tiling_key = 0;         // SetTilingKey
  bool tiling_key_set = false;
  uint32_t schedule_mode = 0;      // SetScheduleMode
  std::vector<uint8_t> tiling;     // the raw tiling buffer, `capacity` bytes
  size_t capacity = 0;
  size_t data_size = 0;            // GetRawTilingData()->SetDataSize(...)
  std::vector<size_t> workspace_sizes;   // GetWorkspaceSizes(n), n as the function asked
  int save_failures = 0;           // SaveToBuffer calls that did not fit the buffer
};
// Runs the op's TilingFunc with a raw tiling buffer of `capacity` bytes.
TilingResult run_tiling(const OpCall& call, size_t capacity);

// ge::DataType helpers: "float" / "half" / "int32_t" / "bfloat16_t" ... (the C++ type DTYPE_<NAME> names),
// "float32" / "float16" / "int32" ... (numpy-like name), element size in bytes (0 when not a plain type).
const char* dtype_cpp_name(int dtype);
const char* dtype_name(int dtype);
size_t dtype_size(int dtype);
// "DT_FLOAT", "FORMAT_ND", ... as written in OpDefs, for messages.
const char* dtype_enum_name(int dtype);
const char* format_enum_name(int format);
}  // namespace kgen::host
