"""Convolutions on the cube (im2col + GEMM, src/tile/emit_conv_gemm.cpp) over random geometries: the three programs
tests/data/tile/conv{1,2,3}d_dilated.tile are compiled once, then each seeded geometry (batch, channels, sizes, kernel,
stride, padding up to (k - 1) * dilation + 2, dilation; 1x1 convs take the direct path) runs through `kgen op run`
and is compared with torch.nn.functional.conv{1,2,3}d in float32. Usage: tile_conv_sweep.py KGEN SRC WORKDIR [N] [SEED]
"""
import os
import random
import subprocess
import sys

import numpy as np
import torch

kgen, src, work = sys.argv[1:4]
count = int(sys.argv[4]) if len(sys.argv) > 4 else 24
random.seed(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
funcs = {1: torch.nn.functional.conv1d, 2: torch.nn.functional.conv2d, 3: torch.nn.functional.conv3d}
projects = {}
for nd in funcs:
    projects[nd] = os.path.join(work, f"conv{nd}d")
    subprocess.run([kgen, "tile", "compile", os.path.join(src, "tests/data/tile", f"conv{nd}d_dilated.tile"), "-o",
                    projects[nd]], check=True, capture_output=True)
fails = 0
for _ in range(count):
    nd = random.choice([1, 2, 2, 3])
    n, ci, co = random.randint(1, 3), random.randint(1, 9), random.randint(1, 20)
    k, s, d = random.randint(1, 4 if nd < 3 else 3), random.randint(1, 3), random.randint(1, 2)
    p = random.randint(0, (k - 1) * d + 2)
    top = {1: 2000, 2: random.choice([40, 90, 300]), 3: 9}[nd]
    size = [random.randint(max(1, (k - 1) * d + 1 - 2 * p), top) for _ in range(nd)]
    x, w, b = torch.randn(n, ci, *size), torch.randn(co, ci, *([k] * nd)), torch.randn(co)
    ref = funcs[nd](x, w, b, stride=s, padding=p, dilation=d)
    for name, t in (("x", x), ("w", w), ("b", b)):
        np.save(os.path.join(work, name + ".npy"), t.numpy())
    out = os.path.join(work, "out")
    r = subprocess.run([kgen, "op", "run", projects[nd], "--input", f"x={work}/x.npy", f"weight={work}/w.npy",
                        f"bias={work}/b.npy", "--attr", f"stride={s}", f"padding={p}", f"dilation={d}", "--out", out],
                       capture_output=True, text=True)
    what = f"conv{nd}d n={n} ci={ci} co={co} size={size} k={k} stride={s} padding={p} dilation={d}"
    if r.returncode != 0:
        print(f"FAIL {what}: kgen op run exited {r.returncode}: {r.stderr.strip()[-500:]}")
        fails += 1
        continue
    y = torch.from_numpy(np.load(os.path.join(out, "y.npy")))
    ok = y.shape == ref.shape and torch.allclose(y, ref, atol=1e-4, rtol=1e-4)
    err = (y - ref).abs().max().item() if y.shape == ref.shape else f"shape {list(y.shape)} != {list(ref.shape)}"
    print(f"{'ok  ' if ok else 'FAIL'} {what}: max |err| {err}")
    fails += not ok
print(f"{count - fails} of {count} geometries match torch")
sys.exit(1 if fails else 0)
