#!/usr/bin/env bash
# hpl_test.sh -- kernel: hpl (Debian's hpcc under Open MPI) and kernel: exec's
# inputs:, end to end:
#   * hpcc at n = 400 on an emulated 1 x 3 slice: PASSED, the residual, HPL's
#     own time, placement verified, the Open MPI runtime preloaded, hpccinf.txt
#     in the run directory (command.txt's "run in:");
#   * hpcc on 1 x 6 (more than 4 processes: MPIRandomAccess's MPI_Waitany
#     on several receives, an any-of wait for the virtual clock's order;
#     MPIFFT's MPI_Alltoall, the runtime's own) gets through in well under
#     its 120 s limit, out of order 0, MPIFFT's own check passed;
#   * a FAILED residual (hpl: threshold tiny) is a failed run: exit 1, HPL's
#     words in the message;
#   * compare on kernel: hpl: the cyclic baseline gets its own grid in its
#     own hpccinf.txt, a speedup per size, and balance.png from the
#     runtime's per-rank times (hpcc prints none);
#   * inputs: for an exec program: compare's two runs each get their own deck.
# Run from the repository root; HETLAUNCH names the binary.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
. "$(dirname "$0")/../lib.sh"
make_tmp /tmp/hetlaunch-hpl-test.XXXXXX
for c in mpirun python3; do
	command -v $c >/dev/null 2>&1 || { bad "missing $c (scripts/install-deps installs it)"; exit 1; }
done
if [ ! -x /usr/bin/hpcc ]; then
	bad "no /usr/bin/hpcc (Debian's hpcc package: scripts/install-deps)"; echo "$pass passed, $fail failed"; exit 1
fi

hpl_yaml() {  # hpl_yaml NAME EXTRA...: fast + slow (x2), n 400, nb 40, virtual clock
	{ cat <<YAML
name: $1
machines:
  - {name: fast, cycle_time: 1}
  - {name: slow, cycle_time: 2, count: 2}
layout: 1d
kernel: hpl
n: 400
nb: 40
emulate: {clock: virtual, mflops: 1000, cycle_time: 1, latency_us: 50, bandwidth_mbps: 1000}
timeout: 400
YAML
	shift; printf '%s\n' "$@"; } >"$tmp/$1.yaml"
}

# --- one run ---------------------------------------------------------------------
hpl_yaml hpl "B: 4"
d=$tmp/run-hpl
timeout 500 "$HETLAUNCH" run "$tmp/hpl.yaml" --quiet --out "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(json "$d/report.json" 'd["passed"], d["placement"], d["nprow"], d["npcol"], len(d["results"])' 2>/dev/null)
if [ $rc -eq 0 ] && [ "$got" = "True verified 1 4 1" ]; then ok "hpl 1 x 4 (Open MPI, emulated): PASSED, placement verified"
else bad "hpl: exit $rc, $got: $(tail -3 "$tmp/err")"; fi
res=$(json "$d/report.json" '*[d["results"][0][k] for k in ("n", "nb", "nprow", "npcol", "passed")], 0 < d["results"][0]["residual"] < 16, d["results"][0]["time"] > 0, d["results"][0]["gflops"] > 0, d["job"]["other_benchmarks_time"] > 0' 2>/dev/null)
if [ "$res" = "400 40 1 4 True True True True True" ]; then ok "hpl: results[] carry HPL's n, nb, grid, time, Gflop/s and residual; the other benchmarks' time apart"
else bad "hpl: results: $res"; fi
if grep -q "^mpirun .*-x LD_PRELOAD=[^ ]*/openmpi/libhetlaunch-rt.so .*/usr/bin/hpcc\$" "$d/command.txt" &&
	grep -q "^# run in: $d\$" "$d/command.txt" && grep -q "^1 *Ps\$" "$d/hpccinf.txt" &&
	grep -q "^4 *Qs\$" "$d/hpccinf.txt"; then
	ok "hpl: mpirun with the Open MPI runtime in the run directory, its hpccinf.txt 1 x 4"
else bad "hpl: command.txt or hpccinf.txt: $(cat "$d/command.txt")"; fi

