// Frame handling shared by the op-project and MultiKernelBench runners (see judge.h).
#include "eval/judge.h"

#include <fmt/core.h>

namespace kgen::eval {
std::function<bool(const sandbox::Frame&)> guarded(std::function<bool(const sandbox::Frame&)> judge, Judgement& j) {
  return [judge = std::move(judge), &j](const sandbox::Frame& f) {
    try {
      return judge(f);
    } catch (const std::exception& e) {
      return j.stop({Verdict::RuntimeError, "internal", {std::string("error[internal] kgen eval: ") + e.what()}});
    }
  };
}

bool take_output(const sandbox::Frame& f, std::map<size_t, op::NpyArray>& outs, Judgement& j,
                 const std::string& candidate) {
  op::NpyArray a;
  if (std::string e = op::parse_npy(f.data, a, "output " + f.name); !e.empty())
    return j.stop({Verdict::RuntimeError, "protocol", {"error[protocol] " + candidate + ": " + e}});
  size_t dot = f.name.find('.');
  outs[dot == std::string::npos ? 0 : std::strtoul(f.name.c_str() + dot + 1, nullptr, 10)] = std::move(a);
  return true;
}

nlohmann::json summary_of(const sandbox::Frame& f) {
  try {
    nlohmann::json j = nlohmann::json::parse(f.data);
    return j.is_object() ? j : nlohmann::json::object();
  } catch (...) {
    return nlohmann::json::object();
  }
}

bool model_launches(const std::vector<std::string>& traces, const perf::Profile& p, const std::string& candidate,
                    const std::string& what, Modeled& m, Judgement& j) {
  std::string err;
  for (const std::string& tr : traces)
    if (!add_launch(tr, p, true, m, err))
      return j.stop({Verdict::RuntimeError, "protocol",
                     {"error[protocol] " + candidate + ": a launch trace that is not valid (" + err + ")"}});
  if (traces.empty())
    return j.stop({Verdict::Cheating, "", {"cheating " + candidate + ": " + what + " returned its outputs without "
                                           "launching a kernel"}});
  return true;
}

bool within_physics(const Modeled& m, double out_bytes, const perf::Profile& p, const std::string& candidate,
                    const std::string& where, Judgement& j) {
  // The device's time, not the host dispatch in front of it: the host's share is the model's, not the trace's.
  const double lb = lower_bound_us(out_bytes, 1, p);
  if (m.device_us >= lb * 0.999) return true;
  return j.stop({Verdict::Cheating, "",
                 {fmt::format("cheating {}: {}the launch trace models {:.3f} us, below the physical lower bound of "
                              "{:.3f} us (launch + {:.0f} bytes of outputs written at {:.0f} GB/s, the fastest {} "
                              "can move them) — the trace is not the kernel's work",
                              candidate, where, m.device_us, lb, out_bytes, bound_gbps(out_bytes, p), p.name)}});
}
}  // namespace kgen::eval
