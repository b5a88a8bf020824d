// `kgen op new NAME --inputs x,y --outputs z [--attrs alpha:float=0.1,...] [--dtype float|half] [-o DIR]`:
// writes a skeleton op project in msopgen's layout, ready for `kgen op run`:
//   DIR/<op>_custom.json                  msopgen's operator description
//   DIR/op_host/<op>_custom_tiling.h      BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS
//   DIR/op_host/<op>_custom.cpp           TilingFunc, InferShape, InferDataType, OpDef + OP_ADD
//   DIR/op_kernel/<op>_custom.cpp         a double-buffered elementwise kernel
// The placeholder computation is real: every output = the elementwise sum of the inputs (all inputs have the
// same number of elements; one input: a copy), split over the vector cores in 32-byte aligned shares and
// streamed through UB in double-buffered tiles with a DataCopyPad tail, so that the project runs and can be
// checked out of the box; comments mark where the real math goes.
//
// Names: NAME may be snake case or Pascal case, with or without the "custom" suffix (add, add_custom, Add,
// AddCustom, layer_norm, LayerNorm all work). It is split into words at '_' and before each upper-case letter
// that follows a lower-case letter or digit, lower-cased, and "custom" is appended unless it is already the last
// word. The op type (OpDef class, OP_ADD, json "op") is the words in Pascal case (AddCustom); the kernel function
// and file names are the words joined by '_' (add_custom). DIR defaults to ./<op snake name> (./add_custom).
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/op_cmd.h"

namespace kgen::cli {
namespace {
namespace fs = std::filesystem;

struct NewOpts {
  std::string name, inputs, outputs, attrs, dtype = "float", out;
};

struct Attr {
  std::string name, type, def;   // type: float, int, bool; def empty: required
  bool required() const { return def.empty(); }
};

struct Spec {
  std::string pascal, snake;               // AddCustom, add_custom
  std::vector<std::string> inputs, outputs;
  std::vector<Attr> attrs;
  bool half = false;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> v;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      v.push_back(cur);
      cur.clear();
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      cur += c;
    }
  }
  v.push_back(cur);
  return v;
}

bool is_ident(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// NAME -> lower-case words (see the rule at the top of this file).
std::vector<std::string> name_words(const std::string& name, bool add_custom = true) {
  std::vector<std::string> words;
  std::string cur;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '_') {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
      continue;
    }
    bool upper = std::isupper(static_cast<unsigned char>(c));
    if (upper && !cur.empty()) {
      char p = name[i - 1];
      if (std::islower(static_cast<unsigned char>(p)) || std::isdigit(static_cast<unsigned char>(p))) {
        words.push_back(cur);
        cur.clear();
      }
    }
    cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (!cur.empty()) words.push_back(cur);
  if (add_custom && (words.empty() || words.back() != "custom")) words.push_back("custom");
  return words;
}

std::string pascal_of(const std::vector<std::string>& words) {
  std::string s;
  for (auto w : words) {
    w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
    s += w;
  }
  return s;
}

std::string snake_of(const std::vector<std::string>& words) {
  std::string s;
  for (auto& w : words) s += (s.empty() ? "" : "_") + w;
  return s;
}

// A parameter name as a member-name part: x -> X, input_a -> InputA.
std::string member(const std::string& n) { return pascal_of(name_words(n, false)); }
std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

