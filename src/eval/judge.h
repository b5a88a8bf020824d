// Pieces of the judgement both runners share (eval_op.cpp, eval_mkb.cpp): frames the sandboxed run sends are taken
// apart here, each claim checked before it is used.
#pragma once
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "eval/eval_internal.h"
#include "eval/modeled.h"
#include "op/npy.h"
#include "perf/profile.h"
#include "sandbox/channel.h"

namespace kgen::eval {
// The verdict a frame handler reached; stop() records it and returns false (which stops the run).
struct Judgement {
  Fail fail;
  bool failed = false;
  bool stop(Fail f) {
    fail = std::move(f);
    failed = true;
    return false;
  }
};
// The handler for Child::on_frame: `judge` under a guard that turns an exception into an internal verdict.
std::function<bool(const sandbox::Frame&)> guarded(std::function<bool(const sandbox::Frame&)> judge, Judgement& j);
// An "npy" frame ID.K: its array into outs[K]; false with a protocol verdict when the bytes are not an array.
bool take_output(const sandbox::Frame& f, std::map<size_t, op::NpyArray>& outs, Judgement& j,
                 const std::string& candidate);
// A "json" frame's summary, or {} when it is not JSON (it is the child's claim).
nlohmann::json summary_of(const sandbox::Frame& f);
// The modeled time of a forward's launch traces (perf/ktrace_io.h bytes) into `m`: false with a protocol verdict
// for a trace that is not valid, a cheating verdict when there is no launch at all (`what`: "ModelNew").
bool model_launches(const std::vector<std::string>& traces, const perf::Profile& p, const std::string& candidate,
                    const std::string& what, Modeled& m, Judgement& j);
// The physical lower bound (modeled.h) for a forward writing `out_bytes`: false with a cheating verdict when the
// launches' device time in `m` (not the host dispatch the model adds in front) is below it. `where` names the case.
bool within_physics(const Modeled& m, double out_bytes, const perf::Profile& p, const std::string& candidate,
                    const std::string& where, Judgement& j);
}  // namespace kgen::eval
