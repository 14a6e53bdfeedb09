#!/usr/bin/env bash
# openmpi_test.sh -- `mpi: openmpi` end to end, with real Open MPI (mpirun),
# lib/hetlaunch/openmpi/hl-driver, Debian's openmpi build of the stock testers
# and lib/hetlaunch/openmpi/libhetlaunch-rt.so:
#   * the runtime: tests/e2e/mpi/patterns built with mpicc.openmpi gives the
#     same results with and without the preload (bit-identical but for
#     floating-point reduce sums, whose order is the algorithm's);
#   * hl-driver (its Open MPI build) and the stock xdlu PASSED through
#     hetlaunch, 1d and 2d, emulated, placement verified; hl-driver's qr,
#     chol and mm 2d; stock mm (dpb3tim) 2d emulated;
#   * real hosts (localhost): the rankfile, its command, PASSED, verified;
#   * calibrate with the Open MPI probe (and on kernel: hpl, n: auto, at the
#     plan's n); MPI_Abort (C and Fortran) named with its rank and code, and
#     a dead rank named;
#   * Ctrl-C exits 1, says so, and leaves no process and no shared memory.
# Run from the repository root; HETLAUNCH names the binary.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
PRELOAD=${PRELOAD_OPENMPI:-lib/hetlaunch/openmpi/libhetlaunch-rt.so}
. "$(dirname "$0")/../lib.sh"
make_tmp /tmp/hetlaunch-openmpi-test.XXXXXX
# its own json: without Python's error messages
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null; }
for c in mpirun mpicc.openmpi mpif90.openmpi pkg-config python3; do
	command -v $c >/dev/null 2>&1 || { bad "missing $c (scripts/install-deps installs it)"; exit 1; }
done
[ -f "$PRELOAD" ] || { bad "no $PRELOAD (make)"; exit 1; }
# loaded into every rank: MPI and the C library, not LAPACK nor GLPK
if ldd "$PRELOAD" >"$tmp/ldd" 2>&1 && ! grep -Eq 'lib(lapack|glpk|blas)' "$tmp/ldd"; then
	ok "$PRELOAD links neither LAPACK nor GLPK"
else
	bad "$PRELOAD: $(grep -Eo 'lib(lapack|glpk|blas)[^ ]*' "$tmp/ldd" | tr '\n' ' ')"
fi
# Open MPI refuses root unless told (hetlaunch passes --allow-run-as-root itself).
ROOTOK=()
[ "$(id -u)" -eq 0 ] && ROOTOK=(--allow-run-as-root)

# Ours: processes whose working directory or command line is under $tmp.
ours() {
	local p cwd
	for p in /proc/[0-9]*; do
		cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
		case "$cwd $(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" in
		*"$tmp"*) echo "${p#/proc/} $(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" ;;
		esac
	done
}

# same_patterns DIR1 DIR2: every line bit-identical, but MPI_Reduce with
# MPI_SUM on doubles, whose order of additions is the algorithm's: the
# runtime's binomial tree (the order of MPICH's, bit-identical there) is
# not Open MPI's, and the last bit of those sums may differ (measured: the
# reduce-sum lines only).  Those agree to 1e-14, relative.
same_patterns() {
	python3 - "$1" "$2" <<'PY'
import os, sys
a, b = sys.argv[1], sys.argv[2]
if sorted(os.listdir(a)) != sorted(os.listdir(b)):
    sys.exit(1)
for f in os.listdir(a):
    la, lb = open(os.path.join(a, f)).read().split("\n"), open(os.path.join(b, f)).read().split("\n")
    if len(la) != len(lb):
        sys.exit(1)
    for x, y in zip(la, lb):
        if x == y:
            continue
        wx, wy = x.split(), y.split()
        if "reduce-sum" not in x or wx[:2] != wy[:2] or len(wx) != len(wy):
            sys.exit(1)
        for u, v in zip(wx[2:], wy[2:]):
            fu, fv = float.fromhex(u), float.fromhex(v)
            if abs(fu - fv) > 1e-14 * max(abs(fu), abs(fv)):
                sys.exit(1)
PY
}

