"""Convolutions on the cube (im2col + GEMM, src/tile/emit_conv_gemm.cpp) over random geometries: the programs
tests/data/tile/conv{1,2,3}d_dilated.tile and conv_transpose{1,2}d_dilated.tile are compiled once, then each seeded
geometry (batch, channels, sizes, kernel, stride, padding up to (k - 1) * dilation + 2, dilation, a transposed conv's
output_padding; 1x1 convs take the direct path) runs through `kgen op run` and is compared with
torch.nn.functional.conv{1,2,3}d / conv_transpose{1,2}d in float32.
Usage: tile_conv_sweep.py KGEN SRC WORKDIR [N] [SEED]
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
F = torch.nn.functional
funcs = {"conv1d": F.conv1d, "conv2d": F.conv2d, "conv3d": F.conv3d, "conv_transpose1d": F.conv_transpose1d,
         "conv_transpose2d": F.conv_transpose2d}
projects = {}
for name in funcs:
    projects[name] = os.path.join(work, name)
    subprocess.run([kgen, "tile", "compile", os.path.join(src, "tests/data/tile", f"{name}_dilated.tile"), "-o",
                    projects[name]], check=True, capture_output=True)
fails = 0
for _ in range(count):
    tr = random.random() < 0.4
    nd = random.choice([1, 2, 2] if tr else [1, 2, 2, 3])
    name = f"conv_transpose{nd}d" if tr else f"conv{nd}d"
    wide = random.random() < 0.25   # many channels: several channel chunks and GEMM blocks, smaller planes
    n = random.randint(1, 3)
    ci, co = (random.randint(40, 160), random.randint(60, 140)) if wide else (random.randint(1, 9), random.randint(1, 20))
    k, s, d = random.randint(1, 4 if nd < 3 else 3), random.randint(1, 3), random.randint(1, 2)
    top = {1: 300, 2: 24, 3: 6}[nd] if wide else {1: 2000, 2: random.choice([40, 90, 300]), 3: 9}[nd]
    if tr:   # PyTorch: output_padding < max(stride, dilation); the output must not be empty
        p, op = random.randint(0, (k - 1) * d), random.randint(0, max(s, d) - 1)
        size = [random.randint(1, top // s) for _ in range(nd)]
        if any((i - 1) * s - 2 * p + d * (k - 1) + op + 1 < 1 for i in size):
            p = 0
        w = torch.randn(ci, co, *([k] * nd))
    else:
        p, op = random.randint(0, (k - 1) * d + 2), 0
        size = [random.randint(max(1, (k - 1) * d + 1 - 2 * p), top) for _ in range(nd)]
        w = torch.randn(co, ci, *([k] * nd))
    x, b = torch.randn(n, ci, *size), torch.randn(co)
    if tr:
        ref = funcs[name](x, w, b, stride=s, padding=p, output_padding=op, dilation=d)
    else:
        ref = funcs[name](x, w, b, stride=s, padding=p, dilation=d)
    for arg, t in (("x", x), ("w", w), ("b", b)):
        np.save(os.path.join(work, arg + ".npy"), t.numpy())
    out = os.path.join(work, "out")
    attrs = [f"stride={s}", f"padding={p}", f"dilation={d}"] + ([f"output_padding={op}"] if tr else [])
    r = subprocess.run([kgen, "op", "run", projects[name], "--input", f"x={work}/x.npy", f"weight={work}/w.npy",
                        f"bias={work}/b.npy", "--attr", *attrs, "--out", out], capture_output=True, text=True)
    what = f"{name} n={n} ci={ci} co={co} size={size} k={k} stride={s} padding={p} dilation={d}"
    what += f" output_padding={op}" if tr else ""
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
