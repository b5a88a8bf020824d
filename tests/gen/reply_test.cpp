// Reply parsing (reply.h) on the shapes models produce: fences of every kind, <file> tags, reasoning sections,
// CRLF, cut-off replies, replies without code, unnamed op-project files, unsafe paths; and writing candidates.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "scratch_dir.h"
#include "gen/reply.h"

namespace fs = std::filesystem;
using namespace kgen::gen;

namespace {

const std::string kProg =
    "\"\"\"ReLU.\"\"\"\n"
    "kernel relu(x: T[*n]) -> (y: T[*n]):\n"
    "    dtype T in (f32, f16)\n"
    "    for t in tiles(n):\n"
    "        store(y[t], relu(load(x[t], f32)))\n";

const std::string kDraft =
    "kernel relu(x: T[*n]) -> (y: T[*n]):\n"
    "    for t in tiles(n):\n"
    "        store(y[t], load(x[t]))\n";

const std::string kTiling =
    "#include \"register/tilingdata_base.h\"\n"
    "namespace optiling {\n"
    "BEGIN_TILING_DATA_DEF(AddCustomTilingData)\n"
    "TILING_DATA_FIELD_DEF(uint32_t, totalLength);\n"
    "END_TILING_DATA_DEF;\n"
    "REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)\n"
    "}\n";

const std::string kHost =
    "#include \"add_custom_tiling.h\"\n"
    "#include \"register/op_def_registry.h\"\n"
    "namespace ops {\n"
    "class AddCustom : public OpDef {};\n"
    "OP_ADD(AddCustom);\n"
    "}\n";

const std::string kKernel =
    "#include \"kernel_operator.h\"\n"
    "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, GM_ADDR t)\n"
    "{\n"
    "}\n";

std::string fence(const std::string& info, const std::string& body, const std::string& f = "```") {
  return f + info + "\n" + body + f + "\n";
}

std::string crlf(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '\n') o += '\r';
    o += c;
  }
  return o;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void expect_tile(const ParsedReply& r, const std::string& program) {
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files.begin()->first, "relu.tile");
  EXPECT_EQ(r.files.begin()->second, program);
}

void expect_project(const ParsedReply& r, const std::string& op = "add_custom") {
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.files.size(), 3u);
  ASSERT_TRUE(r.files.count("op_host/" + op + "_tiling.h"));
  ASSERT_TRUE(r.files.count("op_host/" + op + ".cpp"));
  ASSERT_TRUE(r.files.count("op_kernel/" + op + ".cpp"));
  EXPECT_EQ(r.files.at("op_host/" + op + "_tiling.h"), kTiling);
  EXPECT_EQ(r.files.at("op_host/" + op + ".cpp"), kHost);
  EXPECT_EQ(r.files.at("op_kernel/" + op + ".cpp"), kKernel);
}

}  // namespace

TEST(ReplyTile, FencedBlock) {
  expect_tile(parse_reply("Here is the kernel:\n\n" + fence("tile", kProg) + "\nIt fuses everything.", Target::Tile,
                          "relu"),
              kProg);
}

TEST(ReplyTile, PythonLabelledBlockHoldingAProgram) {
  expect_tile(parse_reply(fence("python", kProg), Target::Tile, "relu"), kProg);
}

TEST(ReplyTile, LastCompleteProgramWins) {
  std::string reply = "A first try:\n" + fence("tile", kDraft) + "Wait, f16 needs f32:\n" + fence("tile", kProg) +
                      "Test it with:\n" + fence("sh", "kgen tile check relu.tile\n");
  expect_tile(parse_reply(reply, Target::Tile, "relu"), kProg);
}

TEST(ReplyTile, CrlfLineEnds) {
  auto r = parse_reply(crlf("Sure.\n" + fence("tile", kProg)), Target::Tile, "relu");
  expect_tile(r, kProg);
}