// ------------------------------------------------------------------------------------------------ json
std::string gen_json(const Spec& s) {
  std::string type = s.half ? "float16" : "float";
  std::ostringstream o;
  auto params = [&](const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) {
      o << "            {\n"
        << "                \"name\": \"" << names[i] << "\",\n"
        << "                \"param_type\": \"required\",\n"
        << "                \"format\": [\"ND\"],\n"
        << "                \"type\": [\"" << type << "\"]\n"
        << "            }" << (i + 1 < names.size() ? "," : "") << "\n";
    }
  };
  o << "[\n    {\n        \"op\": \"" << s.pascal << "\",\n        \"language\": \"cpp\",\n";
  o << "        \"input_desc\": [\n";
  params(s.inputs);
  o << "        ],\n        \"output_desc\": [\n";
  params(s.outputs);
  o << "        ]";
  if (!s.attrs.empty()) {
    o << ",\n        \"attr\": [\n";
    for (size_t i = 0; i < s.attrs.size(); ++i) {
      const Attr& a = s.attrs[i];
      o << "            {\n"
        << "                \"name\": \"" << a.name << "\",\n"
        << "                \"param_type\": \"" << (a.required() ? "required" : "optional") << "\",\n"
        << "                \"type\": \"" << a.type << "\"" << (a.required() ? "\n" : ",\n");
      if (!a.required()) o << "                \"default_value\": \"" << a.def << "\"\n";
      o << "            }" << (i + 1 < s.attrs.size() ? "," : "") << "\n";
    }
    o << "        ]";
  }
  o << "\n    }\n]\n";
  return o.str();
}

// ------------------------------------------------------------------------------------------------ tiling header
const char* kTilingTemplate = R"(// Tiling data of @OP@: how the elements are split over the vector cores and into UB tiles@ATTRNOTE@.
#ifndef @GUARD@
#define @GUARD@
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(@OP@TilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of each input
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // the first formerNum cores take formerLength elements, the others
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // tailLength (whole 32-byte blocks: every core starts 32-byte
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // aligned; the last core stops at totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, a multiple of 32 bytes
@ATTRFIELDS@END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(@OP@, @OP@TilingData)
}  // namespace optiling
#endif
)";

std::string attr_field_type(const Attr& a) { return a.type == "float" ? "float" : a.type == "int" ? "int64_t" : "uint32_t"; }
std::string attr_cpp_type(const Attr& a) { return a.type == "float" ? "float" : a.type == "int" ? "int64_t" : "bool"; }

std::string gen_tiling(const Spec& s) {
  std::string t = kTilingTemplate;
  std::string fields;
  for (auto& a : s.attrs)
    fields += "TILING_DATA_FIELD_DEF(" + attr_field_type(a) + ", " + a.name + ");" +
              std::string(a.type == "bool" ? "   // attr " + a.name + " (bool: 0 or 1)\n" : "   // attr " + a.name + "\n");
  replace_all(t, "@ATTRFIELDS@", fields);
  replace_all(t, "@ATTRNOTE@", s.attrs.empty() ? "" : ", and its attrs");
  replace_all(t, "@GUARD@", upper(s.snake) + "_TILING_H");
  replace_all(t, "@OP@", s.pascal);
  return t;
}

// ------------------------------------------------------------------------------------------------ host
const char* kHostTemplate = R"(// @OP@, host side (generated by `kgen op new`): tiling, shape and dtype inference, and the OpDef.
#include "@SNAKE@_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;        // DMA and vector operands move whole 32-byte blocks
constexpr uint32_t BUFFER_NUM = 2;          // double buffering: copy tile i+1 in while tile i is computed
constexpr uint32_t QUEUE_NUM = @QUEUES@;           // one UB queue per input and per output
constexpr uint32_t MAX_TILE_BYTES = 16384;  // keeps several tiles per core so that the pipeline overlaps

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    for (size_t i = 1; i < context->GetComputeNodeInputNum(); i++) {
        if (static_cast<uint64_t>(context->GetInputShape(i)->GetOriginShape().GetShapeSize()) != totalLength) {
            return ge::GRAPH_FAILED;                  // the skeleton is elementwise: same element count everywhere
        }
    }
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t alignNum = BLOCK_BYTES / typeSize;               // elements per 32-byte block
    if (totalLength == 0 || totalLength > UINT32_MAX || coreNum == 0) {
        return ge::GRAPH_FAILED;
    }
