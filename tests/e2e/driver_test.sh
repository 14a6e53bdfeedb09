#!/usr/bin/env bash
# driver_test.sh -- end-to-end tests of hl-driver and of what comes with it,
# with real MPICH, stock ScaLAPACK and the runtime preload:
#   * every routine (lu, qr, chol, mm) passes its residual check through
#     hetlaunch, on a 1d and on a 2d plan;
#   * the generated matrix does not depend on the grid (checksums), and
#     does depend on the seed; a failed allocation is a message and MPI_Abort;
#   * a sweep of three sizes: one job, three results, per-rank times;
#   * a plan over memory_gb is refused: exit 2 at the machine, nothing written;
#   * compare on an exec program without result lines: wall times, a
#     nonzero speedup; compare on the driver: the speedup per size and
#     balance.png;
#   * emulate_mflops sets a machine's emulated speed.
# Run from the repository root; HETLAUNCH names the binary, DRIVER the
# driver, PRELOAD the runtime.  Small sizes: about a minute on 2 cores.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
DRIVER=${DRIVER:-lib/hetlaunch/hl-driver}
PRELOAD=${PRELOAD:-lib/hetlaunch/libhetlaunch-rt.so}
PROBE=${PROBE:-lib/hetlaunch/hl-probe}
. "$(dirname "$0")/../lib.sh"
make_tmp /tmp/hetlaunch-driver-test.XXXXXX

# --- 1. the same matrix on every grid ------------------------------------
# drv NP ARGS...: the driver on NP ranks with the preload
drv() {
	local np=$1; shift
	timeout 120 mpiexec.hydra -n "$np" -genv LD_PRELOAD "$PWD/$PRELOAD" "$DRIVER" "$@"
}
for k in lu chol; do
	a=$(drv 2 --checksum $k 16 1 2 150 2>&1 | sed -n 's/^hetlaunch-checksum .* A=//p')
	b=$(drv 4 --checksum $k 16 2 2 150 2>&1 | sed -n 's/^hetlaunch-checksum .* A=//p')
	c=$(drv 3 --checksum $k 16 3 1 150 2>&1 | sed -n 's/^hetlaunch-checksum .* A=//p')
	check "$k: the same matrix on 1x2, 2x2 and 3x1 (checksum $a)" \
		test -n "$a" -a "$a" = "$b" -a "$a" = "$c"
done
s2=$(drv 2 --checksum --seed 2 lu 16 1 2 150 2>&1 | sed -n 's/^hetlaunch-checksum .* A=//p')
check "another seed, another matrix" test -n "$s2" -a "$s2" != "$a"
drv 3 lu 16 1 2 150 >"$tmp/out" 2>&1
rc=$?
check "P x Q that is not the number of ranks: exit 2" test $rc -eq 2
# A NaN in A (--nan) must fail every routine: the check that cannot run is
# a failure, never a pass.
for k in lu qr chol mm; do
	drv 2 --nan $k 16 1 2 100 >"$tmp/out" 2>&1
	rc=$?
	check "$k with a NaN in A: exit 1, passed=0, residual=nan" \
		test $rc -eq 1 -a -n "$(grep '^hetlaunch-result .* residual=nan passed=0$' "$tmp/out")"
done
# --perturb checks against a wrong problem: a finite error must fail too.
for k in lu qr chol mm; do
	drv 2 --perturb $k 16 1 2 100 >"$tmp/out" 2>&1
	rc=$?
	res=$(sed -n 's/^hetlaunch-result .* residual=\([^ ]*\) passed=0$/\1/p' "$tmp/out")
	check "$k checked against a wrong problem: exit 1, passed=0, residual $res >= 16" \
		test $rc -eq 1 -a -n "$res" -a "$(awk -v r="${res:-0}" 'BEGIN {print (r >= 16)}')" = 1
done
# A failed allocation: a message naming the array, MPI_Abort, not a crash
# (7.2 GB asked under a 3 GB address-space limit).
(ulimit -v 3000000; drv 1 lu 32 1 1 30000) >"$tmp/out" 2>&1
rc=$?
check "an allocation that fails: exit 1, 'cannot allocate ... for the matrices', MPI_Abort" \
	test $rc -eq 1 -a -n "$(grep 'cannot allocate 7200000000 bytes for the matrices' "$tmp/out")" \
	     -a -n "$(grep 'MPI_Abort' "$tmp/out")"
check "... after printing the bytes it needed" grep -q "^hetlaunch-memory kernel=lu n=30000 bytes_per_process=" "$tmp/out"
drv 2 lu 16 1 2 150 >"$tmp/out" 2>&1
check "bytes per process printed before the result" \
	test "$(grep -n '^hetlaunch-memory\|^hetlaunch-result' "$tmp/out" | cut -d: -f2 | cut -c1-16 | tr '\n' ' ')" = "hetlaunch-memory hetlaunch-result "

