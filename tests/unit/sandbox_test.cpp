// The sandbox itself (src/sandbox/sandbox.h), probed with small shell and Python programs run through
// sandbox::run as a candidate would be: what it sees, what it may change, what outlives it, the limits.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "sandbox/cgroup.h"
#include "sandbox/channel.h"
#include "sandbox/sandbox.h"

namespace fs = std::filesystem;
using namespace kgen::sandbox;

namespace {
class Sandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!available(&why)) GTEST_SKIP() << "no sandbox on this machine: " << why;
    dir_ = fs::temp_directory_path() / ("kgen-sandbox-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // Runs `sh -c script` (or argv) in the sandbox with policy p.
  Result sh(const std::string& script, Policy p = Policy{}, Limits l = Limits{}, Mode m = Mode::Isolated) {
    Child c;
    c.argv = {"/bin/bash", "-c", script};
    c.clear_env = true;
    if (l.wall_s == 0) l.wall_s = 60;
    return run(c, l, p, m);
  }
  fs::path dir_;
};

bool process_with(const std::string& marker) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "cmdline");
    std::string cmd((std::istreambuf_iterator<char>(in)), {});
    if (cmd.find(marker) != std::string::npos && e.path().filename() != std::to_string(getpid())) return true;
  }
  return false;
}
}  // namespace

TEST_F(Sandbox, SeesOnlyTheToolchainItsBindsAndItsOwnTmp) {
  std::ofstream(dir_ / "secret.txt") << "reference output";
  std::ofstream(dir_ / "visible.txt") << "input";
  Policy p;
  p.binds.push_back({(dir_ / "visible.txt").string(), false});
  Result r = sh("id -u; test -e " + (dir_ / "secret.txt").string() + " && echo SECRET; cat " +
                    (dir_ / "visible.txt").string() + "; echo; test -e /etc/passwd && echo PASSWD; test -e /proc/self "
                    "&& echo PROC; ls /root 2>/dev/null && echo ROOT; echo x > /tmp/w && echo TMP_OK; "
                    "echo x > " + (dir_ / "visible.txt").string() + " 2>/dev/null && echo WROTE_BIND; "
                    "echo x > /new 2>/dev/null && echo WROTE_ROOT; g++ --version >/dev/null && echo GXX",
                p);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("65534"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("input"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TMP_OK"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GXX"), std::string::npos) << r.out;
  for (const char* leak : {"SECRET", "PASSWD", "PROC", "ROOT", "WROTE_BIND", "WROTE_ROOT"})
    EXPECT_EQ(r.out.find(leak), std::string::npos) << leak << ": " << r.out;
  std::ifstream in(dir_ / "visible.txt");
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), "input");
}