@ATTRREAD@
    // Split whole 32-byte blocks over the cores as evenly as possible: the first formerNum cores take one
    // block more. Only the last core ends on a partial block (the kernel copies it with DataCopyPad).
    uint64_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? static_cast<uint32_t>(totalBlocks) : coreNum;
    uint64_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(totalBlocks % usedCores);

    // Tile size: BUFFER_NUM buffers for each of the QUEUE_NUM queues must fit UB.
    uint64_t tileBytes = ubSize / (BUFFER_NUM * QUEUE_NUM) / BLOCK_BYTES * BLOCK_BYTES;
    if (tileBytes > MAX_TILE_BYTES) {
        tileBytes = MAX_TILE_BYTES;
    }
    uint64_t coreBytes = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * BLOCK_BYTES;
    if (tileBytes > coreBytes) {
        tileBytes = coreBytes;
    }

    @OP@TilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(static_cast<uint32_t>((blocksPerCore + 1) * alignNum));
    tiling.set_tailLength(static_cast<uint32_t>(blocksPerCore * alignNum));
    tiling.set_tileLength(static_cast<uint32_t>(tileBytes / typeSize));
@ATTRSET@
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaceSizes = context->GetWorkspaceSizes(1);
    workspaceSizes[0] = 0;                                    // no workspace needed
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// Every output has the first input's shape and dtype.
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
@SHAPES@    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    const ge::DataType dtype = context->GetInputDataType(0);
@DTYPES@    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class @OP@ : public OpDef {
public:
    explicit @OP@(const char* name) : OpDef(name)
    {
@PARAMS@
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(@OP@);
}  // namespace ops
)";

std::string attr_literal(const Attr& a) {
  if (a.type == "float") {
    std::string d = a.def;
    bool has_point = d.find_first_of(".eE") != std::string::npos || d.find("inf") != std::string::npos ||
                     d.find("nan") != std::string::npos;
    return has_point ? d : d + ".0";
  }
  return a.def;
}

std::string gen_host(const Spec& s) {
  std::string t = kHostTemplate;
  std::string dt = s.half ? "ge::DT_FLOAT16" : "ge::DT_FLOAT";
  std::string read, set, shapes, dtypes, params;
  for (size_t i = 0; i < s.attrs.size(); ++i) {
    const Attr& a = s.attrs[i];
    std::string var = a.name + "Attr";
    read += "    const " + attr_cpp_type(a) + "* " + var + " = context->GetAttrs()->GetAttrPointer<" + attr_cpp_type(a) +
            ">(" + std::to_string(i) + ");   // attr " + a.name + "\n";
    read += "    if (" + var + " == nullptr) {\n        return ge::GRAPH_FAILED;\n    }\n";
    set += "    tiling.set_" + a.name + "(" + (a.type == "bool" ? "*" + var + " ? 1u : 0u" : "*" + var) + ");\n";
  }
  for (size_t i = 0; i < s.outputs.size(); ++i) {
    shapes += "    *context->GetOutputShape(" + std::to_string(i) + ") = *xShape;\n";
    dtypes += "    context->SetOutputDataType(" + std::to_string(i) + ", dtype);\n";
  }
  auto param = [&](const char* kind, const std::string& n) {
    params += std::string("        this->") + kind + "(\"" + n + "\")\n            .ParamType(REQUIRED)\n" +
              "            .DataType({" + dt + "})\n            .Format({ge::FORMAT_ND})\n" +
              "            .UnknownShapeFormat({ge::FORMAT_ND});\n";
  };
  for (auto& n : s.inputs) param("Input", n);
  for (auto& n : s.outputs) param("Output", n);
  for (auto& a : s.attrs) {
    std::string kind = a.type == "float" ? "Float" : a.type == "int" ? "Int" : "Bool";
    params += "        this->Attr(\"" + a.name + "\").AttrType(" + (a.required() ? "REQUIRED" : "OPTIONAL") + ")." + kind +
              "(" + (a.required() ? "" : attr_literal(a)) + ");\n";
  }
  replace_all(t, "@ATTRREAD@", read);
  replace_all(t, "@ATTRSET@", set);
  replace_all(t, "@SHAPES@", shapes);
  replace_all(t, "@DTYPES@", dtypes);
  replace_all(t, "@PARAMS@", params);
  replace_all(t, "@QUEUES@", std::to_string(s.inputs.size() + s.outputs.size()));
  replace_all(t, "@SNAKE@", s.snake);
  replace_all(t, "@OP@", s.pascal);
  return t;
}

