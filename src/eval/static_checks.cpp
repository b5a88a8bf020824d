// Anti-cheat checks on a candidate's sources (see static_checks.h for the rules).
#include "eval/static_checks.h"
#include "op/project.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "sandbox/paths.h"
#include "sandbox/sandbox.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;

struct Lit {
  int line;
  std::string text;
};

// Blanks comments and the contents of string/char literals (newlines kept, so line numbers hold); collects the
// string literals with their lines.
std::string strip(const std::string& s, std::vector<Lit>& lits) {
  std::string out = s;
  size_t i = 0, n = s.size();
  int line = 1;
  auto blank = [&](size_t k) {
    if (out[k] != '\n') out[k] = ' ';
  };
  while (i < n) {
    char c = s[i];
    if (c == '\n') { ++line; ++i; continue; }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') blank(i++);
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      blank(i++);
      blank(i++);
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        blank(i++);
      }
      if (i < n) { blank(i++); blank(i++); }
      continue;
    }
    if (c == '"' || c == '\'') {
      int start_line = line;
      std::string lit;
      ++i;
      while (i < n && s[i] != c && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n) { lit += s[i]; blank(i++); }
        lit += s[i];
        blank(i++);
      }
      ++i;
      if (c == '"') lits.push_back({start_line, lit});
      continue;
    }
    ++i;
  }
  return out;
}

const std::set<std::string>& alloc_ok() {
  static const std::set<std::string> s = {"empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full",
                                          "full_like", "empty_strided", "TensorOptions", "Tensor", "IntArrayRef",
                                          "Scalar", "optional", "Device", "dtype", "device"};
  return s;
}

std::string diag(const std::string& file, int line, const std::string& what, const std::string& why) {
  return "cheating " + file + ":" + std::to_string(line) + ": " + what + " — " + why;
}
}  // namespace