# --- the runtime under Open MPI: the same patterns ------------------------------
if mpicc.openmpi -std=c11 -O1 -o "$tmp/patterns" tests/e2e/mpi/patterns.c -lblas 2>"$tmp/cc.err"; then
	for np in 4 6; do
		mkdir -p "$tmp/plain$np" "$tmp/pre$np"
		timeout 120 mpirun "${ROOTOK[@]}" --oversubscribe -np $np "$tmp/patterns" "$tmp/plain$np" >/dev/null 2>&1
		timeout 120 mpirun "${ROOTOK[@]}" --oversubscribe -np $np -x LD_PRELOAD="$PRELOAD" \
			"$tmp/patterns" "$tmp/pre$np" >/dev/null 2>&1
		n=$(cat "$tmp/pre$np"/rank-*.txt 2>/dev/null | wc -l)
		if [ "$n" -gt 0 ] && same_patterns "$tmp/plain$np" "$tmp/pre$np"; then
			ok "patterns on $np ranks (Open MPI): $n result lines the same with the preload"
		else
			bad "patterns on $np ranks (Open MPI) differ with the preload ($n lines)"
		fi
	done
else
	bad "building patterns with mpicc.openmpi: $(head -5 "$tmp/cc.err")"
fi

# --- stock testers through hetlaunch ----------------------------------------------------
yaml() { lhpc_yaml "$@" "mpi: openmpi"; }  # NAME LAYOUT KERNEL EXTRA...
yaml lu1d 1d lu "B: 6"
yaml lu2d 2d lu "grid: [2, 2]" "panel: [3, 3]"
yaml qr2d 2d qr "grid: [2, 2]" "panel: [3, 3]"
yaml chol2d 2d chol "grid: [2, 2]" "panel: [3, 3]"
yaml mm2d 2d mm "grid: [2, 2]" "panel: [3, 3]"
yaml stocklu1d 1d lu "B: 6" "tester: stock"
yaml stocklu2d 2d lu "grid: [2, 2]" "panel: [3, 3]" "tester: stock"
yaml stockmm2d 2d mm "grid: [2, 2]" "panel: [3, 3]" "tester: stock"
for t in lu1d lu2d qr2d chol2d mm2d stocklu1d stocklu2d stockmm2d; do
	d=$tmp/run-$t
	"$HETLAUNCH" run "$tmp/$t.yaml" --quiet --out "$d" >/dev/null 2>"$tmp/err"
	rc=$?
	got=$(json "$d/report.json" 'd["passed"], d["placement"], d["nprow"] * d["npcol"]')
	if [ $rc -eq 0 ] && [ "${got% *}" = "True verified" ]; then ok "$t (Open MPI, emulated): passed, placement verified, ${got##* } ranks"
	else bad "$t (Open MPI): exit $rc, $got: $(tail -3 "$tmp/err")"; tail -5 "$d/log.txt" 2>/dev/null; fi
	case $t in stock*) prog=/openmpi-tests/ ;; *) prog=/hetlaunch/openmpi/hl-driver ;; esac
	if grep -q "^mpirun .*--oversubscribe --bind-to none .*-x LD_PRELOAD=[^ ]*/hetlaunch/openmpi/libhetlaunch-rt.so .*$prog" "$d/command.txt"; then
		ok "$t: mpirun with the Open MPI runtime and program ($prog)"
	else bad "$t: command.txt: $(tail -1 "$d/command.txt")"; fi
	attached=$(json "$d/report.json" 'd["emulation"]["attached"]')
	if [ "$attached" = "${got##* }" ]; then ok "$t: every rank attached to the emulated cluster"
	else bad "$t: $attached ranks attached to the emulation, want ${got##* }"; fi
done