// ------------------------------------------------------------------------------------------------ kernel
const char* kKernelTemplate = R"(// @OP@, kernel side (generated by `kgen op new`): each vector core takes its share of the elements
// (32-byte aligned start) and streams it through UB in double-buffered tiles: CopyIn (GM -> UB), Compute,
// CopyOut (UB -> GM). A tile that is not a whole number of 32-byte blocks (the tail) moves with DataCopyPad.
// DTYPE_@DTYPE@ is the element type of the OpDef dtype column being built (float or half).
//
// The placeholder computation is @WHAT@: replace the body of Compute() with the real math.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class Kernel@OP@ {
public:
    __aicore__ inline Kernel@OP@() {}
    __aicore__ inline void Init(@INITPARAMS@, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength, uint32_t tileLength@ATTRPARAMS@)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t offset;
        if (idx < formerNum) {
            offset = idx * formerLength;
            coreLength = formerLength;
        } else {
            offset = formerNum * formerLength + (idx - formerNum) * tailLength;
            coreLength = tailLength;
        }
        if (offset + coreLength > totalLength) {
            coreLength = totalLength - offset;   // the last core ends inside a 32-byte block
        }
        this->tileLength = tileLength;
@ATTRINIT@@SETGM@@INITBUF@    }
    __aicore__ inline void Process()
    {
        uint32_t tileNum = (coreLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t len = (i == tileNum - 1) ? coreLength - i * tileLength : tileLength;
            CopyIn(i, len);
            Compute(len);
            CopyOut(i, len);
        }
    }

private:
    __aicore__ inline bool Aligned(uint32_t len) const { return (len * sizeof(T)) % 32 == 0; }
    __aicore__ inline void CopyTileIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                      uint32_t len)
    {
        if (Aligned(len)) {
            AscendC::DataCopy(dst, src, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams, padParams);
        }
    }
    __aicore__ inline void CopyTileOut(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                       uint32_t len)
    {
        if (Aligned(len)) {
            AscendC::DataCopy(dst, src, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams);   // writes exactly len elements
        }
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
@COPYIN@    }
    __aicore__ inline void Compute(uint32_t len)
    {
@COMPUTE@    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
@COPYOUT@    }

    AscendC::TPipe pipe;
@QUEUEDECL@    AscendC::GlobalTensor<T> @GMDECL@;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
@ATTRDECL@};

extern "C" __global__ __aicore__ void @SNAKE@(@KPARAMS@, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Kernel@OP@<DTYPE_@DTYPE@> op;
    op.Init(@KARGS@, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength,
            tilingData.tailLength, tilingData.tileLength@ATTRARGS@);
    op.Process();
}
)";

