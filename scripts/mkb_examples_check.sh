#!/usr/bin/env bash
# Runs MultiKernelBench's own AscendC examples (prompts/ascendc_new_model_*.py of a local checkout) unchanged through
# `kgen op run-mkb` against their reference tasks (prompts/cuda_model_*.py), one line per example.
# A reference whose get_inputs() builds a tensor of more than 2^26 elements is run from a scaled copy: the first
# dimension of each such literal torch.randn/rand shape is divided by a power of two (the line says what was scaled).
# usage: scripts/mkb_examples_check.sh MULTIKERNELBENCH_DIR [KGEN]
set -u
MKB=${1:?usage: mkb_examples_check.sh MULTIKERNELBENCH_DIR [KGEN]}
KGEN=${2:-$(dirname "$0")/../build/kgen}
P=$MKB/prompts
[ -d "$P" ] || { echo "error: $P is not a folder (pass the root of a MultiKernelBench checkout)"; exit 2; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
pass=0; total=0
for sub in "$P"/ascendc_new_model_*.py; do
  name=$(basename "$sub" .py); name=${name#ascendc_new_model_}
  ref=$P/cuda_model_$name.py
  total=$((total + 1))
  if [ ! -f "$ref" ]; then echo "$name: no reference $ref"; continue; fi
  scaled=$(/usr/bin/python3 - "$ref" "$W/$name.py" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
notes = []
def shrink(m):
    dims = [int(d) for d in m.group(2).split(",")]
    n = 1
    for d in dims:
        n *= d
    f = 1
    while n // f > (1 << 26) and dims[0] // (2 * f) >= 1:
        f *= 2
    if f == 1:
        return m.group(0)
    notes.append(f"{m.group(2).replace(' ', '')} -> first dim / {f}")
    return f"{m.group(1)}({', '.join([str(dims[0] // f)] + [str(d) for d in dims[1:]])}"
out = re.sub(r"(torch\.randn?)\(\s*(\d+(?:\s*,\s*\d+)*)", shrink, src)
open(sys.argv[2], "w").write(out)
print("; ".join(notes))
PY
)
  start=$(date +%s)
  out=$("$KGEN" op run-mkb "$sub" --task "$W/$name.py" --trials 2 2>&1); rc=$?
  secs=$(( $(date +%s) - start ))
  verdict=$(tail -1 <<<"$out")
  first=$(grep -m1 -E '^(error\[|cheating )' <<<"$out" | cut -c1-200)
  [ "$verdict" = PASS ] && pass=$((pass + 1))
  echo "$name: $verdict (exit $rc, ${secs} s)${scaled:+, scaled: $scaled}${first:+ — $first}"
done
echo "$pass of $total examples pass"