# hl-ring's Open MPI build: layout ring, emulated with its links (paper 004).
{ cat tests/cli/good/ring-emulated.yaml; echo "mpi: openmpi"; } >"$tmp/ring.yaml"
"$HETLAUNCH" run "$tmp/ring.yaml" --quiet --out "$tmp/run-ring" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(json "$tmp/run-ring/report.json" 'd["passed"], d["placement"]')" = "True verified" ] &&
	grep -q "^mpirun .*/hetlaunch/openmpi/hl-ring" "$tmp/run-ring/command.txt"; then
	ok "layout ring (Open MPI hl-ring, emulated links): passed, placement verified"
else bad "layout ring with mpi: openmpi: exit $rc: $(tail -3 "$tmp/err")"; fi

# --- the virtual clock under Open MPI: every kernel -------------------------------------
# Open MPI's progress engine reads CLOCK_MONOTONIC (libevent) inside every
# PMPI_Test; the runtime once took those reads for the program's, charged a
# segment from inside MPI and re-entered its buffered sends: "double free",
# SIGSEGV in every run of the lhpc LU below.  Small sizes, one run each.
VEMU="{mflops: 300, cycle_time: 100, latency_us: 60, bandwidth_mbps: 200, clock: virtual}"
vyaml() {  # NAME LAYOUT KERNEL EXTRA...: yaml's file under the virtual clock
	yaml "$@"
	sed -i "s/^emulate: true\$/emulate: $VEMU/" "$tmp/$1.yaml"
}
vyaml vlu1d 1d lu "B: 6"
vyaml vqr2d 2d qr "grid: [2, 2]" "panel: [3, 3]"
vyaml vchol2d 2d chol "grid: [2, 2]" "panel: [3, 3]"
vyaml vmm2d 2d mm "grid: [2, 2]" "panel: [3, 3]"
vyaml vstocklu1d 1d lu "B: 6" "tester: stock"
vyaml vstockmm2d 2d mm "grid: [2, 2]" "panel: [3, 3]" "tester: stock"
# the lhpc LU of configs/lhpc-emulated.yaml at n = 800, 9 ranks
sed -e 's/^n: 2400$/n: 800/' -e 's/^  network: switch$/  network: switch\n  clock: virtual/' \
	configs/lhpc-emulated.yaml >"$tmp/vlhpc.yaml"
echo "mpi: openmpi" >>"$tmp/vlhpc.yaml"
{ sed -e 's/^emulate: {network: links}$/emulate: {network: links, clock: virtual}/' tests/cli/good/ring-emulated.yaml
  echo "mpi: openmpi"; } >"$tmp/vring.yaml"
cat >"$tmp/vmw.yaml" <<YAML
layout: master-worker
master: m0
blocks: [3, 4, 6]
memory_blocks: 21
block_time: 1
scheduler: holm
kernel: mw
nb: 16
timeout: 120
mpi: openmpi
emulate: {mflops: 100, cycle_time: 1, bandwidth_mbps: 50, network: bus, clock: virtual, cpu_time: false}
machines:
  - {name: m0, cycle_time: 1}
  - {name: w, cycle_time: 1, count: 3}
YAML
{ sed -e 's/^n: 640$/n: 128/' -e 's/^nb: 32$/nb: 16/' -e 's/^timeout: .*/timeout: 120/' experiments/configs/001-table2-emulated.yaml
  echo "mpi: openmpi"; } >"$tmp/vmmm.yaml"
for t in vlhpc vlu1d vqr2d vchol2d vmm2d vstocklu1d vstockmm2d vring vmw vmmm; do
	d=$tmp/run-$t
	timeout 300 "$HETLAUNCH" run "$tmp/$t.yaml" --quiet --out "$d" >/dev/null 2>"$tmp/err"
	rc=$?
	got=$(json "$d/report.json" 'd["passed"], d["emulation"]["clock"], d["emulation"]["out_of_order"]')
	case "$rc $got" in
	"0 True virtual "*) ok "$t (Open MPI, clock: virtual): passed, ${got##* } bookings out of order" ;;
	*) bad "$t (Open MPI, clock: virtual): exit $rc, $got: $(tail -3 "$tmp/err")"; grep -m3 -i "signal\|free\|corrupt" "$d/log.txt" ;;
	esac