std::string gen_kernel(const Spec& s) {
  std::string t = kKernelTemplate;
  std::vector<std::string> all = s.inputs;
  all.insert(all.end(), s.outputs.begin(), s.outputs.end());
  std::string attrparams, attrargs;
  std::string initparams, kparams, kargs, setgm, initbuf, copyin, compute, copyout, queuedecl, gmdecl, attrinit, attrdecl;
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string& n = all[i];
    initparams += std::string(i ? ", " : "") + "GM_ADDR " + n;
    kparams += std::string(i ? ", " : "") + "GM_ADDR " + n;
    kargs += std::string(i ? ", " : "") + n;
    gmdecl += std::string(i ? ", " : "") + n + "Gm";
    setgm += "        " + n + "Gm.SetGlobalBuffer((__gm__ T*)" + n + " + offset, coreLength);\n";
  }
  for (auto& n : s.inputs) {
    std::string q = "inQueue" + member(n);
    initbuf += "        pipe.InitBuffer(" + q + ", BUFFER_NUM, tileLength * sizeof(T));\n";
    queuedecl += "    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> " + q + ";\n";
    copyin += "        AscendC::LocalTensor<T> " + n + "Local = " + q + ".AllocTensor<T>();\n";
    copyin += "        CopyTileIn(" + n + "Local, " + n + "Gm[progress * tileLength], len);\n";
    copyin += "        " + q + ".EnQue(" + n + "Local);\n";
  }
  for (auto& n : s.outputs) {
    std::string q = "outQueue" + member(n);
    initbuf += "        pipe.InitBuffer(" + q + ", BUFFER_NUM, tileLength * sizeof(T));\n";
    queuedecl += "    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> " + q + ";\n";
    copyout += "        AscendC::LocalTensor<T> " + n + "Local = " + q + ".DeQue<T>();\n";
    copyout += "        CopyTileOut(" + n + "Gm[progress * tileLength], " + n + "Local, len);\n";
    copyout += "        " + q + ".FreeTensor(" + n + "Local);\n";
  }
  // Compute: dequeue inputs, allocate outputs, placeholder math, enqueue outputs, free inputs.
  for (auto& n : s.inputs)
    compute += "        AscendC::LocalTensor<T> " + n + "Local = inQueue" + member(n) + ".DeQue<T>();\n";
  for (auto& n : s.outputs)
    compute += "        AscendC::LocalTensor<T> " + n + "Local = outQueue" + member(n) + ".AllocTensor<T>();\n";
  const std::string& o0 = s.outputs[0];
  compute += "\n        // ---- placeholder computation: replace with the real math (vector APIs on len elements) ----\n";
  if (s.inputs.size() == 1) {
    compute += "        AscendC::Muls(" + o0 + "Local, " + s.inputs[0] + "Local, static_cast<T>(1), len);   // " + o0 +
               " = " + s.inputs[0] + "\n";
  } else {
    compute += "        AscendC::Add(" + o0 + "Local, " + s.inputs[0] + "Local, " + s.inputs[1] + "Local, len);\n";
    for (size_t i = 2; i < s.inputs.size(); ++i) {
      compute += "        AscendC::PipeBarrier<PIPE_V>();   // the next Add reads what the previous one wrote\n";
      compute += "        AscendC::Add(" + o0 + "Local, " + o0 + "Local, " + s.inputs[i] + "Local, len);\n";
    }
  }
  if (s.outputs.size() > 1) compute += "        AscendC::PipeBarrier<PIPE_V>();\n";
  for (size_t i = 1; i < s.outputs.size(); ++i)
    compute += "        AscendC::Muls(" + s.outputs[i] + "Local, " + o0 + "Local, static_cast<T>(1), len);   // " +
               s.outputs[i] + " = " + o0 + "\n";
  if (!s.attrs.empty()) {
    compute += "        // attrs available here:";
    for (auto& a : s.attrs) compute += " " + a.name;
    compute += "\n";
  }
  compute += "        // ---- end of placeholder ----\n\n";
  for (auto& n : s.outputs) compute += "        outQueue" + member(n) + ".EnQue<T>(" + n + "Local);\n";
  for (auto& n : s.inputs) compute += "        inQueue" + member(n) + ".FreeTensor(" + n + "Local);\n";
  for (auto& a : s.attrs) {
    attrinit += "        this->" + a.name + " = " + a.name + ";\n";
    attrparams += ", " + attr_field_type(a) + " " + a.name;
    attrargs += ", tilingData." + a.name;
    attrdecl += "    " + attr_field_type(a) + " " + a.name + " = 0;   // attr " + a.name + "\n";
  }
  std::string what;
  if (s.inputs.size() == 1) {
    what = "a copy, " + o0 + " = " + s.inputs[0];
  } else {
    what = "the elementwise sum of the inputs, " + o0 + " = ";
    for (size_t i = 0; i < s.inputs.size(); ++i) what += (i ? " + " : "") + s.inputs[i];
  }
  if (s.outputs.size() > 1) what += " (every other output is a copy of " + o0 + ")";
  replace_all(t, "@INITPARAMS@", initparams);
  replace_all(t, "@KPARAMS@", kparams);
  replace_all(t, "@KARGS@", kargs);
  replace_all(t, "@SETGM@", setgm);
  replace_all(t, "@INITBUF@", initbuf);
  replace_all(t, "@COPYIN@", copyin);
  replace_all(t, "@COMPUTE@", compute);
  replace_all(t, "@COPYOUT@", copyout);
  replace_all(t, "@QUEUEDECL@", queuedecl);
  replace_all(t, "@GMDECL@", gmdecl);
  replace_all(t, "@ATTRINIT@", attrinit);
  replace_all(t, "@ATTRDECL@", attrdecl);
  replace_all(t, "@ATTRPARAMS@", attrparams);
  replace_all(t, "@ATTRARGS@", attrargs);
  replace_all(t, "@WHAT@", what);
  replace_all(t, "@DTYPE@", upper(s.inputs[0]));
  replace_all(t, "@SNAKE@", s.snake);
  replace_all(t, "@OP@", s.pascal);
  return t;
}