TEST(ReplyTile, TildeAndLongFences) {
  expect_tile(parse_reply(fence("tile", kProg, "~~~"), Target::Tile, "relu"), kProg);
  // a 4-backtick fence may hold ``` lines
  std::string reply = "````tile\n" + kProg + "```\n" + "````\n";
  auto r = parse_reply(reply, Target::Tile, "relu");
  expect_tile(r, kProg + "```\n");
}

TEST(ReplyTile, IndentedFenceIsDedented) {
  std::string body;
  std::stringstream s(kProg);
  for (std::string l; std::getline(s, l);) body += "   " + l + "\n";
  expect_tile(parse_reply("1. The program:\n   ```tile\n" + body + "   ```\n", Target::Tile, "relu"), kProg);
}

TEST(ReplyTile, ThinkSectionsAreIgnored) {
  std::string reply = "<think>Maybe:\n" + fence("tile", kDraft) + "no, better in f32.</think>\n" + fence("tile", kProg);
  expect_tile(parse_reply(reply, Target::Tile, "relu"), kProg);
  // servers that strip the opening tag
  expect_tile(parse_reply("reasoning " + fence("tile", kDraft) + "</think>" + fence("tile", kProg), Target::Tile,
                          "relu"),
              kProg);
  // code only inside the reasoning: no code
  auto r = parse_reply("<think>" + fence("tile", kProg) + "</think>\nDone.", Target::Tile, "relu");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("no fenced code block"), std::string::npos) << r.error;
}

TEST(ReplyTile, CutOffInsideAFence) {
  std::string reply = "Here:\n```tile\n" + kProg.substr(0, 60);
  auto r = parse_reply(reply, Target::Tile, "relu");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.files.empty());
  EXPECT_NE(r.error.find("cut off"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("line 2"), std::string::npos) << r.error;   // where the fence opened
  // even after a complete earlier block: the model was still writing
  r = parse_reply(fence("tile", kDraft) + "Improved:\n```tile\n" + kProg, Target::Tile, "relu");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("cut off"), std::string::npos) << r.error;
}

TEST(ReplyTile, NoCode) {
  std::string prose = "I cannot write this kernel, sorry.";
  auto r = parse_reply(prose, Target::Tile, "relu");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("no fenced code block or <file> tag"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(std::to_string(prose.size()) + " characters"), std::string::npos) << r.error;
  r = parse_reply("  \n", Target::Tile, "relu");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("empty"), std::string::npos) << r.error;
  r = parse_reply(fence("cpp", kKernel), Target::Tile, "relu");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("none holds a tile program"), std::string::npos) << r.error;
}

TEST(ReplyTile, CopiedFileMarkerIsDropped) {
  ParsedReply prev = parse_reply(fence("tile", kProg), Target::Tile, "relu");
  ASSERT_TRUE(prev.ok) << prev.error;
  expect_tile(parse_reply(fence("tile", files_text(prev)), Target::Tile, "relu"), kProg);
}

TEST(ReplyTile, BareProgram) {
  expect_tile(parse_reply("\n" + kProg, Target::Tile, "relu"), kProg);
}

TEST(ReplyAscendc, PathsInInfoStrings) {
  std::string reply = fence("cpp op_host/add_custom_tiling.h", kTiling) + "\n" + fence("cpp op_host/add_custom.cpp", kHost) +
                      "\n" + fence("cpp:op_kernel/add_custom.cpp", kKernel);
  expect_project(parse_reply(reply, Target::AscendC, "add"));
}

TEST(ReplyAscendc, UnnamedBlocksAreClassifiedByContent) {
  // any order, no names: the kernel's entry point names the op, the host's include names the tiling header
  std::string reply = "Kernel:\n" + fence("cpp", kKernel) + "Host:\n" + fence("cpp", kHost) + "Tiling:\n" +
                      fence("cpp", kTiling);
  expect_project(parse_reply(crlf(reply), Target::AscendC, "something_else"));
}

TEST(ReplyAscendc, FileTags) {
  std::string reply = "<file path=\"op_host/add_custom_tiling.h\">\n" + kTiling + "</file>\n" +
                      "<file path='op_host/add_custom.cpp'>\n```cpp\n" + kHost + "```\n</file>\n" +
                      "<file name=\"op_kernel/add_custom.cpp\">\n" + kKernel + "</file>";
  expect_project(parse_reply(reply, Target::AscendC, "add"));
}