std::vector<std::string> check_cpp_source(const std::string& file, const std::string& text, int first_line,
                                          bool binding) {
  std::vector<std::string> out;
  std::vector<Lit> lits;
  // Includes are checked on the raw text (the stripper blanks the "path" of #include "x.h").
  {
    std::istringstream in(text);
    std::string l;
    int ln = 0;
    static const std::regex inc(R"(^\s*#\s*include\s*[<"]((torch|ATen|c10|aclnnop)/[^>"]*|aclnn_[^>"]*)[>"])");
    std::smatch m;
    while (std::getline(in, l)) {
      ++ln;
      if (!binding && std::regex_search(l, m, inc))
        out.push_back(diag(file, first_line + ln - 1, "#include <" + m[1].str() + ">",
                           "the candidate must compute with its own AscendC kernel, not with PyTorch/ATen/aclnn "
                           "built-in operators"));
    }
  }
  std::string code = strip(text, lits);
  // Functions the candidate defines itself: a helper named read() or write() is its own code, not the C library's.
  std::set<std::string> own;
  {
    static const std::regex def(R"(\b([A-Za-z_]\w*)\s*\([^;{}()]*(?:\([^()]*\)[^;{}()]*)*\)\s*(?:const\s*)?)"
                                R"((?:noexcept\s*)?(?:override\s*)?(?:->\s*[\w:<>]+\s*)?\{)");
    static const std::set<std::string> keywords = {"if", "for", "while", "switch", "catch", "return", "sizeof",
                                                   "decltype", "alignof", "static_assert"};
    for (auto it = std::sregex_iterator(code.begin(), code.end(), def); it != std::sregex_iterator(); ++it)
      if (!keywords.count((*it)[1].str())) own.insert((*it)[1].str());
  }
  std::istringstream in(code);
  std::string l;
  int ln = 0;
  static const std::regex torch_call(R"(\b(at|torch)::((?:\w+::)*)([a-z_]\w*)\s*\()");
  static const std::regex aclnn_call(R"(\b(aclnn\w*)\s*\()");
  static const std::regex file_call(
      R"((^|[^\w.>:])(fopen|fopen64|freopen|open|openat|creat|popen|system|execl|execlp|execle|execv|execvp|execve|mmap|dlopen|fread|read)\s*\()");
  static const std::regex stream_tok(R"(\b(ifstream|fstream|filebuf|std::filesystem|FILE\s*\*))");
  static const std::regex env_tok(R"(\b(getenv|secure_getenv|environ|__environ)\b)");
  // What reaches past the kernel's API inside the evaluator's process: memory maps and protections, signals,
  // other processes and threads, raw file descriptors, directories, sockets, the dynamic linker.
  static const std::regex escape_call(
      R"((^|[^\w.>:])(syscall|mprotect|munmap|mremap|madvise|dlsym|dlvsym|sigaction|signal|sigaltstack|ptrace|kill|)"
      R"(tgkill|raise|fork|vfork|clone|setns|unshare|socket|connect|opendir|fdopendir|readdir|scandir|nftw|ftw|glob|)"
      R"(write|pwrite|writev|pread|sendto|sendmsg|pthread_create|prctl|process_vm_readv|process_vm_writev|memfd_create|)"
      R"(dup2|dup3|ioctl|getauxval|__builtin_frame_address|__builtin_return_address)\s*\()");
  static const std::regex asm_tok(R"(\b(asm|__asm__|__asm)\b)");
  static const std::regex thread_tok(R"(\bstd\s*::\s*(thread|jthread|async)\b)");
  static const std::regex ctor_tok(R"(__attribute__\s*\(\s*\(\s*(constructor|destructor))");
  static const std::regex kgen_tok(R"(\b\w*[kK][gG][eE][nN]\w*\b)");
  while (std::getline(in, l)) {
    ++ln;
    int at = first_line + ln - 1;
    std::smatch m;
    for (auto it = std::sregex_iterator(l.begin(), l.end(), torch_call); it != std::sregex_iterator(); ++it) {
      std::string name = (*it)[3].str();
      if (alloc_ok().count(name)) continue;
      out.push_back(diag(file, at, (*it)[1].str() + "::" + (*it)[2].str() + name + "(...) call",
                         "a PyTorch/ATen computation does the work instead of the candidate's kernel"));
    }
    for (auto it = std::sregex_iterator(l.begin(), l.end(), aclnn_call); it != std::sregex_iterator(); ++it) {
      std::string name = (*it)[1].str();
      static const std::regex own_op(R"(aclnn\w*Custom(GetWorkspaceSize)?)");
      if (std::regex_match(name, own_op)) continue;
      out.push_back(diag(file, at, name + "(...) call",
                         "a built-in CANN (aclnn) operator does the work instead of the candidate's kernel"));
    }
    if (std::regex_search(l, m, file_call) && !own.count(m[2].str()))
      out.push_back(diag(file, at, m[2].str() + "(...) call",
                         "a candidate may not read files or start processes (reference outputs, the task file)"));
    else if (std::regex_search(l, m, stream_tok))
      out.push_back(diag(file, at, "uses " + m[1].str(),
                         "a candidate may not read files (reference outputs, the task file, the test inputs)"));
    if (std::regex_search(l, m, env_tok))
      out.push_back(diag(file, at, "reads the environment (" + m[1].str() + ")",
                         "KGEN_* variables and the run's paths identify the test; a kernel may not special-case it"));
    if (std::regex_search(l, m, escape_call) && !own.count(m[2].str()))
      out.push_back(diag(file, at, m[2].str() + "(...) call",
                         "it reaches past the AscendC API into the evaluator's process (memory protections, "
                         "signals, processes, threads, file descriptors, the dynamic linker)"));
    if (std::regex_search(l, m, asm_tok))
      out.push_back(diag(file, at, "inline assembly (" + m[1].str() + ")",
                         "a kernel is AscendC, and assembly can do anything to the evaluator's process"));
    if (std::regex_search(l, m, thread_tok))
      out.push_back(diag(file, at, "std::" + m[1].str(),
                         "a thread of its own would run beside the emulated cores, outside the API"));
    if (std::regex_search(l, m, ctor_tok))
      out.push_back(diag(file, at, "__attribute__((" + m[1].str() + "))",
                         "code that runs when the library loads is outside the op's API"));
    if (!binding && std::regex_search(l, m, kgen_tok))
      out.push_back(diag(file, at, "names '" + m[0].str() + "'",
                         "kgen's own code lives in this process; a candidate uses the AscendC API, not the evaluator"));
  }
  // Strings that name the test's files: reference data, the cache, the run's own inputs folder.
  static const std::regex bad_lit(
      R"((input|output)_\d+\.npy|\bKGEN_|/ref/|\btasks/|\.cache/kgen|^/proc\b|/proc/|/kgen/in\b|runs\.json|manifest\.json|\.py$)");
  for (const Lit& lit : lits)
    if (std::regex_search(lit.text, bad_lit))
      out.push_back(diag(file, first_line + lit.line - 1, "string \"" + lit.text + "\"",
                         "names a file of the test (inputs, reference outputs, the task, kgen's cache or /proc)"));
  return out;
}