// ------------------------------------------------------------------------------------------------ command
int usage_error(const std::string& msg) {
  std::fprintf(stderr, "error[usage] kgen op new: %s\n", msg.c_str());
  return 2;
}

bool valid_default(const Attr& a) {
  if (a.def.empty()) return true;
  try {
    size_t pos = 0;
    if (a.type == "float") {
      (void)std::stod(a.def, &pos);
    } else if (a.type == "int") {
      (void)std::stoll(a.def, &pos);
    } else {
      return a.def == "true" || a.def == "false";
    }
    return pos == a.def.size();
  } catch (...) {
    return false;
  }
}

int run_new(const NewOpts& o) {
  if (o.name.empty() || !is_ident(o.name)) return usage_error("NAME '" + o.name + "' must be an identifier (add_custom, AddCustom)");
  Spec s;
  auto words = name_words(o.name);
  s.pascal = pascal_of(words);
  s.snake = snake_of(words);
  if (o.dtype != "float" && o.dtype != "half")
    return usage_error("--dtype must be float or half, not '" + o.dtype + "'");
  s.half = o.dtype == "half";
  std::set<std::string> seen;
  auto names = [&](const std::string& list, const char* what, std::vector<std::string>& out) -> bool {
    if (list.empty()) return true;
    for (auto& n : split(list, ',')) {
      if (!is_ident(n)) {
        usage_error(std::string(what) + " name '" + n + "' is not an identifier");
        return false;
      }
      if (n == "workspace" || n == "tiling" || n == "tilingData" || n == "op" || n == "offset" || n == "len" ||
          n == "progress" || n == "pipe" || n == "idx") {
        usage_error(std::string(what) + " name '" + n + "' is reserved in the generated code; choose another");
        return false;
      }
      if (!seen.insert(n).second) {
        usage_error("the name '" + n + "' is used twice (inputs, outputs and attrs need distinct names)");
        return false;
      }
      out.push_back(n);
    }
    return true;
  };
  if (!names(o.inputs, "input", s.inputs) || !names(o.outputs, "output", s.outputs)) return 2;
  if (s.inputs.empty()) return usage_error("--inputs needs at least one name (--inputs x,y)");
  if (s.outputs.empty()) return usage_error("--outputs needs at least one name (--outputs z)");
  if (!o.attrs.empty()) {
    for (auto& spec : split(o.attrs, ',')) {
      Attr a;
      size_t colon = spec.find(':');
      if (colon == std::string::npos)
        return usage_error("attr '" + spec + "' needs a type: NAME:TYPE[=DEFAULT] with TYPE float, int or bool");
      a.name = spec.substr(0, colon);
      std::string rest = spec.substr(colon + 1);
      size_t eq = rest.find('=');
      a.type = rest.substr(0, eq);
      if (eq != std::string::npos) {
        a.def = rest.substr(eq + 1);
        if (a.def.empty()) return usage_error("attr '" + a.name + "': empty default after '='");
      }
      if (!is_ident(a.name)) return usage_error("attr name '" + a.name + "' is not an identifier");
      if (a.type != "float" && a.type != "int" && a.type != "bool")
        return usage_error("attr '" + a.name + "': type '" + a.type + "' is not float, int or bool");
      if (!valid_default(a))
        return usage_error("attr '" + a.name + "': default '" + a.def + "' is not a " + a.type);
      if (!seen.insert(a.name).second)
        return usage_error("the name '" + a.name + "' is used twice (inputs, outputs and attrs need distinct names)");
      for (auto& p : s.inputs)
        if (p == a.name + "Attr") return usage_error("attr '" + a.name + "' clashes with input '" + p + "'");
      s.attrs.push_back(a);
    }
  }

  fs::path dir = o.out.empty() ? fs::path(s.snake) : fs::path(o.out);
  std::error_code ec;
  if (fs::exists(dir, ec))
    return usage_error(dir.string() + " already exists; kgen op new does not overwrite: choose another -o DIR or remove it");
  fs::create_directories(dir / "op_host", ec);
  if (!ec) fs::create_directories(dir / "op_kernel", ec);
  if (ec) {
    std::fprintf(stderr, "error[usage] kgen op new: cannot create %s: %s\n", dir.string().c_str(), ec.message().c_str());
    return 2;
  }
  struct File {
    fs::path path;
    std::string text;
  };
  std::vector<File> files = {
      {dir / (s.snake + ".json"), gen_json(s)},
      {dir / "op_host" / (s.snake + "_tiling.h"), gen_tiling(s)},
      {dir / "op_host" / (s.snake + ".cpp"), gen_host(s)},
      {dir / "op_kernel" / (s.snake + ".cpp"), gen_kernel(s)},
  };
  for (auto& f : files) {
    std::ofstream out(f.path);
    out << f.text;
    if (!out) {
      std::fprintf(stderr, "error[internal] kgen op new: cannot write %s\n", f.path.string().c_str());
      return 1;
    }
  }
  std::printf("created op project %s (op type %s, kernel %s) in %s:\n", s.pascal.c_str(), s.pascal.c_str(),
              s.snake.c_str(), dir.string().c_str());
  for (auto& f : files) std::printf("  %s\n", f.path.string().c_str());
  std::string example = "kgen op run " + dir.string();
  for (auto& n : s.inputs) example += " --input " + n + "=" + n + ".npy";
  example += " --out out";
  std::printf("run it with: %s\n", example.c_str());
  return 0;
}
}  // namespace

void add_op_new_cmd(CLI::App* op, int& exit_code) {
  auto o = std::make_shared<NewOpts>();
  auto* c = op->add_subcommand(
      "new", "Write a skeleton op project (msopgen layout: json, op_host tiling header + host cpp, op_kernel cpp) "
             "whose kernel computes every output = the elementwise sum of the inputs, ready for `kgen op run`");
  c->add_option("name", o->name,
                "op name: add, add_custom, Add or AddCustom all give op type AddCustom and kernel add_custom")
      ->required();
  c->add_option("--inputs", o->inputs, "comma-separated input names, in kernel argument order (x,y)")->required();
  c->add_option("--outputs", o->outputs, "comma-separated output names (z)")->required();
  c->add_option("--attrs", o->attrs,
                "comma-separated attrs NAME:TYPE[=DEFAULT], TYPE float, int or bool; without a default the attr is "
                "REQUIRED (alpha:float=0.1,axis:int=-1,flag:bool=false)");
  c->add_option("--dtype", o->dtype, "element type of every input and output: float or half (default float)");
  c->add_option("-o,--out", o->out, "project directory to create (default ./<op snake name>); must not exist");
  c->callback([o, &exit_code] { exit_code = run_new(*o); });
}
}  // namespace kgen::cli