done
# exec: the patterns program, the same lines as without the runtime
if [ -x "$tmp/patterns" ]; then
	mkdir -p "$tmp/vpat"
	patterns_yaml "$tmp/patterns" "$tmp/vpat" "{mflops: 1000, cycle_time: 1, latency_us: 50, bandwidth_mbps: 1000, clock: virtual}"
	echo "mpi: openmpi" >>"$tmp/patterns.yaml"
	timeout 300 "$HETLAUNCH" run "$tmp/patterns.yaml" --quiet --out "$tmp/run-vpat" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && same_patterns "$tmp/plain4" "$tmp/vpat"; then
		ok "exec patterns (Open MPI, clock: virtual): the same lines as without the runtime"
	else bad "exec patterns (Open MPI, clock: virtual): exit $rc: $(tail -3 "$tmp/err")"; fi
fi
# the stall watchdog under Open MPI: two ranks that each receive first
# (tests/e2e/mpi/virtual_times.c deadlock), HETLAUNCH_STALL_S=3: ended as
# stalled, exit 1, each rank's MPI_Recv in log.txt, job.stalled true
if mpicc.openmpi -std=c11 -O1 -o "$tmp/vclock" tests/e2e/mpi/virtual_times.c -lblas 2>"$tmp/cc.err"; then
	cat >"$tmp/dead.yaml" <<YAML
machines:
  - {name: a, cycle_time: 1}
  - {name: b, cycle_time: 1}
B: 2
kernel: exec
program: $tmp/vclock
args: [deadlock]
mpi: openmpi
emulate: {mflops: 1000, cycle_time: 1, clock: virtual}
timeout: 120
YAML
	t0=$(date +%s)
	HETLAUNCH_STALL_S=3 timeout 60 "$HETLAUNCH" run "$tmp/dead.yaml" --quiet --out "$tmp/run-dead" >/dev/null 2>"$tmp/err"
	rc=$? wall=$(( $(date +%s) - t0 ))
	if [ $rc = 1 ] && [ "$(json "$tmp/run-dead/report.json" 'd["job"]["stalled"]')" = True ] &&
	   [ $wall -lt 30 ] && grep -q "stalled: rank 1 .*in MPI_Recv: waits for a message from rank 0" "$tmp/run-dead/log.txt" &&
	   grep -q "stalled" "$tmp/err"; then
		ok "a deadlock under Open MPI is ended as stalled (HETLAUNCH_STALL_S=3): exit 1 in $wall s, each rank's MPI_Recv named"
	else bad "deadlock under Open MPI: exit $rc in $wall s: $(grep stalled "$tmp/err" | head -3)"; fi
else bad "building vclock with mpicc.openmpi: $(head -5 "$tmp/cc.err")"; fi
# exec: Debian's hpcc (linked with Open MPI), N = 400 on 2 x 2; it reads
# hpccinf.txt from its working directory, the run directory.  Its MPI
# polling (MPI_Test, Testany, Waitany) once hung at its end.  Its HPL part
# polls with MPI_Iprobe, which the runtime does not interpose: under the
# ordering that part waits for the escape at every step (minutes), so this
# run leaves the ordering off (HETLAUNCH_VORDER=0).
if [ -x /usr/bin/hpcc ]; then
	cat >"$tmp/hpcc.yaml" <<YAML
name: hpcc
mpi: openmpi
machines:
  - {name: fast, cycle_time: 1}
  - {name: slow, cycle_time: 2}