# --- 2. every routine through hetlaunch, 1d and 2d -----------------------
cfg() {  # NAME KERNEL LAYOUT-LINES...
	local name=$1 kernel=$2; shift 2
	{
		echo "name: $name"
		echo "machines:"
		echo "  - {name: fast, host: localhost, cycle_time: 1}"
		echo "  - {name: slow, host: localhost, cycle_time: 2}"
		echo "kernel: $kernel"
		echo "nb: 16"
		echo "timeout: 120"
		for x in "$@"; do echo "$x"; done
	} >"$tmp/$name.yaml"
}
for k in lu qr chol mm; do
	cfg "${k}1d" $k "layout: 1d" "B: 3" "n: 160"
	cfg "${k}2d" $k "layout: 2d" "grid: [1, 2]" "panel: [2, 3]" "n: 160"
	for t in ${k}1d ${k}2d; do
		"$HETLAUNCH" run "$tmp/$t.yaml" --quiet --out "$tmp/run-$t" >/dev/null 2>"$tmp/err"
		rc=$?
		r=$tmp/run-$t/report.json
		if [ $rc -eq 0 ] && python3 - "$r" "$k" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
want = {"lu": "PDGETRF+PDGETRS", "qr": "PDGEQRF", "chol": "PDPOTRF+PDPOTRS", "mm": "PDGEMM"}
r = d["results"]
assert d["passed"] and len(r) == 1 and r[0]["passed"], d["results"]
assert r[0]["routine"] == want[sys.argv[2]], r[0]
assert 0 <= r[0]["residual"] < 16 and math.isfinite(r[0]["gflops"]), r[0]
assert len(d["ranks"]) == d["nprow"] * d["npcol"] == d["nranks"]
assert d["ranks_source"] == "program", d["ranks_source"]   # its own lines first
for k in d["ranks"]:
    assert k["compute"] > 0 and k["wait"] >= 0 and k["machine"] in ("fast", "slow"), k
PY
		then
			ok "$t: passed, residual $(json "$r" 'd["results"][0]["residual"]') on $(json "$r" '"%d x %d" % (d["nprow"], d["npcol"])')"
		else
			bad "$t: exit $rc"; cat "$tmp/err"; tail -5 "$tmp/run-$t/log.txt" 2>/dev/null
		fi
	done
done

# --- 3. a sweep of three sizes -------------------------------------------
cfg sweep lu "B: 3" "n: [96, 160, 128]"
"$HETLAUNCH" run "$tmp/sweep.yaml" --quiet --out "$tmp/run-sweep" >/dev/null 2>"$tmp/err"
rc=$?
check "sweep: one job, three results in the file's order, all passed" \
	test $rc -eq 0 -a "$(json "$tmp/run-sweep/report.json" '[(r["n"], r["passed"]) for r in d["results"]]')" = "[(96, True), (160, True), (128, True)]"
check "sweep: one mpiexec, the driver given the three sizes" \
	grep -q "hl-driver lu 16 1 3 96 160 128$" "$tmp/run-sweep/command.txt"
check "sweep: the plan is made for the largest size" \
	test "$(json "$tmp/run-sweep/plan.json" 'd["n"]')" = 160

cfg stocksweep lu "B: 3" "n: [96, 160]" "tester: stock"
"$HETLAUNCH" run "$tmp/stocksweep.yaml" --out "$tmp/run-stocksweep" >/dev/null 2>"$tmp/err"
check "tester: stock with several sizes: exit 2, said so" \
	test $? -eq 2 -a -n "$(grep 'tester: stock runs one size per job' "$tmp/err")"

# --- 4. memory ------------------------------------------------------------
cat >"$tmp/mem.yaml" <<'YAML'
machines:
  - name: fast
    host: localhost
    cycle_time: 1
  - name: small
    host: localhost
    cycle_time: 2
    memory_gb: 0.001
B: 3
n: 2000
nb: 32
YAML
"$HETLAUNCH" run "$tmp/mem.yaml" --out "$tmp/run-mem" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a plan over memory_gb: exit 2" test $rc -eq 2
check "... at the machine's line and column, naming memory_gb" \
	grep -q "^$tmp/mem.yaml:5:5: small: .*memory_gb" "$tmp/err"
check "... and nothing written" test ! -e "$tmp/run-mem"
"$HETLAUNCH" plan "$tmp/mem.yaml" >/dev/null 2>&1
check "hetlaunch plan refuses it too (exit 2)" test $? -eq 2
sed -i 's/memory_gb: 0.001/memory_gb: 1/' "$tmp/mem.yaml"
"$HETLAUNCH" plan "$tmp/mem.yaml" --json >"$tmp/plan.json" 2>"$tmp/err"
check "within memory_gb: planned, memory per machine = the sum over its processes" \
	python3 - "$tmp/plan.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["memory"]
counts = d["counts"]
for x in m["machines"]:
    assert x["processes"] == counts[x["name"]], (x, counts)
    assert x["bytes"] <= x["processes"] * m["per_process"] and x["bytes"] > 0, x
assert m["machines"][1]["memory_gb"] == 1
PY

