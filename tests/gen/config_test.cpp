// kgen.toml (config.h): the TOML subset, its errors with line:col, the config file search, and resolve_endpoint.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gen/config.h"

namespace fs = std::filesystem;
using namespace kgen::gen;

namespace {

// Sets or unsets an environment variable for one scope, restoring the old value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_.c_str(), old_.c_str(), 1);
    else unsetenv(name_.c_str());
  }

 private:
  std::string name_, old_;
  bool had_ = false;
};

// "path:LINE:COL: " of the first occurrence of `token` in the given line of text (1-based), computed from the text.
std::string location(const std::string& path, const std::string& text, int line, const std::string& token) {
  std::istringstream in(text);
  std::string l;
  for (int i = 0; i < line; ++i) std::getline(in, l);
  size_t col = l.find(token);
  EXPECT_NE(col, std::string::npos) << "test bug: '" << token << "' not on line " << line;
  return path + ":" + std::to_string(line) + ":" + std::to_string(col + 1) + ": ";
}

std::string parse_error(const std::string& text) {
  GenConfig c;
  std::string err;
  EXPECT_FALSE(parse_config(text, "kgen.toml", c, err)) << text;
  return err;
}

void expect_error_at(const std::string& text, int line, const std::string& token, const std::string& says) {
  std::string err = parse_error(text);
  EXPECT_EQ(err.rfind(location("kgen.toml", text, line, token), 0), 0u) << err;
  EXPECT_NE(err.find(says), std::string::npos) << err;
}

// TOML syntax errors come from toml++, which places them itself: the line, and what the message says.
void expect_error_line(const std::string& text, int line, const std::string& says) {
  std::string err = parse_error(text);
  EXPECT_EQ(err.rfind("kgen.toml:" + std::to_string(line) + ":", 0), 0u) << err;
  EXPECT_NE(err.find(says), std::string::npos) << err;
}

const char* kFull = R"(# endpoints for kgen generate
default = "qwen"

[model.qwen]   # a local vLLM
base_url = "http://127.0.0.1:8000/v1"
model = "Qwen/Qwen2.5-Coder-32B-Instruct"
api_key_env = 'VLLM_KEY'
temperature = 0.2
top_p = 1
max_tokens = 4_096
seed = 1234
timeout_s = 120
retries = 2
backoff_s = 0.5
concurrency = 8
usd_per_mtok_in = 0.27
usd_per_mtok_out = 1.10
context_tokens = 16384

[model."deepseek-chat"]
base_url = "https://api.deepseek.com/v1"
api_key_env = "DEEPSEEK_API_KEY"
)";

}  // namespace

TEST(GenConfig, ParsesAFullFile) {
  GenConfig c;
  std::string err;
  ASSERT_TRUE(parse_config(kFull, "cfg/kgen.toml", c, err)) << err;
  EXPECT_EQ(c.path, "cfg/kgen.toml");
  EXPECT_EQ(c.default_model, "qwen");
  ASSERT_EQ(c.models.size(), 2u);
  const Endpoint& q = c.models.at("qwen");
  EXPECT_EQ(q.name, "qwen");
  EXPECT_EQ(q.base_url, "http://127.0.0.1:8000/v1");
  EXPECT_EQ(q.model, "Qwen/Qwen2.5-Coder-32B-Instruct");
  EXPECT_EQ(q.api_key_env, "VLLM_KEY");
  EXPECT_DOUBLE_EQ(q.temperature, 0.2);
  EXPECT_DOUBLE_EQ(q.top_p, 1.0);  // an integer where a float is expected is fine
  EXPECT_EQ(q.max_tokens, 4096);
  EXPECT_EQ(q.seed, 1234);
  EXPECT_DOUBLE_EQ(q.timeout_s, 120);
  EXPECT_EQ(q.retries, 2);
  EXPECT_DOUBLE_EQ(q.backoff_s, 0.5);
  EXPECT_EQ(q.concurrency, 8);
  EXPECT_DOUBLE_EQ(q.usd_per_mtok_in, 0.27);
  EXPECT_DOUBLE_EQ(q.usd_per_mtok_out, 1.10);
  EXPECT_EQ(q.context_tokens, 16384);
  const Endpoint& d = c.models.at("deepseek-chat");
  EXPECT_EQ(d.model, "deepseek-chat");  // no `model` key: the table's name is the served model
  EXPECT_EQ(d.api_key_env, "DEEPSEEK_API_KEY");
  Endpoint defaults;
  EXPECT_EQ(d.max_tokens, defaults.max_tokens);
  EXPECT_EQ(d.retries, defaults.retries);
}