TEST_F(Sandbox, HiddenFilesAreReadableButNotListable) {
  std::ofstream(dir_ / "input_000.npy") << "data";
  Policy p;
  std::string inside = hide_file(p, (dir_ / "input_000.npy").string(), Mode::Isolated);
  EXPECT_EQ(inside.rfind("/kgen/in/", 0), 0u) << inside;
  Result r = sh("cat " + inside + "; echo; ls /kgen/in >/dev/null 2>&1 && echo LISTED; "
                "chmod 755 /kgen/in 2>/dev/null && echo CHMOD; echo done", p);
  EXPECT_NE(r.out.find("data"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("LISTED"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("CHMOD"), std::string::npos) << r.out;
}

TEST_F(Sandbox, TheEnvironmentIsOnlyWhatTheParentGives) {
  setenv("KGEN_TEST_CANARY", "leaked", 1);
  Child c;
  c.argv = {"/usr/bin/env"};
  c.clear_env = true;
  c.env = {"GIVEN=yes"};
  Limits l;
  l.wall_s = 30;
  Result r = run(c, l, Policy{}, Mode::Isolated);
  EXPECT_EQ(r.out.find("KGEN_TEST_CANARY"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GIVEN=yes"), std::string::npos) << r.out;
  unsetenv("KGEN_TEST_CANARY");
}

TEST_F(Sandbox, KillingItsParentAndEveryoneHarmsOnlyItself) {
  // In its own PID namespace the parent is not visible: kill(getppid()) and kill(-1) reach the sandbox's processes.
  Result r = sh("kill -9 $PPID 2>/dev/null; kill -9 -1 2>/dev/null; echo alive");
  SUCCEED() << r.out;   // this process is still running: that is the assertion
  EXPECT_NE(r.status, -1);
}

TEST_F(Sandbox, DaemonsDieWithTheRun) {
  const std::string marker = "kgen_sandbox_daemon_" + std::to_string(getpid());
  const std::string script =
      "setsid bash -c 'exec -a " + marker + " sleep 300' </dev/null >/dev/null 2>&1 & sleep 0.5; echo started";
  // The control: without the sandbox the daemon does outlive the run (so the check below can fail).
  sh(script, Policy{}, Limits{}, Mode::Unsafe);
  bool control = false;
  for (int i = 0; i < 100 && !control; ++i) {   // a loaded machine may take a while to start it
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    control = process_with(marker);
  }
  ASSERT_TRUE(control) << "the control daemon did not start";
  std::system(("pkill -f " + marker).c_str());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Result r = sh(script);
  EXPECT_NE(r.out.find("started"), std::string::npos) << r.out;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(process_with(marker)) << "a daemon outlived its sandbox";
}

TEST_F(Sandbox, TheWallClockLimitKillsTheWholeTree) {
  const std::string marker = "kgen_sandbox_sleeper_" + std::to_string(getpid());
  Limits l;
  l.wall_s = 1;
  auto t0 = std::chrono::steady_clock::now();
  Result r = sh("(exec -a " + marker + " sleep 300) & exec -a " + marker + " sleep 300", Policy{}, l);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(s, 10);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(process_with(marker));
}

TEST_F(Sandbox, NoNetworkNotEvenTheHostsLoopback) {
  int srv = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(srv, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(srv, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(srv, 4), 0);
  socklen_t len = sizeof a;
  getsockname(srv, reinterpret_cast<sockaddr*>(&a), &len);
  const int port = ntohs(a.sin_port);
  const std::string probe = "/usr/bin/python3 -c \"import socket; s = socket.socket(); s.settimeout(3); "
                            "print('CONNECTED' if s.connect_ex(('127.0.0.1', " + std::to_string(port) +
                            ")) == 0 else 'refused')\"";
  Result control = sh(probe, Policy{}, Limits{}, Mode::Unsafe);   // the listener is reachable from the host
  EXPECT_NE(control.out.find("CONNECTED"), std::string::npos) << control.out;
  Result r = sh(probe);
  close(srv);
  EXPECT_NE(r.out.find("refused"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("CONNECTED"), std::string::npos) << r.out;
}

TEST_F(Sandbox, TheSeccompFilterRefusesWhatReachesOut) {
  // ptrace, unshare, setns and mount fail with EPERM (ctypes calls them directly).
  Result r = sh("/usr/bin/python3 -c \"import ctypes, os; c = ctypes.CDLL(None, use_errno=True); "
                "print('ptrace', c.ptrace(16, os.getppid(), 0, 0), ctypes.get_errno()); "
                "print('unshare', c.unshare(0x40000000), ctypes.get_errno()); "
                "print('mount', c.mount(b'none', b'/tmp', b'tmpfs', 0, 0), ctypes.get_errno())\"");
  EXPECT_NE(r.out.find("ptrace -1 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unshare -1 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mount -1 1"), std::string::npos) << r.out;
}

TEST_F(Sandbox, DiskFileSizeAndMemoryAreLimited) {
  Policy p;
  p.tmp_bytes = 8 << 20;
  Result r = sh("dd if=/dev/zero of=/tmp/big bs=1M count=20 2>/dev/null; ls -l /tmp/big | awk '{print $5}'", p);
  EXPECT_EQ(r.out.find("20971520"), std::string::npos) << "the 8 MiB /tmp took 20 MiB: " << r.out;
  Limits l;
  l.file_bytes = 1 << 20;
  r = sh("exec dd if=/dev/zero of=/tmp/f bs=1M count=4", Policy{}, l);
  EXPECT_EQ(r.status, 128 + SIGXFSZ) << r.out;
  l = Limits{};
  l.memory_bytes = 256ull << 20;
  r = sh("/usr/bin/python3 -c \"b = bytearray(1 << 30); print('ALLOCATED')\"", Policy{}, l);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.out.find("ALLOCATED"), std::string::npos) << r.out;
}

TEST_F(Sandbox, ProcessesAreCappedWhereACgroupCanBeMade) {
  std::string where;
  if (!pids_cgroup_available(&where)) GTEST_SKIP() << "no writable pids cgroup here";
  Policy p;
  p.processes = 16;
  Result r = sh("/usr/bin/python3 -c \"import os, time\nn = 0\ntry:\n    for i in range(100):\n"
                "        if os.fork() == 0:\n            time.sleep(2); os._exit(0)\n        n += 1\nexcept OSError:\n"
                "    pass\nprint('forked', n)\"", p);
  size_t at = r.out.find("forked ");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_LT(std::stoi(r.out.substr(at + 7)), 20) << r.out;
}

TEST_F(Sandbox, OutputIsValidUtf8AndChannelFramesComeBack) {
  Child c;
  c.argv = {"/bin/sh", "-c", "printf 'bad \\377\\376 bytes\\n'; printf 'KGF1 json run 2\\n{}' >&3"};
  c.clear_env = true;
  Limits l;
  l.wall_s = 30;
  l.channel_bytes = 1 << 20;
  Result r = run(c, l, Policy{}, Mode::Isolated);
  EXPECT_NE(r.out.find("bad \\xff\\xfe bytes"), std::string::npos) << r.out;
  ASSERT_EQ(r.frames.size(), 1u);
  EXPECT_EQ(r.frames[0].kind, "json");
  EXPECT_EQ(r.frames[0].data, "{}");
  c.argv = {"/bin/sh", "-c", "printf 'not a frame\\n' >&3"};
  r = run(c, l, Policy{}, Mode::Isolated);
  EXPECT_FALSE(r.channel_error.empty());
}

TEST(FrameParser, SplitsFramesAcrossReadsAndRefusesJunk) {
  FrameParser p;
  std::vector<Frame> out;
  std::string s = "KGF1 npy c0t0.0 3\nabcKGF1 json c0t0 2\n{}";
  for (char ch : s) ASSERT_TRUE(p.feed(&ch, 1, out));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].name, "c0t0.0");
  EXPECT_EQ(out[0].data, "abc");
  EXPECT_TRUE(p.clean_end());
  FrameParser q;
  std::string bad = "KGF1 npy ../etc/passwd 3\nabc";
  EXPECT_FALSE(q.feed(bad.data(), bad.size(), out));
  FrameParser r;
  std::string big = "KGF1 npy x 99999999999999999\n";
  EXPECT_FALSE(r.feed(big.data(), big.size(), out));
}

// A frame larger than what the parser sizes its buffer for up front still arrives whole; one announcing a petabyte
// reserves no more than the limit (the parent's own bound on the channel).
TEST(FrameParser, FramesPastTheReserveLimitGrow) {
  FrameParser p(16);
  std::vector<Frame> out;
  std::string payload(1000, 'x');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>('a' + i % 26);
  std::string s = "KGF1 trace c0t0 1000\n" + payload;
  for (size_t i = 0; i < s.size(); i += 7) ASSERT_TRUE(p.feed(s.data() + i, std::min<size_t>(7, s.size() - i), out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, payload);
  FrameParser q(1 << 20);
  std::string huge = "KGF1 trace c0t0 999999999999999\nabc";
  ASSERT_TRUE(q.feed(huge.data(), huge.size(), out));
  EXPECT_FALSE(q.clean_end());
  // A limit past what the machine can promise (a petabyte is past the address space): no bad_alloc, the buffer grows.
  FrameParser r(size_t(1) << 60);
  ASSERT_TRUE(r.feed(huge.data(), huge.size(), out));
  EXPECT_FALSE(r.clean_end());
}

TEST(Utf8, CleanEscapesWhatIsNotText) {
  EXPECT_EQ(utf8_clean("ok \xc3\xa9"), "ok \xc3\xa9");
  EXPECT_EQ(utf8_clean(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(utf8_clean("\xff\xc3"), "\\xff\\xc3");
  EXPECT_EQ(utf8_clean("\x1b[31m"), "\\x1b[31m");
  EXPECT_FALSE(valid_utf8(std::string("\xed\xa0\x80", 3)));   // a surrogate
  EXPECT_TRUE(valid_utf8("plain\ttext\n"));
}
