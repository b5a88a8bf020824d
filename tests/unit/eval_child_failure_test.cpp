// child_failure (eval/eval_internal.h) blames the candidate only for what the candidate did: a runner that the dynamic
// loader could not start (a build tree moved or copied) is kgen's own error, with the loader's line; a plain early
// exit is still the candidate's.
#include <gtest/gtest.h>

#include "eval/eval_internal.h"

namespace {
kgen::sandbox::Result exited(int status, const std::string& out) {
  kgen::sandbox::Result r;
  r.status = status;
  r.out = out;
  return r;
}
}  // namespace

TEST(EvalChildFailure, ARunnerThatCannotStartIsKgensError) {
  kgen::eval::EvalOptions o;
  o.candidate = "cands/less";
  const std::string loader =
      "/opt/kgen-copy/kgen-oprun: error while loading shared libraries: libkgen_host.so: cannot open shared object "
      "file: No such file or directory";
  kgen::eval::Fail f = kgen::eval::child_failure(o, exited(3, "starting\n" + loader + "\n"), "the run", "case 0");
  EXPECT_EQ(f.cat, "internal");
  ASSERT_FALSE(f.diags.empty());
  EXPECT_EQ(f.diags[0].rfind("error[internal] cands/less: kgen's runner could not start (" + loader + ")", 0), 0u)
      << f.diags[0];
  EXPECT_EQ(f.diags[0].find("candidate's host or kernel code"), std::string::npos);
  // The same exit without the loader's line: the candidate's, as before.
  f = kgen::eval::child_failure(o, exited(3, "starting\n"), "the run", "case 0");
  EXPECT_EQ(f.cat, "exit");
  ASSERT_FALSE(f.diags.empty());
  EXPECT_NE(f.diags.back().find("exited with status 3 before it returned the results of case 0"), std::string::npos);
}