TEST(ReplyAscendc, NamesInHeadingsAndFirstLineComments) {
  std::string kernel_commented = "// op_kernel/add_custom.cpp\n" + kKernel;
  std::string reply = "**File: op_host/add_custom_tiling.h**\n" + fence("cpp", kTiling) +
                      "### `op_host/add_custom.cpp`\n\n" + fence("cpp", kHost) + fence("cpp", kernel_commented);
  auto r = parse_reply(reply, Target::AscendC, "add");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.files.at("op_host/add_custom_tiling.h"), kTiling);
  EXPECT_EQ(r.files.at("op_host/add_custom.cpp"), kHost);
  EXPECT_EQ(r.files.at("op_kernel/add_custom.cpp"), kernel_commented);
}

TEST(ReplyAscendc, ProjectFolderPrefixIsDropped) {
  std::string reply = fence("cpp add_custom/op_host/add_custom_tiling.h", kTiling) +
                      fence("cpp add_custom/op_host/add_custom.cpp", kHost) +
                      fence("cpp add_custom/op_kernel/add_custom.cpp", kKernel);
  expect_project(parse_reply(reply, Target::AscendC, "add"));
}

TEST(ReplyAscendc, LaterVersionOfAFileWins) {
  std::string old_kernel = "#include \"kernel_operator.h\"\n// old\n";
  std::string reply = fence("cpp op_kernel/add_custom.cpp", old_kernel) + fence("cpp op_host/add_custom_tiling.h", kTiling) +
                      fence("cpp op_host/add_custom.cpp", kHost) + "Fixed kernel:\n" +
                      fence("cpp op_kernel/add_custom.cpp", kKernel);
  expect_project(parse_reply(reply, Target::AscendC, "add"));
}

TEST(ReplyAscendc, PathTraversalAndAbsolutePathsAreRejected) {
  auto r = parse_reply(fence("cpp ../../etc/op_host/add_custom.cpp", kHost) + fence("cpp", kKernel), Target::AscendC,
                       "add");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("../../etc/op_host/add_custom.cpp"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(".."), std::string::npos) << r.error;
  r = parse_reply(fence("cpp /tmp/op_kernel/add_custom.cpp", kKernel) + fence("cpp", kHost), Target::AscendC, "add");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("absolute"), std::string::npos) << r.error;
}

TEST(ReplyAscendc, MissingFiles) {
  auto r = parse_reply(fence("cpp", kKernel), Target::AscendC, "add");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("no host file"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("op_kernel/add_custom.cpp"), std::string::npos) << r.error;
  r = parse_reply(fence("cpp", kHost) + fence("cpp", kKernel), Target::AscendC, "add");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("add_custom_tiling.h"), std::string::npos) << r.error;
  r = parse_reply(fence("python", "print(1)\n"), Target::AscendC, "add");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("none is a file of an op project"), std::string::npos) << r.error;
  r = parse_reply(fence("cpp", kTiling) + fence("cpp", kHost) + "```cpp\n" + kKernel.substr(0, 40), Target::AscendC,
                  "add");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("cut off"), std::string::npos) << r.error;
}

TEST(ReplyFiles, FilesTextShowsEachPath) {
  auto r = parse_reply(fence("cpp", kKernel) + fence("cpp", kHost) + fence("cpp", kTiling), Target::AscendC, "add");
  ASSERT_TRUE(r.ok) << r.error;
  std::string t = files_text(r);
  for (const auto& [path, text] : r.files) {
    EXPECT_NE(t.find("// FILE: " + path + "\n" + text), std::string::npos) << path;
  }
}