TEST(GenConfig, EmptyAndCommentOnlyFilesAreFine) {
  GenConfig c;
  std::string err;
  EXPECT_TRUE(parse_config("", "kgen.toml", c, err)) << err;
  EXPECT_TRUE(parse_config("# nothing\n\n   # here\r\n", "kgen.toml", c, err)) << err;
  EXPECT_TRUE(c.models.empty());
}

TEST(GenConfig, StringEscapes) {
  GenConfig c;
  std::string err;
  ASSERT_TRUE(parse_config("[model.m]\nmodel = \"a\\\"b\\\\c\\u00e9\"\n", "kgen.toml", c, err)) << err;
  EXPECT_EQ(c.models.at("m").model, "a\"b\\c\xC3\xA9");
}

TEST(GenConfig, UnknownKeyListsTheKnownOnes) {
  std::string text = "[model.qwen]\nbase_url = \"http://x/v1\"\n  temprature = 0.8\n";
  expect_error_at(text, 3, "temprature", "unknown key 'temprature' in [model.qwen]");
  std::string err = parse_error(text);
  for (const char* k : {"base_url", "model", "api_key_env", "temperature", "top_p", "max_tokens", "seed", "timeout_s",
                        "retries", "backoff_s", "concurrency", "usd_per_mtok_in", "usd_per_mtok_out"})
    EXPECT_NE(err.find(k), std::string::npos) << k << " missing from: " << err;
  EXPECT_NE(err.find("did you mean 'temperature'?"), std::string::npos) << err;
  EXPECT_EQ(parse_error("[model.q]\nzzzzzz = 1\n").find("did you mean"), std::string::npos);
}

TEST(GenConfig, StringWhereANumberIsExpected) {
  std::string text = "[model.q]\ntemperature = \"0.8\"\n";
  expect_error_at(text, 2, "\"0.8\"", "expects a number, got the string");
  EXPECT_NE(parse_error(text).find("without quotes"), std::string::npos);
}

TEST(GenConfig, OtherTypeErrors) {
  expect_error_at("[model.q]\nmax_tokens = 10.5\n", 2, "10.5", "expects an integer");
  expect_error_at("[model.q]\nbase_url = 8000\n", 2, "8000", "expects a string");
  expect_error_at("[model.q]\nretries = true\n", 2, "true", "expects a number, got the boolean");
  expect_error_at("default = 3\n", 1, "3", "default expects a string");
  expect_error_at("[model.q]\ntop_p = 1.5\n", 2, "1.5", "must be in (0, 1]");
  expect_error_at("[model.q]\nconcurrency = 0\n", 2, "0", "must be >= 1");
  expect_error_at("[model.q]\ncontext_tokens = -1\n", 2, "-1", "must be >= 0");
  expect_error_at("[model.q]\nmodel = [1, 2]\n", 2, "[1", "expects a string, got an array");
  expect_error_line("[model.q]\nbase_url = http://x/v1\n", 2, "strings need quotes");
  expect_error_line("[model.q]\ntemperature = 0.8x\n", 2, "floating-point");
}

TEST(GenConfig, DuplicatesAreErrors) {
  expect_error_line("[model.q]\nmodel = \"a\"\n\n[model.q]\n", 4, "cannot redefine existing table 'model.q'");
  expect_error_line("[model.q]\nmodel = \"a\"\nmodel = \"b\"\n", 3, "cannot redefine existing string 'model'");
  expect_error_line("default = \"a\"\ndefault = \"b\"\n", 2, "merge the two");
  // The same key in two tables is fine.
  GenConfig c;
  std::string err;
  EXPECT_TRUE(parse_config("[model.a]\nmodel = \"x\"\n[model.b]\nmodel = \"x\"\n", "kgen.toml", c, err)) << err;
}

TEST(GenConfig, SyntaxErrors) {
  expect_error_at("[server]\n", 1, "server", "unknown table [server]");
  expect_error_line("[model.q\n", 1, "table header");
  expect_error_line("[model.q]\nmodel =\n", 2, "expected value");
  expect_error_line("[model.q]\nmodel = \"abc\n", 2, "closing quote missing");
  expect_error_line("[model.q]\nmodel \"abc\"\n", 2, "Error while parsing");
  expect_error_line("[model.q]\nmodel = \"a\" \"b\"\n", 2, "expected a comment or whitespace");
  expect_error_line("[[model.q]]\n", 1, "arrays of tables");
  expect_error_at("temperature = 0.8\n", 1, "temperature", "belong in a [model.NAME] table");
}