# --- HPL without the rest of hpcc -----------------------------------------------------
# hpcc runs HPL last, after fifteen other benchmarks; by default the runtime
# skips the costly ones (refusing rank 0 their tables: hpcc's own check
# then skips them on every rank), and the report splits the job's wall time.
sec() {  # sec RUNDIR SECTION: the lines of one section of hpccoutf.txt
	awk -v s="Begin of $2 section." '$0 == s { f = 1; next } /^End of / { f = 0 } f' "$1/hpccoutf.txt"
}
# (HPL's section at n = 400 may end within one 200 ms poll of the job: 0 s)
split=$(json "$d/report.json" 'd["job"]["all_benchmarks"], 0 <= d["job"]["hpl_wall_time"] <= d["job"]["elapsed"], abs(d["job"]["hpl_wall_time"] + d["job"]["other_benchmarks_time"] - d["job"]["elapsed"]) < 1e-6' 2>&1)
if [ "$split" = "False True True" ] && sec "$d" MPIRandomAccess | grep -q "^Failed to allocate memory for the main table" &&
	sec "$d" MPIRandomAccess_LCG | grep -q "^Failed to allocate" && sec "$d" PTRANS | grep -q "^Failed to allocate" &&
	! sec "$d" MPIRandomAccess | grep -q "GUP/s"; then
	ok "hpl: MPIRandomAccess, its LCG variant and PTRANS skipped; HPL's wall time $(json "$d/report.json" 'round(d["job"]["hpl_wall_time"], 1)') s of the job's $(json "$d/report.json" 'round(d["job"]["elapsed"], 1)') s"
else bad "hpl: skipped sections and the wall-time split: $split; MPIRandomAccess: $(sec "$d" MPIRandomAccess | head -3)"; fi

# --- six processes: Waitany on several receives; hpl: {all_benchmarks: true} runs all --
hpl_yaml six "B: 6" "hpl: {all_benchmarks: true}"
t0=$(date +%s)
timeout 120 "$HETLAUNCH" run "$tmp/six.yaml" --quiet --out "$tmp/run-six" >/dev/null 2>"$tmp/err"
rc=$?
got=$(json "$tmp/run-six/report.json" 'd["passed"], d["npcol"], d["emulation"]["out_of_order"]' 2>/dev/null)
# MPIFFT's data went through the runtime's MPI_Alltoall: its own check
fft=$(awk '/^Begin of MPIFFT/ { f = 1 } f && /^max\(\|x-x0\|\):/ { print ($2 < 1e-10) ? "ok" : $2; exit }' "$tmp/run-six/hpccoutf.txt" 2>/dev/null)
all=$(json "$tmp/run-six/report.json" 'd["job"]["all_benchmarks"]' 2>/dev/null)
if [ $rc -eq 0 ] && [ "$got" = "True 6 0" ] && [ "$fft" = ok ] && [ "$all" = True ] &&
	sec "$tmp/run-six" MPIRandomAccess | grep -q "GUP/s" && sec "$tmp/run-six" PTRANS | grep -q "tests completed and passed"; then
	ok "hpl 1 x 6, all_benchmarks: PASSED in $(( $(date +%s) - t0 )) s, out of order 0, MPIRandomAccess and PTRANS run, MPIFFT's error below 1e-10"
else bad "hpl 1 x 6: exit $rc (124: stuck in hpcc's MPIRandomAccess or MPIFFT), $got, all $all, MPIFFT: $fft"; fi

# --- cpu_time: false: STREAM's checktick and RandomAccess's timings poll the clock --------
# (one process per machine, --baseline cyclic: two on one machine are refused, below)
hpl_yaml cpuf "B: 3"
sed -i 's/bandwidth_mbps: 1000}/bandwidth_mbps: 1000, cpu_time: false}/' "$tmp/cpuf.yaml"
timeout 200 "$HETLAUNCH" run "$tmp/cpuf.yaml" --baseline cyclic --quiet --out "$tmp/run-cpuf" >/dev/null 2>"$tmp/err"
rc=$?
got=$(json "$tmp/run-cpuf/report.json" 'd["passed"], d["emulation"]["cpu_time"]' 2>/dev/null)
if [ $rc -eq 0 ] && [ "$got" = "True False" ] && sec "$tmp/run-cpuf" StarSTREAM | grep -q "^Your clock granularity"; then
	ok "hpl under cpu_time: false: PASSED, STREAM's clock checks through"
else bad "hpl under cpu_time: false: exit $rc (124: a loop polling a clock that never moves), $got: $(tail -2 "$tmp/err")"; fi

