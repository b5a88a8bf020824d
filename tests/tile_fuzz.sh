#!/usr/bin/env bash
# The tile compiler's promise, fuzzed: it reports or compiles, and what it compiles builds. Token-level mutants of the
# expert programs (kernels/**/*.tile and tests/data/tile_ops/programs/**/*.tile, whose range loops, outputs of K values
# and reductions over a slab's positions the suite's programs do not use; a fixed seed, the programs in turn) go through `kgen tile compile`, at least 1000
# of them (TILE_FUZZ_MIN_TRIED), which must exit 0 or 3, never crash; the first M that compile are kept, and each one's
# op project is then compiled the way `kgen op run` builds it (src/op/build.cpp): the
# kernel through `kgen cc` with kernel_operator.h, the tiling header and the tiling-names header force-included and
# DTYPE_<NAME> defined, once per dtype column of the OpDef (each column is one kernel build); the host file with g++
# against kgen's CANN headers. -fsyntax-only: the templates are instantiated, nothing is linked or run.
# Usage: tile_fuzz.sh KGEN SRC [M]   (M defaults to 6; TILE_FUZZ_SEED overrides the seed)
set -u
KGEN=$1
SRC=$2
M=${3:-6}
PY=/usr/bin/python3
T=$(mktemp -d /tmp/kgen-tile-fuzz-XXXXXX)
trap 'rm -rf "$T"' EXIT
export KGEN_CACHE=$T/cache
fails=0
t0=$(date +%s)

# 1. Mutants that compile: $T/m<k>/prog.tile and $T/m<k>/how.txt (the program and the mutation), $T/m<k>/proj.
# At least MIN_TRIED mutants go through `kgen tile compile` (a few ms each), which must exit 0 or 3, never crash.
"$PY" - "$KGEN" "$SRC" "$T" "$M" "${TILE_FUZZ_SEED:-7016}" "${TILE_FUZZ_MIN_TRIED:-1000}" <<'PY'
import os, re, subprocess, sys
kgen, src, out = sys.argv[1:4]
want, seed, min_tried = map(int, sys.argv[4:7])