TEST(GenConfig, WholeTomlIsAccepted) {   // toml++ reads all of TOML: dotted keys and inline tables are tables too
  GenConfig c;
  std::string err;
  ASSERT_TRUE(parse_config("default = \"a\"\nmodel.a.base_url = \"http://x/v1\"\nmodel.b = { temperature = 0.5 }\n",
                           "kgen.toml", c, err)) << err;
  EXPECT_EQ(c.models.at("a").base_url, "http://x/v1");
  EXPECT_DOUBLE_EQ(c.models.at("b").temperature, 0.5);
}

TEST(GenConfig, LoadReportsAnUnreadableFile) {
  GenConfig c;
  std::string err;
  std::string missing = (fs::path(testing::TempDir()) / "kgen_no_such_dir" / "kgen.toml").string();
  EXPECT_FALSE(load_config(missing, c, err));
  EXPECT_NE(err.find(missing), std::string::npos) << err;
  EXPECT_NE(err.find("cannot read"), std::string::npos) << err;
}

TEST(GenConfig, LoadNamesTheFileInErrors) {
  fs::path p = fs::path(testing::TempDir()) / ("kgen_cfg_" + std::to_string(getpid()) + ".toml");
  { std::ofstream(p) << "[model.q]\nbogus = 1\n"; }
  GenConfig c;
  std::string err;
  EXPECT_FALSE(load_config(p.string(), c, err));
  EXPECT_EQ(err.rfind(p.string() + ":2:1: ", 0), 0u) << err;
  fs::remove(p);
}

