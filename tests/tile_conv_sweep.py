"""Convolutions over random geometries, on the cube (im2col + GEMM, src/tile/emit_conv_gemm.cpp) and, for the depthwise
form, on the vector cores (emit_conv.cpp): the programs tests/data/tile/sweep_*.tile are
compiled once, then each seeded geometry (batch, channels, sizes, kernel, stride, padding up to (k - 1) * dilation + 2,
dilation, a transposed conv's output_padding, an avg_pool's size, groups = channels; 1x1 convs take the direct path)
runs through `kgen op run` and is compared with torch.nn.functional (conv{1,2,3}d, conv_transpose{1,2}d, avg_pool2d)
in float32.
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
         "conv_transpose2d": F.conv_transpose2d, "conv2d_avgpool": None, "conv2d_depthwise": None}
projects = {}
for name in funcs:
    projects[name] = os.path.join(work, name)
    subprocess.run([kgen, "tile", "compile", os.path.join(src, "tests/data/tile", f"sweep_{name}.tile"), "-o",
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
    pool = random.randint(1, 3) if nd == 2 and not tr and random.random() < 0.3 else 0   # avg_pool(conv(x), pool)
    if pool:
        name, s, p, d = "conv2d_avgpool", 1, 0, 1
        size = [max(i, k + pool - 1) for i in size]
    depthwise = nd == 2 and not tr and not pool and random.random() < 0.2   # on the vector cores: small planes
    if depthwise:
        name, co = "conv2d_depthwise", ci
        size = [min(i, 40) for i in size]
        w = torch.randn(ci, 1, k, k)
    x, b = torch.randn(n, ci, *size), torch.randn(co)
    if depthwise:
        ref = F.conv2d(x, w, b, stride=s, padding=p, dilation=d, groups=ci)
    elif pool:
        ref = F.avg_pool2d(F.conv2d(x, w, b), pool)
    elif tr:
        ref = funcs[name](x, w, b, stride=s, padding=p, output_padding=op, dilation=d)
    else:
        ref = funcs[name](x, w, b, stride=s, padding=p, dilation=d)
    for arg, t in (("x", x), ("w", w), ("b", b)):
        np.save(os.path.join(work, arg + ".npy"), t.numpy())
    out = os.path.join(work, "out")
    attrs = [f"pool={pool}"] if pool else [f"stride={s}", f"padding={p}", f"dilation={d}"] + ([f"output_padding={op}"] if tr else [])
    r = subprocess.run([kgen, "op", "run", projects[name], "--input", f"x={work}/x.npy", f"weight={work}/w.npy",
                        f"bias={work}/b.npy", "--attr", *attrs, "--out", out], capture_output=True, text=True)
    what = f"{name} n={n} ci={ci} co={co} size={size} k={k} stride={s} padding={p} dilation={d}"
    what += f" output_padding={op}" if tr else f" pool={pool}" if pool else ""
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