B: 4
n: 400
nb: 40
kernel: exec
program: /usr/bin/hpcc
emulate: {mflops: 1000, cycle_time: 1, latency_us: 50, bandwidth_mbps: 1000, clock: virtual}
timeout: 120
YAML
	mkdir -p "$tmp/run-hpcc"
	sed -e '6s/.*/400          Ns/' -e '8s/.*/40           NBs/' -e '11s/.*/2            Ps/' \
		-e '12s/.*/2            Qs/' /usr/share/doc/hpcc/examples/_hpccinf.txt >"$tmp/run-hpcc/hpccinf.txt" 2>/dev/null
	HETLAUNCH_VORDER=0 timeout 200 "$HETLAUNCH" run "$tmp/hpcc.yaml" --quiet --out "$tmp/run-hpcc" >/dev/null 2>"$tmp/err"
	rc=$?
	o=$tmp/run-hpcc/hpccoutf.txt
	if [ $rc -eq 0 ] && grep -q "^End of HPC Challenge tests" "$o" 2>/dev/null &&
		grep -q "^HPL_N=400$" "$o" && grep -q "^WR.* 400 .*40 .*2 .*2 " "$o"; then
		ok "exec hpcc (Open MPI, clock: virtual, no ordering): every part ran, HPL at N = 400, exited"
	else bad "exec hpcc (Open MPI, clock: virtual): exit $rc: $(tail -3 "$tmp/err")"; fi
else
	echo "SKIP: exec hpcc under the virtual clock: no /usr/bin/hpcc (Debian's hpcc package)"
fi

# --- real hosts: the rankfile ----------------------------------------------------------------
cat >"$tmp/local.yaml" <<YAML
name: local
mpi: openmpi
machines:
  - {name: a, host: localhost, cycle_time: 1}
  - {name: b, host: localhost, cycle_time: 2}
layout: 1d
B: 3
kernel: lu
n: 120
nb: 16
timeout: 120
YAML
d=$tmp/run-local
"$HETLAUNCH" run "$tmp/local.yaml" --quiet --out "$d" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(json "$d/report.json" 'd["passed"], d["placement"]')" = "True verified" ]; then
	ok "localhost, rankfile: passed, placement verified"
else bad "localhost, rankfile: exit $rc: $(tail -3 "$tmp/err")"; fi
"$HETLAUNCH" hostfile "$tmp/local.yaml" --format openmpi >"$tmp/rankfile.want" 2>/dev/null
if cmp -s "$tmp/rankfile.want" "$d/hosts.openmpi" &&
	grep -q "^mpirun .*-np 3 --rankfile $d/hosts.openmpi " "$d/command.txt"; then
	ok "localhost: mpirun --rankfile with hetlaunch hostfile --format openmpi's file"
else bad "localhost: rankfile or command: $(tail -1 "$d/command.txt")"; fi

# --- calibrate with the Open MPI probe ----------------------------------------------------
cat >"$tmp/cal.yaml" <<YAML
name: cal
mpi: openmpi
machines:
  - {name: lhpcb, cycle_time: 100}
  - {name: lhpcf, cycle_time: 143}
  - {name: lhpci, cycle_time: 353}
emulate: {mflops: 600, cycle_time: 100}
YAML
# Under load, the Open MPI calibration overran (one segment of the fastest
# machine 0.3-0.7 s late: 2 runs of 4 at load average 6, MPICH 0 of 4 at
# the same time; not explained): a run whose report flags its overruns
# (the emulation says it could not keep up) is repeated, 3 runs at most.
cal_ok() {
	python3 - "$tmp/cal.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["machines"]
ok = True
for x in m:
    want = x["configured_cycle_time"] / m[0]["configured_cycle_time"]
    got = x["cycle_time"] / m[0]["cycle_time"]
    ok &= abs(got / want - 1) <= 0.02
print(" ".join("%.4f" % (x["cycle_time"] / m[0]["cycle_time"]) for x in m))
sys.exit(0 if ok else 1)
PY
}
for try in 1 2 3; do
	rm -rf "$tmp/run-cal"
	"$HETLAUNCH" calibrate "$tmp/cal.yaml" --json --quiet --out "$tmp/run-cal" >"$tmp/cal.json" 2>"$tmp/err"
	rc=$?
	flagged=$(json "$tmp/run-cal/report.json" 'd["emulation"]["overrun_flagged"]')
	[ "$flagged" = True ] && [ $try -lt 3 ] && { echo "note: calibrate run $try flagged for overruns: again"; continue; }
	break