TEST(GenConfig, FindConfigFileSearchOrder) {
  fs::path dir = fs::path(testing::TempDir()) / ("kgen_find_cfg_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "cwd");
  fs::create_directories(dir / "home" / ".config" / "kgen");
  fs::path old_cwd = fs::current_path();
  fs::current_path(dir / "cwd");
  {
    ScopedEnv home("HOME", (dir / "home").c_str());
    ScopedEnv cfg("KGEN_CONFIG", nullptr);
    EXPECT_EQ(find_config_file(""), "");  // none anywhere
    fs::path home_file = dir / "home" / ".config" / "kgen" / "kgen.toml";
    { std::ofstream(home_file) << "\n"; }
    EXPECT_EQ(find_config_file(""), home_file.string());
    { std::ofstream("kgen.toml") << "\n"; }
    EXPECT_EQ(find_config_file(""), "kgen.toml");  // ./kgen.toml before ~/.config
    {
      ScopedEnv env("KGEN_CONFIG", "/somewhere/else.toml");
      EXPECT_EQ(find_config_file(""), "/somewhere/else.toml");
      EXPECT_EQ(find_config_file("explicit.toml"), "explicit.toml");
    }
  }
  fs::current_path(old_cwd);
  fs::remove_all(dir);
}

TEST(GenConfig, ResolveFromATableWithOverrides) {
  GenConfig c;
  std::string err;
  ASSERT_TRUE(parse_config(kFull, "kgen.toml", c, err)) << err;
  ScopedEnv base("KGEN_BASE_URL", "http://from-env:1/v1");
  Endpoint ep;
  ASSERT_TRUE(resolve_endpoint(c, "qwen", {}, ep, err)) << err;
  EXPECT_EQ(ep.name, "qwen");
  EXPECT_EQ(ep.model, c.models.at("qwen").model);
  EXPECT_EQ(ep.base_url, c.models.at("qwen").base_url);  // the table beats $KGEN_BASE_URL
  EXPECT_EQ(ep.max_tokens, c.models.at("qwen").max_tokens);

  EndpointOverrides o;
  o.base_url = "http://override:2/v1";
  o.temperature = 0;  // 0 is a value, not "not given"
  o.max_tokens = 100;
  o.seed = 9;
  o.retries = 0;
  o.concurrency = 1;
  o.timeout_s = 5;
  o.top_p = 0.9;
  o.api_key_env = "OTHER_KEY";
  o.context_tokens = 8192;
  ASSERT_TRUE(resolve_endpoint(c, "qwen", o, ep, err)) << err;
  EXPECT_EQ(ep.context_tokens, 8192);
  EXPECT_EQ(ep.base_url, o.base_url);  // the command line beats the table
  EXPECT_EQ(ep.temperature, o.temperature);
  EXPECT_EQ(ep.max_tokens, o.max_tokens);
  EXPECT_EQ(ep.seed, o.seed);
  EXPECT_EQ(ep.retries, o.retries);
  EXPECT_EQ(ep.concurrency, o.concurrency);
  EXPECT_EQ(ep.timeout_s, o.timeout_s);
  EXPECT_EQ(ep.top_p, o.top_p);
  EXPECT_EQ(ep.api_key_env, o.api_key_env);
  EXPECT_EQ(ep.model, c.models.at("qwen").model);  // untouched

  // Empty model: the default table.
  ASSERT_TRUE(resolve_endpoint(c, "", {}, ep, err)) << err;
  EXPECT_EQ(ep.name, c.default_model);
}

TEST(GenConfig, ResolveAdHoc) {
  GenConfig none;
  std::string err;
  Endpoint ep;
  EndpointOverrides o;
  o.base_url = "http://127.0.0.1:11434/v1";
  {
    ScopedEnv base("KGEN_BASE_URL", nullptr);
    ASSERT_TRUE(resolve_endpoint(none, "qwen2.5-coder:7b", o, ep, err)) << err;
    EXPECT_EQ(ep.model, "qwen2.5-coder:7b");
    EXPECT_EQ(ep.name, "qwen2.5-coder:7b");
    EXPECT_EQ(ep.base_url, o.base_url);
    Endpoint defaults;
    EXPECT_EQ(ep.temperature, defaults.temperature);

    // No base URL anywhere: an error that says how to give one.
    EXPECT_FALSE(resolve_endpoint(none, "qwen2.5-coder:7b", {}, ep, err));
    EXPECT_NE(err.find("--base-url"), std::string::npos) << err;
    EXPECT_NE(err.find("KGEN_BASE_URL"), std::string::npos) << err;
  }
  {
    ScopedEnv base("KGEN_BASE_URL", "http://env-host:8000/v1");
    ASSERT_TRUE(resolve_endpoint(none, "m", {}, ep, err)) << err;
    EXPECT_EQ(ep.base_url, "http://env-host:8000/v1");
    ASSERT_TRUE(resolve_endpoint(none, "m", o, ep, err)) << err;
    EXPECT_EQ(ep.base_url, o.base_url);  // the command line beats the environment
  }
}

TEST(GenConfig, TableWithoutBaseUrl) {
  GenConfig c;
  std::string err;
  ASSERT_TRUE(parse_config("[model.q]\nmodel = \"x\"\n", "my.toml", c, err)) << err;
  Endpoint ep;
  ScopedEnv base("KGEN_BASE_URL", nullptr);
  EXPECT_FALSE(resolve_endpoint(c, "q", {}, ep, err));
  EXPECT_NE(err.find("[model.q]"), std::string::npos) << err;
  EXPECT_NE(err.find("my.toml"), std::string::npos) << err;
  ScopedEnv base2("KGEN_BASE_URL", "http://env:1/v1");
  ASSERT_TRUE(resolve_endpoint(c, "q", {}, ep, err)) << err;
  EXPECT_EQ(ep.base_url, "http://env:1/v1");  // the environment fills what the table lacks
}

TEST(GenConfig, NoModelTeachesTheSetup) {
  GenConfig none;
  std::string err;
  Endpoint ep;
  EXPECT_FALSE(resolve_endpoint(none, "", {}, ep, err));
  for (const char* s : {"kgen.toml", "--model", "--base-url", "[model.", "base_url = ", "docs/generation.md"})
    EXPECT_NE(err.find(s), std::string::npos) << s << " missing from: " << err;

  // Tables but no default: the message names them.
  GenConfig c;
  ASSERT_TRUE(parse_config("[model.alpha]\nbase_url = \"http://a/v1\"\n", "k.toml", c, err)) << err;
  EXPECT_FALSE(resolve_endpoint(c, "", {}, ep, err));
  EXPECT_NE(err.find("alpha"), std::string::npos) << err;
}

TEST(GenConfig, ResolveRejectsBadOverrides) {
  GenConfig none;
  std::string err;
  Endpoint ep;
  EndpointOverrides o;
  o.base_url = "http://x/v1";
  o.top_p = 0;
  EXPECT_FALSE(resolve_endpoint(none, "m", o, ep, err));
  EXPECT_NE(err.find("top_p"), std::string::npos) << err;
}