# --- 5. compare on a program without result lines --------------------------
cat >"$tmp/exec.yaml" <<YAML
name: probe
machines:
  - {name: fast, host: localhost, cycle_time: 1}
  - {name: slow, host: localhost, cycle_time: 3}
B: 4
kernel: exec
program: $PWD/$PROBE
args: ['150', '3']
n: 256
nb: 32
emulate: true
timeout: 120
YAML
"$HETLAUNCH" compare "$tmp/exec.yaml" --json --quiet --out "$tmp/cmp-exec" >"$tmp/cmp.json" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && python3 - "$tmp/cmp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for run in ("cyclic", "hetero"):
    r = d[run]["results"]
    assert len(r) == 1 and r[0]["time_source"] == "wall" and r[0]["time"] > 0, r
assert d["speedup"] > 0, d["speedup"]
print(f"    exec compare: speedup {d['speedup']:.2f} from wall times")
PY
then ok "compare on an exec program: wall times, nonzero speedup"; else bad "compare exec: exit $rc"; cat "$tmp/err"; fi
check "... and the report says the time is the wall time" grep -q "wall time" "$tmp/err"
# A result line whose residual does not parse: "residual ?", not a stray 0
# glued to the rate ("1.368 Gflop/s0 PASSED").
cat >"$tmp/res.yaml" <<YAML
name: res
machines:
  - {name: one, host: localhost, cycle_time: 1}
B: 1
kernel: exec
program: /bin/echo
args: ['hetlaunch-result n=100 nb=10 P=1 Q=1 time=0.5 gflops=1.368 residual=abc passed=1']
n: 100
nb: 10
timeout: 60
YAML
"$HETLAUNCH" run "$tmp/res.yaml" --quiet --out "$tmp/run-res" >/dev/null 2>"$tmp/err"
check "an unparseable residual: printed as 'residual ?'" \
	grep -q "^  n 100 nb 10: 0.500 s, 1.368 Gflop/s, residual ? PASSED$" "$tmp/err"

# --- 6. compare on the driver: per size, and the picture -------------------
cfg cmp lu "B: 3" "n: [96, 160]" "emulate: true"
"$HETLAUNCH" compare "$tmp/cmp.yaml" --quiet --out "$tmp/cmp-drv" >/dev/null 2>"$tmp/err"
rc=$?
check "compare on the driver: exit 0, compare.json has the speedup of each size" \
	test $rc -eq 0 -a "$(json "$tmp/cmp-drv/compare.json" '[s["n"] for s in d["sizes"] if s["speedup"] > 0]')" = "[96, 160]"
check "balance.png is a PNG" \
	test "$(head -c 4 "$tmp/cmp-drv/balance.png" 2>/dev/null | tail -c 3)" = PNG
check "the PNG's path is printed" grep -q "balance picture: $tmp/cmp-drv/balance.png" "$tmp/err"
check "no temporary file left beside it" test -z "$(find "$tmp/cmp-drv" -maxdepth 1 -name '.*')"
# Without gnuplot: a clear line and no PNG (PATH without it).
mkdir -p "$tmp/bin"
ln -s "$(command -v mpiexec.hydra)" "$tmp/bin/mpiexec.hydra"
for p in hydra_pmi_proxy; do
	q=$(command -v $p) && ln -s "$q" "$tmp/bin/$p"
done
PATH=$tmp/bin "$PWD/$HETLAUNCH" compare "$tmp/cmp.yaml" --quiet --out "$tmp/cmp-nognu" >/dev/null 2>"$tmp/err"
check "without gnuplot: a clear line, no balance.png" \
	test -e "$tmp/cmp-nognu/compare.json" -a ! -e "$tmp/cmp-nognu/balance.png" -a \
	     -n "$(grep 'gnuplot is not installed' "$tmp/err")"

# --- 7. emulate_mflops: a machine's speed whatever its cycle_time ----------
cat >"$tmp/emf.yaml" <<YAML
name: emf
machines:
  - {name: fast, cycle_time: 1}
  - {name: slow, cycle_time: 2, emulate_mflops: 75}
kernel: exec
program: $PWD/$PROBE
args: ['200', '3']
n: 64
nb: 16
emulate: {mflops: 300, cycle_time: 1}
timeout: 120
YAML
"$HETLAUNCH" run "$tmp/emf.yaml" --baseline cyclic --quiet --out "$tmp/run-emf" >/dev/null 2>"$tmp/err"
rc=$?
read -r tf ts <<<"$(awk '$1 == "hl-probe" { printf "%s ", $5 }' "$tmp/run-emf/log.txt" 2>/dev/null)"
check "emulate_mflops: 75 against 300 Mflop/s: the probe 4x slower within 5% ($tf s, $ts s)" \
	test $rc -eq 0 -a -n "${ts:-}" -a "$(awk -v a="${tf:-1}" -v b="${ts:-0}" 'BEGIN {r = b / a; print (r > 3.8 && r < 4.2)}')" = 1
check "... and the report gives its speed" \
	test "$(json "$tmp/run-emf/report.json" '[m["mflops"] for m in d["emulation"]["machines"]]')" = "[300, 75]"

echo "driver tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