done
ratios=$(cal_ok)
cal=$?
if [ $rc -eq 0 ] && grep -q "/hetlaunch/openmpi/hl-probe" "$tmp/run-cal/command.txt"; then
	ok "calibrate runs the Open MPI probe"
else bad "calibrate with mpi: openmpi: exit $rc: $(tail -3 "$tmp/err")"; fi
if [ "$flagged" = True ]; then
	echo "NOTE: calibrate (Open MPI): 3 runs flagged for overruns (this computer could not keep up); ratios $ratios not asserted"
elif [ $cal -eq 0 ]; then ok "calibrate (Open MPI): ratios $ratios, configured 1 1.43 3.53, within 2%"
else bad "calibrate (Open MPI): ratios $ratios, configured 1 1.43 3.53: not within 2%"; fi

# kernel: hpl with n: auto: the probe times HPL's update (LU's) at the n the
# plan chooses, and its own plan records that n (they were order 500 and n = nb)
cat >"$tmp/cal-auto.yaml" <<YAML
name: cal-auto
machines:
  - {name: fast, cycle_time: 1, memory_gb: 0.05}
  - {name: slow, cycle_time: 2, count: 2, memory_gb: 0.05}
kernel: hpl
n: auto
nb: 40
emulate: {mflops: 1000, cycle_time: 1}
YAML
n=$("$HETLAUNCH" plan --json "$tmp/cal-auto.yaml" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["n"])')
"$HETLAUNCH" calibrate "$tmp/cal-auto.yaml" --json --quiet --out "$tmp/run-cal-auto" >"$tmp/cal.json" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$n" -gt 40 ] && grep -q "hpl's trailing update at n = $n, nb = 40" "$tmp/cal.json" &&
	[ "$(json "$tmp/run-cal-auto/plan.json" 'd["n"]')" = "$n" ]; then
	ok "calibrate, kernel: hpl, n: auto: HPL's update at the plan's n = $n"
