#!/bin/bash
# kgen op run-mkb: the MultiKernelBench-format submissions of examples/mkb pass against their reference tasks, and
# every negative written by tests/data/mkb/negatives.py (an example with one mistake) fails with the category its first line declares
# (`# kgen-expect: CATEGORY [@]`; with @, the diagnostic must name the line marked ERROR-HERE).
# usage: mkb_test.sh KGEN SOURCE_DIR
set -u
KGEN=$1
SRC=$2
export KGEN_CACHE=$(mktemp -d)
trap 'rm -rf "$KGEN_CACHE"' EXIT
if ! /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null; then
  echo "SKIP: /usr/bin/python3 lacks torch/numpy"
  exit 0
fi
fail=0
cd "$SRC"
# The torch shim on its own.
shimbin=$(mktemp)
if g++ -std=c++17 -I include/torch_shim -I src tests/data/mkb/shim_check.cpp include/torch_shim/kgen_bind_entry.cpp \
     -o "$shimbin" && "$shimbin"; then echo "ok: torch shim self-check"; else echo "FAIL: torch shim self-check"; fail=1; fi
rm -f "$shimbin"
# The PyTorch 2.x polyfill (scaled_dot_product_attention) against a plain loop, and against torch's own if present.
if /usr/bin/python3 - <<'PY'
import sys, math, torch
sys.path.insert(0, "python")
from kgen_mkb import torch_compat
torch.manual_seed(0)
q, k, v = torch.rand(2, 3, 5, 4), torch.rand(2, 3, 6, 4), torch.rand(2, 3, 6, 4)
def loop(q, k, v, allowed, add):
    out = torch.zeros(q.shape[:-1] + (v.shape[-1],))
    for b in range(q.shape[0]):
        for h in range(q.shape[1]):
            for i in range(q.shape[2]):
                s = [float(q[b, h, i] @ k[b, h, j]) / math.sqrt(q.shape[-1]) + add[i][j] for j in range(k.shape[2])]
                m = max(s[j] for j in range(len(s)) if allowed[i][j])
                e = [math.exp(s[j] - m) if allowed[i][j] else 0.0 for j in range(len(s))]
                out[b, h, i] = sum(e[j] / sum(e) * v[b, h, j] for j in range(len(s)))
    return out
no = [[0.0] * 6 for _ in range(5)]
bm = torch.rand(5, 6) > 0.3
bm[:, 0] = True
fm = torch.rand(5, 6)
cases = [(dict(), [[True] * 6] * 5, no), (dict(is_causal=True), [[j <= i for j in range(6)] for i in range(5)], no),
         (dict(attn_mask=bm), bm.tolist(), no), (dict(attn_mask=fm), [[True] * 6] * 5, fm.tolist())]
for kw, allowed, add in cases:
    got = torch_compat.scaled_dot_product_attention(q, k, v, **kw)
    assert torch.allclose(got, loop(q, k, v, allowed, add), atol=1e-5), kw
    native = getattr(torch.nn.functional, "scaled_dot_product_attention", None)
    if native is not None and native is not torch_compat.scaled_dot_product_attention:
        assert torch.allclose(got, native(q, k, v, **kw), atol=1e-5), kw
PY
then echo "ok: torch_compat scaled_dot_product_attention"; else echo "FAIL: torch_compat scaled_dot_product_attention"; fail=1; fi
for name in add leaky_relu reduce_sum; do
  out=$("$KGEN" op run-mkb examples/mkb/$name.py --task examples/mkb/tasks/$name.py --trials 2 2>&1)
  rc=$?
  if [ $rc -ne 0 ] || ! grep -q '^PASS$' <<<"$out"; then
    echo "FAIL: examples/mkb/$name.py (exit $rc)"; echo "$out" | head -20; fail=1
  else
    echo "ok: examples/mkb/$name.py: $(grep 'max abs' <<<"$out")"
  fi
done
# --json
out=$("$KGEN" op run-mkb examples/mkb/add.py --task examples/mkb/tasks/add.py --trials 1 --json 2>&1)
if ! /usr/bin/python3 -c 'import json,sys; j=json.loads(sys.argv[1]); assert j["verdict"]=="pass", j' "$out"; then
  echo "FAIL: --json report"; echo "$out" | head; fail=1
else
  echo "ok: --json"
fi
# A wrong result is a mismatch with the first differing index.
tmp=$(mktemp -d)
sed 's/AscendC::Add(z, x, y, n);/AscendC::Sub(z, x, y, n);/' examples/mkb/add.py > "$tmp/add_wrong.py"
out=$("$KGEN" op run-mkb "$tmp/add_wrong.py" --task examples/mkb/tasks/add.py --trials 1 2>&1)
rc=$?
if [ $rc -ne 3 ] || ! grep -q 'error\[mismatch\].*index \[' <<<"$out"; then
  echo "FAIL: a wrong kernel is not reported as a mismatch (exit $rc)"; echo "$out" | head; fail=1
else
  echo "ok: mismatch reported"
fi
rm -rf "$tmp"
neg=$(mktemp -d)
/usr/bin/python3 tests/data/mkb/negatives.py examples/mkb "$neg" || { echo "FAIL: negatives.py"; fail=1; }
for f in "$neg"/*.py; do
  expect=$(head -1 "$f" | sed -n 's/^# kgen-expect: *//p')
  task=$(sed -n '2s/^# kgen-task: *//p' "$f")
  cat=${expect%% *}
  want_line=""
  if [[ "$expect" == *"@"* ]]; then want_line=$(grep -n 'ERROR-HERE' "$f" | head -1 | cut -d: -f1); fi
  out=$("$KGEN" op run-mkb "$f" --task "examples/mkb/tasks/$task.py" --trials 1 2>&1)
  rc=$?
  first=$(grep -m1 -E '^(error\[|cheating )' <<<"$out")
  want="error[$cat]"; [ "$cat" = cheating ] && want="cheating "
  if [ $rc -ne 3 ] || [[ "$first" != "$want"* ]]; then
    echo "FAIL: $f: expected $want, exit 3; got exit $rc: $first"; echo "$out" | head -8; fail=1; continue
  fi
  if [ -n "$want_line" ] && [[ "$first" != *"$f:$want_line:"* ]]; then
    echo "FAIL: $f: expected the diagnostic at $f:$want_line: $first"; fail=1; continue
  fi
  echo "ok: $f -> $first" | cut -c1-160
  # The float attr runs with the garbled value, and the note says where: the EXEC_NPU_CMD line of the submission.
  if [[ "$f" == */chip_float_attr.py ]] && ! grep -q "^warning\[abi\] $f:$(grep -n 'ERROR-HERE' "$f" | head -1 | cut -d: -f1): aclnnLeakyReluCustom argument 2" <<<"$out"; then
    echo "FAIL: $f: no warning[abi] at the EXEC_NPU_CMD line"; echo "$out" | head -3; fail=1
  fi
done
rm -rf "$neg"
exit $fail