# With two ranks on one machine, LatencyBandwidth's ping-pongs between them
# cost nothing under cpu_time: false and it lengthens them for minutes:
# refused at cpu_time's line and column, exit 2, nothing written.
hpl_yaml cpuf2 "B: 4"
sed -i 's/bandwidth_mbps: 1000}/bandwidth_mbps: 1000, cpu_time: false}/' "$tmp/cpuf2.yaml"
"$HETLAUNCH" run "$tmp/cpuf2.yaml" --dry-run --out "$tmp/run-cpuf2" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "cpuf2.yaml:9:[0-9]*: emulate: cpu_time: false with kernel: hpl and two ranks on machine" "$tmp/err" &&
	[ ! -e "$tmp/run-cpuf2" ]; then ok "hpl, cpu_time: false, two ranks on a machine: refused at its line, nothing written"
else bad "hpl, cpu_time: false, two ranks on a machine: exit $rc: $(cat "$tmp/err")"; fi

# --- a FAILED residual is a failed run -------------------------------------------------
hpl_yaml failed "B: 3" "hpl: {threshold: 1e-9}"
timeout 500 "$HETLAUNCH" run "$tmp/failed.yaml" --quiet --out "$tmp/run-failed" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "FAILED" "$tmp/err" &&
	[ "$(json "$tmp/run-failed/report.json" 'd["passed"], d["results"][0]["passed"]')" = "False False" ]; then
	ok "hpl: a FAILED residual exits 1 with HPL's words"
else bad "hpl FAILED: exit $rc: $(tail -3 "$tmp/err")"; fi

# --- compare: the cyclic baseline with its own grid ------------------------------------
hpl_yaml cmp "B: 4"
timeout 1000 "$HETLAUNCH" compare "$tmp/cmp.yaml" --quiet --out "$tmp/cmp" >"$tmp/out" 2>"$tmp/err"
rc=$?
sp=$(json "$tmp/cmp/compare.json" 'd["speedup"] > 0' 2>/dev/null)
if [ $rc -eq 0 ] && [ "$sp" = True ] && grep -q "^3 *Qs\$" "$tmp/cmp/cyclic/hpccinf.txt" &&
	grep -q "^4 *Qs\$" "$tmp/cmp/hetero/hpccinf.txt"; then
	ok "compare hpl: cyclic 1 x 3 and hetero 1 x 4, each in its own hpccinf.txt; speedup $(json "$tmp/cmp/compare.json" 'round(d["speedup"], 2)')"
else bad "compare hpl: exit $rc, speedup $sp: $(tail -3 "$tmp/err")"; fi
# hpcc prints no hetlaunch-rank lines: the runtime's figures (its MPI calls
# under the virtual clock) fill ranks[] and draw the balance picture.
src=$(for m in cyclic hetero; do json "$tmp/cmp/$m/report.json" 'd["ranks_source"], min(r["compute"] + r["wait"] for r in d["ranks"]) > 0' 2>&1; done | paste -sd' ')
if [ "$src" = "runtime True runtime True" ] && [ "$(head -c 4 "$tmp/cmp/balance.png" 2>/dev/null | tail -c 3)" = PNG ] &&
	[ "$(grep -vc '^#' "$tmp/cmp/balance.dat")" = 3 ]; then
	ok "compare hpl: ranks[] from the runtime, balance.png and balance.dat"
else bad "compare hpl: ranks_source $src: $(grep -i balance "$tmp/err")"; fi

# --- inputs: for kernel: exec ------------------------------------------------------------
cat >"$tmp/deck.tmpl" <<'TXT'
mapping {mapping} on {nprocs}
TXT
cat >"$tmp/exec.yaml" <<YAML
name: deck
machines:
  - {name: fast, host: localhost, cycle_time: 1}
  - {name: slow, host: localhost, cycle_time: 2}
layout: 1d
B: 3
n: 64
nb: 16
kernel: exec
mpi: openmpi
program: /bin/true
inputs:
  - file: deck.in
    text: |
      grid {nprow} {npcol} n {n} nb {nb} {{literal}}
  - file: other.in
    template: deck.tmpl
timeout: 60
YAML
timeout 200 "$HETLAUNCH" compare "$tmp/exec.yaml" --quiet --out "$tmp/ex" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$tmp/ex/cyclic/deck.in")" = "grid 1 2 n 64 nb 16 {literal}" ] &&
	[ "$(cat "$tmp/ex/hetero/deck.in")" = "grid 1 3 n 64 nb 16 {literal}" ] &&
	[ "$(cat "$tmp/ex/cyclic/other.in")" = "mapping cyclic on 2" ] &&
	[ "$(cat "$tmp/ex/hetero/other.in")" = "mapping hetero on 3" ]; then
	ok "inputs: compare's cyclic and hetero runs each get their own deck (text and template)"
else bad "inputs: exit $rc: $(tail -3 "$tmp/err"); $(cat "$tmp/ex/"*/deck.in 2>&1)"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