M64 = (1 << 64) - 1
class Rng:  # splitmix64, as tests/unit/tile_compile_fuzz_test.cpp: the same sequence everywhere
    def __init__(self, s): self.s = s & M64
    def next(self):
        self.s = (self.s + 0x9e3779b97f4a7c15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
        return z ^ (z >> 31)
    def below(self, n): return 0 if n == 0 else self.next() % n

TOKEN = re.compile(r'(?P<indent>(?<=\n)[ \t]+|^[ \t]+)|(?P<nl>\n)|(?P<ws>[ \t\r]+)|(?P<comment>#[^\n]*)'
                   r'|(?P<string>"""[\s\S]*?(?:"""|$)|\'\'\'[\s\S]*?(?:\'\'\'|$)|"[^"\n]*"?|\'[^\'\n]*\'?)'
                   r'|(?P<number>(?:\d|\.\d)(?:[\w.]|(?<=[eE])[-+])*)|(?P<name>[A-Za-z_]\w*)'
                   r'|(?P<punct>->|\*\*|<=|>=|==|!=|[-+*/]=|[\s\S])')

def tokens(s):  # (begin, end, kind) of every token that a mutation may touch: not comments, strings, spaces
    return [(m.start(), m.end(), m.lastgroup) for m in TOKEN.finditer(s)
            if m.lastgroup not in ("ws", "comment", "string")]

NUMBERS = ["0", "1", "2", "3", "0.5", "-1", "1e-5", "9", "1000000", "1e30", "0.0", "2.5", "65536", "4294967296",
           "1e400", "00", "1.", ".5"]
INDENTS = ["", "    ", "        ", "            ", "\t", "   ", "     ", "  \t  "]
# Words that can stand for each other: another function, operator or dtype keeps more mutants valid and reaches
# other code in the emitter than renames and numbers do.
KINDRED = [["exp", "log", "sqrt", "rsqrt", "relu", "sigmoid", "tanh", "erf", "gelu", "gelu_tanh", "silu", "softplus",
            "abs", "reciprocal"],
           ["min", "max", "sum", "mean"], ["leaky_relu", "elu", "pow"], ["+", "-", "*", "/"],
           ["<", "<=", ">", ">=", "==", "!="], ["f32", "f16", "bf16", "i32", "i8", "u8", "bool"]]

def mutate(s, rng):
    how = []
    for _ in range(1 + rng.below(2)):
        toks = tokens(s)
        if len(toks) < 2:
            break
        names = [t for t in toks if t[2] == "name"]
        nums = [t for t in toks if t[2] == "number"]
        inds = [t for t in toks if t[2] == "indent"]
        text = lambda t: s[t[0]:t[1]]
        op = rng.below(9)
        if op == 0:
            t = toks[rng.below(len(toks))]
            how.append(f"delete {text(t)!r}@{t[0]}")
            s = s[:t[0]] + s[t[1]:]
        elif op == 1:
            t = toks[rng.below(len(toks))]
            at = t[1] if rng.below(2) else toks[rng.below(len(toks))][0]
            how.append(f"duplicate {text(t)!r} to @{at}")
            s = s[:at] + text(t) + (" " if t[2] in ("name", "number") else "") + s[at:]
        elif op == 2:
            i, j = sorted((rng.below(len(toks)), rng.below(len(toks))))
            if i != j:
                a, b = toks[i], toks[j]
                how.append(f"swap {text(a)!r}@{a[0]} {text(b)!r}@{b[0]}")
                s = s[:a[0]] + text(b) + s[a[1]:b[0]] + text(a) + s[b[1]:]
        elif op in (3, 4):
            if len(names) >= 2:
                a, b = names[rng.below(len(names))], names[rng.below(len(names))]
                how.append(f"rename {text(a)!r}@{a[0]} to {text(b)!r}")
                s = s[:a[0]] + text(b) + s[a[1]:]
        elif op == 5:
            num = NUMBERS[rng.below(len(NUMBERS))]
            t = toks[rng.below(len(toks))] if not nums or rng.below(4) == 0 else nums[rng.below(len(nums))]
            how.append(f"number {text(t)!r}@{t[0]} to {num}")
            s = s[:t[0]] + num + s[t[1]:]
        elif op == 6:
            if inds:
                t = inds[rng.below(len(inds))]
                f = INDENTS[rng.below(len(INDENTS))]
                how.append(f"indent@{t[0]} {t[1] - t[0]} -> {f!r}")
                s = s[:t[0]] + f + s[t[1]:]
        elif op == 7:
            kin = [(t, g) for t in toks for g in KINDRED if text(t) in g]
            if kin:
                t, g = kin[rng.below(len(kin))]
                w = g[rng.below(len(g))]
                how.append(f"replace {text(t)!r}@{t[0]} by {w!r}")
                s = s[:t[0]] + w + s[t[1]:]
        else:
            at = toks[rng.below(len(toks))][0] if rng.below(3) else rng.below(len(s) + 1)
            how.append(f"truncate@{at}")
            s = s[:at]
    return s, "; ".join(how)

progs = []
for top in ("kernels", "tests/data/tile_ops/programs"):   # the expert library, and the operators outside the suite
    for d, _, fs in os.walk(os.path.join(src, top)):
        for f in fs:
            if f.endswith(".tile"):
                p = os.path.join(d, f)
                progs.append((os.path.relpath(p, src), open(p).read()))
progs.sort()
assert progs, "no expert programs"
rng, seen, found, tried = Rng(seed), set(), 0, 0
while (found < want or tried < min_tried) and tried < 200 * max(want, 1) + min_tried:
    name, base = progs[tried % len(progs)]
    tried += 1
    s, how = mutate(base, rng)
    if s in seen or s == base:
        continue
    seen.add(s)
    d = os.path.join(out, f"m{tried:05d}")
    os.makedirs(d)
    with open(os.path.join(d, "prog.tile"), "w") as f:
        f.write(s)
    r = subprocess.run([kgen, "tile", "compile", os.path.join(d, "prog.tile"), "-o", os.path.join(d, "proj")],
                       capture_output=True, text=True)
    if r.returncode < 0 or r.returncode not in (0, 3):
        print(f"FAIL kgen tile compile exited {r.returncode} on a mutant of {name} ({how}):\n{r.stderr[-2000:]}")
        print(f"     the mutant:\n{s}")
        with open(os.path.join(out, "compile-crashed"), "a") as f:
            f.write(d + "\n")
        continue
    if r.returncode == 3 or found >= want:   # errors, or enough compiled mutants already: only the crash sweep
        subprocess.run(["rm", "-rf", d])
        continue
    with open(os.path.join(d, "how.txt"), "w") as f:
        f.write(f"{name}: {how}\n")
    found += 1
print(f"     {tried} mutants through kgen tile compile, the first {found} that compile are built")
PY
[ $? = 0 ] || fails=$((fails + 1))
if [ -s "$T/compile-crashed" ]; then fails=$((fails + $(wc -l < "$T/compile-crashed"))); fi

# 2. Each compiled mutant's project builds: the kernel per dtype column, the host.
dtypes() {  # dtypes JSON: one line per column, "DTYPE_X=float DTYPE_Y=float ..."
  "$PY" - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
op = j[0] if isinstance(j, list) else j
cpp = {"float": "float", "float32": "float", "float16": "half", "bfloat16": "bfloat16_t", "int8": "int8_t",
       "uint8": "uint8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t", "bool": "bool"}
params = op.get("input_desc", []) + op.get("output_desc", [])
cols = max(len(p["type"]) for p in params)
for c in range(cols):
    print(" ".join(f"DTYPE_{p['name'].upper()}={cpp[p['type'][0 if len(p['type']) == 1 else c]]}" for p in params))
PY
}
n=0
for d in "$T"/m*/; do
  d=${d%/}
  [ -f "$d/how.txt" ] || continue
  n=$((n + 1))
  how=$(cat "$d/how.txt")
  P=$d/proj
  kernel=$(ls "$P"/op_kernel/*_custom.cpp 2>/dev/null | head -1)
  host=$(ls "$P"/op_host/*_custom.cpp 2>/dev/null | head -1)
  tiling=$(ls "$P"/op_host/*_tiling.h 2>/dev/null | head -1)
  json=$(ls "$P"/*_custom.json 2>/dev/null | head -1)
  if [ -z "$kernel" ] || [ -z "$host" ] || [ -z "$tiling" ] || [ -z "$json" ]; then
    echo "FAIL $how: the project lacks files: $(cd "$P" && find . -type f | sort | tr '\n' ' ')"
    fails=$((fails + 1)); continue
  fi
  # CANN's kernel build has the tiling structs at global scope (src/op/build.cpp, tiling_names_header).
  sed -n 's/.*BEGIN_TILING_DATA_DEF(\([A-Za-z0-9_]*\)).*/using optiling::\1;/p' "$tiling" > "$d/names.h"
  ok=1
  cols=0
  if ! dtypes "$json" > "$d/dtypes.txt" 2> "$d/dtypes.err"; then   # a dtype name the json should not hold
    echo "FAIL $how: the op json's dtypes do not read as msopgen's: $(tail -1 "$d/dtypes.err")"
    ok=0
  fi
  while read -r defs; do
    cols=$((cols + 1))
    dflags=()
    for x in $defs; do dflags+=("-D$x"); done
    if ! "$KGEN" cc -fsyntax-only -fPIC -I"$(dirname "$kernel")" -include kernel_operator.h -include "$tiling" \
         -include "$d/names.h" "${dflags[@]}" "$kernel" > "$d/kernel-$cols.log" 2>&1; then
      echo "FAIL $how: the kernel does not compile with $defs"
      head -30 "$d/kernel-$cols.log"
      ok=0
    fi
  done < "$d/dtypes.txt"
  if [ $cols = 0 ]; then echo "FAIL $how: no dtype column built"; ok=0; fi
  if ! g++ -std=c++17 -fsyntax-only -I"$SRC/include/ascendc" -I"$(dirname "$host")" -DKGEN_SOC=\"Ascend910B2\" \
       "$host" > "$d/host.log" 2>&1; then
    echo "FAIL $how: the host file does not compile"
    head -30 "$d/host.log"
    ok=0
  fi
  if [ $ok = 1 ]; then
    echo "ok   $how ($cols dtype column(s))"
  else
    echo "     the mutant:"; sed 's/^/     | /' "$d/prog.tile"
    fails=$((fails + 1))
  fi
done
t1=$(date +%s)
if [ "$n" -lt "$M" ]; then echo "FAIL only $n of $M mutants compiled"; fails=$((fails + 1)); fi
echo "tile fuzz: $n compiled mutants built, $fails failure(s), $((t1 - t0)) s"
exit $((fails > 0))
