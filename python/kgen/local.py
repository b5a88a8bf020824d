"""A `kgen serve` of this process's own, on a free loopback port, stopped when the process exits."""
import atexit
import os
import shutil
import signal
import subprocess
import tempfile
import time


class LocalServer:
    def __init__(self, kgen=None, args=(), env=None, start_timeout=60.0):
        self.kgen = kgen or os.environ.get("KGEN_BIN") or shutil.which("kgen")
        if not self.kgen:
            raise RuntimeError("no kgen executable: set KGEN_BIN, put kgen on PATH, or set KGEN_SERVE_URL to a "
                               "running kgen serve")
        self.args = list(args)
        self.env = env
        self.start_timeout = start_timeout
        self.proc = None
        self.url = None
        self._dir = None

    def start(self):
        self._dir = tempfile.mkdtemp(prefix="kgen-serve-")
        port_file = os.path.join(self._dir, "port")
        log = open(os.path.join(self._dir, "serve.log"), "wb")
        self.proc = subprocess.Popen([self.kgen, "serve", "--port", "0", "--port-file", port_file, *self.args],
                                     stdout=log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + self.start_timeout
        while not os.path.exists(port_file):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                with open(os.path.join(self._dir, "serve.log"), errors="replace") as f:
                    raise RuntimeError("kgen serve did not start:\n" + f.read())
            time.sleep(0.05)
        with open(port_file) as f:
            self.url = f"http://127.0.0.1:{int(f.read())}"
        atexit.register(self.stop)
        return self

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
