// Test support: run AscendC API calls on one emulated core without a launch, and capture emulator errors.
#pragma once
#include <memory>
#include <string>

#include "sim/buffer_overrun.h"
#include "sim/core.h"
#include "sim/double_set_flag.h"
#include "sim/gm_races.h"
#include "sim/launch.h"
#include "sim/stale_tensor.h"

namespace kgen::sim {
// While alive, API calls run on a fresh core of the given SoC (block 0 of 1). Errors throw SimError.
class TestCore {
 public:
  explicit TestCore(const char* soc = "Ascend910B2") : core_(make_core(*find_soc(soc), 0, 1)) {
    set_cur(core_.get());
    set_throw_on_error(true);
    gm_races_reset();   // GM history belongs to one run, like a launch's, and so do its warnings' counts
    reset_stale_uses();
    reset_double_sets();
    reset_buffer_overruns();
  }
  ~TestCore() { set_cur(nullptr); }
  Core& core() { return *core_; }

 private:
  std::unique_ptr<Core> core_;
};

// The error line a call raises, or "" if it succeeds.
template <class F> std::string error_of(F&& f) {
  try {
    f();
    if (Core* c = cur_or_null()) settle_races(*c);   // the call's racing writes are done: judge them now
  } catch (const SimError& e) {
    return e.line;
  }
  return "";
}
}  // namespace kgen::sim