TEST(ReplyFiles, WriteTileCandidate) {
  ScratchDir d;
  auto r = parse_reply(fence("tile", kProg), Target::Tile, "relu");
  std::string cand, err;
  ASSERT_TRUE(write_candidate(r, Target::Tile, d.path.string(), cand, err)) << err;
  EXPECT_EQ(cand, (d.path / "relu.tile").string());
  EXPECT_EQ(slurp(cand), kProg);
}

TEST(ReplyFiles, WriteOpProject) {
  ScratchDir d;
  auto r = parse_reply(fence("cpp", kKernel) + fence("cpp", kHost) + fence("cpp", kTiling), Target::AscendC, "add");
  std::string cand, err;
  ASSERT_TRUE(write_candidate(r, Target::AscendC, d.path.string(), cand, err)) << err;
  EXPECT_EQ(cand, d.path.string());
  for (const auto& [path, text] : r.files) EXPECT_EQ(slurp(d.path / path), text) << path;
}

TEST(ReplyFiles, WriteRefusesUnsafePaths) {
  ScratchDir d;
  std::string cand, err;
  for (const std::string bad : {"../op_host/x.cpp", "/etc/x.cpp", "op_host/../../x.cpp", "src/x.cpp",
                                "op_host/sub/x.cpp", "x.cpp"}) {
    ParsedReply p;
    p.ok = true;
    p.files["op_kernel/k.cpp"] = kKernel;
    p.files[bad] = kHost;
    EXPECT_FALSE(write_candidate(p, Target::AscendC, d.path.string(), cand, err)) << bad;
    EXPECT_NE(err.find(bad), std::string::npos) << err;
  }
  EXPECT_FALSE(fs::exists(d.path.parent_path() / "op_host" / "x.cpp"));
  ParsedReply tile;
  tile.ok = true;
  tile.files["dir/relu.tile"] = kProg;
  EXPECT_FALSE(write_candidate(tile, Target::Tile, d.path.string(), cand, err));
  EXPECT_NE(err.find("dir/relu.tile"), std::string::npos) << err;
  ParsedReply none = parse_reply("no code", Target::Tile, "relu");
  EXPECT_FALSE(write_candidate(none, Target::Tile, d.path.string(), cand, err));
  EXPECT_NE(err.find(none.error), std::string::npos) << err;
}

// A CANN project split over several files (OpDef, tiling + infershape, kernel helpers): every named file is kept;
// an earlier draft of the kernel under another name is not (it would be a second entry point).
TEST(ReplyAscendc, KeepsEveryNamedFileOfASplitProject) {
  const std::string def = "#include \"register/op_def_registry.h\"\nnamespace ops { OP_ADD(AddCustom); }\n";
  const std::string tiling_impl = "#include \"add_custom_tiling.h\"\nIMPL_OP_OPTILING(AddCustom).Tiling(T);\n";
  const std::string helper = "#include \"kernel_operator.h\"\n__aicore__ inline void Step() {}\n";
  const std::string draft = "#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x) {}\n";
  const std::string reply = fence("cpp op_kernel/add_draft.cpp", draft) + fence("cpp op_host/add_custom_def.cpp", def) +
                            fence("cpp op_host/add_custom.cpp", tiling_impl) + fence("cpp op_host/add_custom_tiling.h", kTiling) +
                            fence("cpp op_kernel/add_helpers.cpp", helper) + fence("cpp op_kernel/add_custom.cpp", kKernel);
  auto r = parse_reply(reply, Target::AscendC, "add");
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<std::string> paths;
  for (const auto& [p, _] : r.files) paths.push_back(p);
  EXPECT_EQ(paths, (std::vector<std::string>{"op_host/add_custom.cpp", "op_host/add_custom_def.cpp",
                                             "op_host/add_custom_tiling.h", "op_kernel/add_custom.cpp",
                                             "op_kernel/add_helpers.cpp"}));
  EXPECT_EQ(r.files.at("op_host/add_custom_def.cpp"), def);        // the OpDef, not the tiling-only file, is the host
  EXPECT_EQ(r.files.at("op_host/add_custom.cpp"), tiling_impl);
  EXPECT_EQ(r.files.at("op_kernel/add_custom.cpp"), kKernel);
}