std::vector<std::string> check_op_project(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    // Every file: any of them can be #included (a .inl, a .txt); candidate_files.h has already refused non-text.
    if (!it->is_regular_file() || it->is_symlink()) continue;
    std::string ext = it->path().extension().string();
    if (ext != ".json" && ext != ".md") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> texts;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    texts.push_back(ss.str());
  }
  // The aclnn layer of a cann-ops project is never built (op/project.h): what it calls (CANN's own aclnn kernels)
  // cannot run, unless a file that is built includes it. Reached: included, directly or not, by a checked file.
  std::vector<bool> checked(files.size());
  for (size_t i = 0; i < files.size(); ++i) checked[i] = !op::aclnn_layer_file(files[i].string());
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < files.size(); ++i) {
      if (checked[i]) continue;
      const std::regex inc("#\\s*include\\s*[\"<][^\">]*" +
                           std::regex_replace(files[i].filename().string(), std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                           "[\">]");
      for (size_t k = 0; k < files.size() && !checked[i]; ++k)
        if (checked[k] && std::regex_search(texts[k], inc)) checked[i] = grew = true;
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (!checked[i]) continue;
    auto d = check_cpp_source(files[i].string(), texts[i]);
    out.insert(out.end(), d.begin(), d.end());
  }
  return out;
}

std::vector<std::string> check_mkb_submission(const std::string& submission, const std::string& python,
                                              std::string& error) {
  std::vector<std::string> out;
  std::string helper = kgen::sandbox::paths().source_dir + "/python/kgen_eval/static_mkb.py";
  // The submission is parsed (never run) by Python's ast, in the sandbox all the same: it is hostile input.
  sandbox::Child c;
  c.argv = {python, "-B", helper, std::filesystem::absolute(submission).string()};
  c.clear_env = true;
  sandbox::Policy pol;
  pol.binds = {{kgen::sandbox::paths().source_dir + "/python", false},
               {std::filesystem::absolute(submission).string(), false}};
  pol.processes = 16;
  sandbox::Limits lim;
  lim.wall_s = 60;
  lim.memory_bytes = 4ull << 30;
  sandbox::Result r = sandbox::run(c, lim, pol, sandbox::default_mode());
  nlohmann::json j;
  size_t brace = r.out.find('{');
  try {
    if (r.status != 0 || brace == std::string::npos) throw std::runtime_error("no JSON");
    j = nlohmann::json::parse(r.out.substr(brace));
  } catch (const std::exception&) {
    error = "the static check of " + submission + " failed (" + helper + ", status " + std::to_string(r.status) +
            "): " + r.out;
    return out;
  }
  for (const auto& s : j["sources"]) {
    std::string name = s["name"].get<std::string>();
    auto d = check_cpp_source(submission, s["text"].get<std::string>(), s["line"].get<int>(), name == "python_bind_src");
    for (auto& x : d) {
      out.push_back(x + " (in " + name + ")");
    }
  }
  for (const auto& f : j["findings"]) out.push_back(f.get<std::string>());
  return out;
}
}  // namespace kgen::eval