else bad "calibrate on n: auto: exit $rc, plan's n $n: $(grep -o '"dgemm_why": "[^"]*"' "$tmp/cal.json") $(tail -2 "$tmp/err")"; fi

# --- failures: a rank that calls MPI_Abort, a rank that dies ------------------------------------
# One rank aborts: when every rank calls MPI_Abort at once, Open MPI 4.1.4's
# mpirun often fails to print its MPI_ABORT notice ("ORTE_ERROR_LOG: Out of
# resource in file .../show_help.c"), and it loses it in about half of the
# runs even then (5 of 10 here without the runtime).  The rank and its code
# come from the runtime's record; the notice is added when it is there.
abort_case() {  # WHAT PROGRAM
	sed -e 's/^kernel: lu$/kernel: exec/' "$tmp/local.yaml" >"$tmp/abort.yaml"
	printf 'program: %s\nargs: [1, 3]\n' "$2" >>"$tmp/abort.yaml"
	"$HETLAUNCH" run "$tmp/abort.yaml" --quiet --out "$tmp/run-abort" >/dev/null 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -q "rank 1 called MPI_Abort (error code 3)" "$tmp/err" &&
	   [ "$(json "$tmp/run-abort/report.json" \
	        '[d["job"]["aborted_by"][k] for k in ("rank", "code")]')" = "[1, 3]" ]; then
		ok "$1 under Open MPI: exit 1, rank 1 and code 3 named$(grep -q 'was invoked' "$tmp/err" \
		    && echo ", with mpirun's notice")"
	else bad "$1 under Open MPI: exit $rc: $(tail -3 "$tmp/err")"; fi
	rm -rf "$tmp/run-abort"
}
mpicc.openmpi -o "$tmp/abort" tests/e2e/mpi/abort.c
abort_case MPI_Abort "$tmp/abort"
# Open MPI's Fortran MPI_ABORT calls PMPI_Abort: the runtime interposes it
# too (MPI started by BLACS's C MPI_Init, as the stock testers do).
mpif90.openmpi -o "$tmp/fabort" tests/e2e/mpi/fabort.f90 $(pkg-config --libs scalapack-openmpi)
abort_case "Fortran's MPI_ABORT" "$tmp/fabort"
cat >"$tmp/seg.c" <<'C'
#include <mpi.h>
#include <signal.h>
int main(int argc, char **argv)
{
	int r;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	if (r == 1)
		raise(SIGSEGV);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
C
mpicc.openmpi -o "$tmp/seg" "$tmp/seg.c"
sed -e 's/^kernel: lu$/kernel: exec/' "$tmp/local.yaml" >"$tmp/seg.yaml"
printf 'program: %s\n' "$tmp/seg" >>"$tmp/seg.yaml"
"$HETLAUNCH" run "$tmp/seg.yaml" --quiet --out "$tmp/run-seg" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "a rank died: mpirun noticed that process rank 1 .*signal 11" "$tmp/err"; then
	ok "a rank killed by a signal under Open MPI: exit 1, named"
else bad "SIGSEGV under Open MPI: exit $rc: $(tail -3 "$tmp/err")"; fi

# A rank that exit(0)s without MPI_Finalize: mpirun says only that it
# exited 1; hetlaunch names the rank and how it ended.
mpicc.openmpi -o "$tmp/nofinalize" tests/e2e/mpi/nofinalize.c
sed -e 's/^kernel: lu$/kernel: exec/' "$tmp/local.yaml" >"$tmp/nofin.yaml"
printf 'program: %s\nargs: ["1"]\n' "$tmp/nofinalize" >>"$tmp/nofin.yaml"
"$HETLAUNCH" run "$tmp/nofin.yaml" --quiet --out "$tmp/run-nofin" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "rank 1 of 3 ended without calling MPI_Finalize" "$tmp/err"; then
	ok "a rank without MPI_Finalize under Open MPI: exit 1, named"
else bad "a rank without MPI_Finalize under Open MPI: exit $rc: $(tail -3 "$tmp/err")"; fi

# --- Ctrl-C -----------------------------------------------------------------------------------
sed -e 's/^kernel: lu$/kernel: exec/' "$tmp/local.yaml" >"$tmp/sleep.yaml"
printf 'program: /bin/sleep\nargs: ["60"]\n' >>"$tmp/sleep.yaml"
"$HETLAUNCH" run "$tmp/sleep.yaml" --quiet --out "$tmp/run-int" >/dev/null 2>"$tmp/int.err" &
hl=$!
for _ in $(seq 1 100); do
	[ "$(ours | grep -c 'sleep 60')" -ge 3 ] && break
	sleep 0.1
done
kill -INT $hl
wait $hl
rc=$?
if [ $rc -eq 1 ] && grep -q "interrupted" "$tmp/int.err"; then ok "Ctrl-C: exit 1, 'interrupted'"
else bad "Ctrl-C: exit $rc: $(tail -3 "$tmp/int.err")"; fi
sleep 0.5
left=$(ours)
if [ -z "$left" ]; then ok "Ctrl-C: no stray processes"; else bad "Ctrl-C: stray processes:"; echo "$left"; fi
leaked=''
for f in /dev/shm/hetlaunch-$hl-*; do [ -e "$f" ] && leaked="$leaked $f"; done
if [ -z "$leaked" ]; then ok "Ctrl-C: no shared memory left"; else bad "Ctrl-C: shared memory left:$leaked"; fi

echo "openmpi tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
