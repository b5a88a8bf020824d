// Reads the KGEN_TRACE JSON (src/sim/trace.cpp) into the model's input.
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "perf/model.h"

namespace kgen::perf {
namespace {
int pipe_index(const std::string& s) {
  static const char* n[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
  for (int i = 0; i < kPipes; ++i)
    if (s == n[i]) return i;
  return P_S;
}
uint8_t dtype_index(const std::string& s) {
  static const char* n[] = {"half", "bfloat16_t", "float", "double", "int8_t", "uint8_t", "int16_t",
                            "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "bool", "unknown"};
  for (uint8_t i = 0; i < 14; ++i)
    if (s == n[i]) return i;
  return 13;
}
}  // namespace

bool load_trace_json(const std::string& path, KTrace& out, std::string& err) {
  std::ifstream in(path);
  if (!in) { err = "cannot open " + path; return false; }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    err = path + ": not JSON: " + e.what();
    return false;
  }
  if (!j.is_object() || !j.contains("kgen_trace") || !j.contains("cores")) {
    err = path + ": not a kgen trace (write one with KGEN_TRACE=FILE)";
    return false;
  }
  try {
    out = KTrace{};
    out.kernel = j.value("kernel", "");
    out.soc = j.value("soc", "");
    out.block_dim = j.value("block_dim", 0u);
    out.apis.push_back("");
    std::unordered_map<std::string, int32_t> events;   // HardEvent names -> small ids
    for (const auto& c : j.at("cores")) {
      KCore kc;
      kc.block = c.value("block", 0);
      kc.aic = c.value("core_type", "AIV") == "AIC";
      kc.sub_block = c.value("sub_block", 0);
      const auto& recs = c.at("records");
      kc.ops.reserve(recs.size());
      for (const auto& r : recs) {
        Op o;
        std::string k = r.at("k").get<std::string>();
        o.line = r.value("line", 0u);
        if (k == "instr") {
          o.kind = Op::Instr;
          o.pipe = o.pipe2 = static_cast<uint8_t>(pipe_index(r.value("pipe", "S")));
          o.api = out.intern(r.value("api", ""));
          o.dtype = dtype_index(r.value("dtype", "unknown"));
          o.elems = r.value("elems", 0ull);
          o.bytes = r.value("bytes", 0ull);
          o.repeats = r.value("repeats", 0u);
          o.count = r.value("count", 1u);
          o.m = r.value("cube_m", 0u);
          o.n = r.value("cube_n", 0u);
          o.k = r.value("cube_k", 0u);
          if (r.contains("gm_buf")) {
            o.gm_buf = r.at("gm_buf").get<int64_t>();
            o.gm_off = r.value("gm_off", 0ull);
            o.gm_rows = r.value("gm_rows", 0u);
            o.gm_stride = r.value("gm_stride", 0u);
          }
        } else if (k == "set_flag" || k == "wait_flag") {
          o.kind = k == "set_flag" ? Op::SetFlag : Op::WaitFlag;
          o.pipe = static_cast<uint8_t>(pipe_index(r.value("src", "S")));
          o.pipe2 = static_cast<uint8_t>(pipe_index(r.value("dst", "S")));
          auto it = events.emplace(r.value("event", ""), static_cast<int32_t>(events.size())).first;
          o.event = it->second;
          o.id = r.value("id", 0);
        } else if (k == "barrier") {
          o.kind = Op::Barrier;
          std::string p = r.value("pipe", "ALL");
          o.event = p == "ALL" ? 6 : 1;
          o.pipe = o.pipe2 = static_cast<uint8_t>(p == "ALL" ? P_S : pipe_index(p));
        } else if (k == "sync_all") {
          o.kind = Op::SyncAll;
          o.id = r.value("generation", 0);
        } else if (k == "cross_set" || k == "cross_wait") {
          o.kind = k == "cross_set" ? Op::CrossSet : Op::CrossWait;
          o.pipe = o.pipe2 = static_cast<uint8_t>(pipe_index(r.value("pipe", "S")));
          o.event = r.value("mode", 0);
          o.id = r.value("flag", 0);
        } else if (k == "enque" || k == "deque" || k == "alloc" || k == "free") {
          o.kind = k == "enque" ? Op::EnQue : k == "deque" ? Op::DeQue : k == "alloc" ? Op::AllocTensor : Op::FreeTensor;
          o.pipe = static_cast<uint8_t>(pipe_index(r.value("src", "S")));
          o.pipe2 = static_cast<uint8_t>(pipe_index(r.value("dst", "S")));
          o.event = r.value("queue", 0);
          o.id = r.value("buffer", 0);
        } else {
          continue;   // unknown record kinds of newer traces are skipped
        }
        kc.ops.push_back(o);
      }
      out.cores.push_back(std::move(kc));
    }
  } catch (const std::exception& e) {
    err = path + ": malformed kgen trace: " + e.what();
    return false;
  }
  return true;
}
}  // namespace kgen::perf
