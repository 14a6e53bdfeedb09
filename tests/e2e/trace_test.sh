#!/usr/bin/env bash
# trace_test.sh -- end-to-end tests of the run directory's trace.json (the
# ranks' timelines, vproc/runtime/core/timeline.c, launcher/launch/trace.c)
# and of MPI calls from threads under emulation, with real MPICH and Open
# MPI:
#   * trace.json is JSON, has one named track per rank, its events on each
#     track follow one another, and each rank's compute and wait add up to
#     report.json's ranks[] (the runtime's account) within 1% of the
#     rank's span: virtual and real clock, MPICH and Open MPI, not emulated;
#   * a long run with a small cap per rank (HETLAUNCH_TRACE_EVENTS) stays
#     within it, and its totals stay exact; 64 ranks stay within the
#     documented bound;
#   * MPI_Init_thread(MPI_THREAD_MULTIPLE) under emulation provides
#     MPI_THREAD_FUNNELED (a program that honours it runs), and a program
#     that calls MPI from a second thread anyway is ended within seconds,
#     with the reason, not left to hang until timeout: (both clocks, both
#     MPIs).
# Run from the repository root.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
OBJ=${OBJ:-build/release}
VCLOCK=$PWD/$OBJ/tests/e2e/mpi/virtual_times
THREADS=$PWD/$OBJ/tests/e2e/mpi/threads
THREADS_OMPI=$PWD/$OBJ/tests/e2e/mpi-openmpi/threads
. "$(dirname "$0")/../lib.sh"
make_tmp /tmp/hetlaunch-trace-test.XXXXXX

EMU="mflops: 500, cycle_time: 1, latency_us: 100, bandwidth_mbps: 100"

# yaml NAME PROGRAM NMACHINES B EMULATE EXTRA ARGS...: $tmp/NAME.yaml, machines of
# cycle times 1, 2, 1, 2, ... on localhost
yaml() {
	local name=$1 prog=$2 nm=$3 B=$4 emu=$5 extra=$6; shift 6
	{
		echo "name: $name"
		echo "machines:"
		for ((i = 0; i < nm; i++)); do echo "  - {name: m$i, cycle_time: $((1 + i % 2)), host: localhost}"; done
		echo "B: $B"
		echo "n: 64"
		echo "nb: 16"
		echo "kernel: exec"
		echo "program: $prog"
		echo "args: [$(IFS=,; echo "$*")]"
		echo "emulate: $emu"
		echo "timeout: 120"
		[ -n "$extra" ] && echo "$extra"
	} >"$tmp/$name.yaml"
}

run() {  # NAME: into $tmp/run-NAME; the status in $rc
	"$HETLAUNCH" run "$tmp/$1.yaml" --quiet --out "$tmp/run-$1" >/dev/null 2>"$tmp/$1.err"
	rc=$?
}

# trace_ok RUNDIR CLOCK [CAP]: trace.json against report.json; prints what
# it found, fails with the reason
trace_ok() {
	python3 - "$@" <<'PY'
import json, sys
d, clock = sys.argv[1], sys.argv[2]
cap = int(sys.argv[3]) if len(sys.argv) > 3 else None
t = json.load(open(d + "/trace.json"))
r = json.load(open(d + "/report.json"))
n = r["nranks"]
ev = t["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
want = {k + 1: "rank %d (%s)" % (k, r["ranks"][k]["machine"]) for k in range(n)}
assert names == want, "tracks %s, not %s" % (names, want)
x = [e for e in ev if e["ph"] == "X"]
comp, wait, end, count = [0.0] * n, [0.0] * n, [None] * n, [0] * n
for e in x:
    k = e["tid"] - 1
    assert e["dur"] >= 0 and (end[k] is None or e["ts"] >= end[k] - 0.002), "overlap on rank %d at %s" % (k, e["ts"])
    end[k] = e["ts"] + e["dur"]
    count[k] += 1
    a = e.get("args", {})
    comp[k] += a.get("compute_us", e["dur"] if e["cat"] == "compute" else 0)
    wait[k] += a.get("wait_us", e["dur"] if e["cat"] == "wait" else 0)
for k in range(n):
    rc, rw = r["ranks"][k]["compute"] * 1e6, r["ranks"][k]["wait"] * 1e6
    span = rc + rw
    assert abs(comp[k] + wait[k] - span) <= 0.01 * span, "rank %d: %g + %g us, span %g" % (k, comp[k], wait[k], span)
    assert abs(comp[k] - rc) <= 0.01 * span and abs(wait[k] - rw) <= 0.01 * span, \
        "rank %d: compute %g wait %g us, report %g %g" % (k, comp[k], wait[k], rc, rw)
    assert cap is None or count[k] <= cap, "rank %d: %d events, cap %d" % (k, count[k], cap)
size = len(open(d + "/trace.json").read())
# doc/format.md: an event is at most 180 bytes (and the tracks' names)
assert cap is None or size <= 180 * len(x) + 400 * n, "%d bytes for %d events" % (size, len(x))
o = t["otherData"]
assert o["clock"] == clock, "clock %s" % o["clock"]
assert o["ranks_traced"] == n and o["ranks_missing"] == [], o
assert r["trace"]["events"] == len(x) == o["events"], (r["trace"], len(x))
print("%d ranks, %d events (%d per rank at most), %d of %d segments merged, %d bytes, resolution %g us"
      % (n, len(x), max(count), o["merged"], o["segments"], size, o["resolution_us"]))
PY
}

check_trace() {  # WHAT NAME CLOCK [CAP]
	local what=$1 name=$2 clock=$3 got; shift 3
	if [ "$rc" -ne 0 ]; then bad "$what: exit $rc: $(tail -3 "$tmp/$name.err")"; return; fi
	if got=$(trace_ok "$tmp/run-$name" "$clock" "$@" 2>&1); then ok "$what: $got"
	else bad "$what: $(tail -1 <<<"$got")"; fi
}

# --- 1. the timeline adds up to the account -----------------------------------
# vclock wildcard: rank 1 computes 0.256 s, rank 2 a little and sleeps,
# rank 0 waits in MPI_Recv (tests/e2e/vclock_test.sh, section 4).
for clk in "virtual, cpu_time: false" real; do
	c=${clk%%,*}
	yaml "w$c" "$VCLOCK" 3 3 "{$EMU, clock: $clk}" "" wildcard 400
	run "w$c"
	check_trace "MPICH, clock: $c" "w$c" "$c"
done
if [ -f "$tmp/run-wvirtual/trace.json" ]; then
	got=$(json "$tmp/run-wvirtual/trace.json" '[e["name"] for e in d["traceEvents"] if e["ph"] == "X" and e["tid"] == 1 and e["dur"] > 100000]')
	check "virtual clock: rank 0's long waits are named MPI_Recv ($got)" test "$got" = "['MPI_Recv']"
	check "no part file left behind" test -z "$(ls "$tmp/run-wvirtual" | grep '\.part$')"
fi
for clk in virtual real; do
	yaml "o$clk" "$THREADS_OMPI" 3 3 "{$EMU, clock: $clk}" "mpi: openmpi" ring 20 100
	run "o$clk"
	check_trace "Open MPI, clock: $clk" "o$clk" "$clk"
done
yaml plain "$THREADS" 3 3 false "" ring 20 100
run plain
check_trace "MPICH, not emulated" plain real

# A rank that exits without MPI_Finalize still leaves its timeline (at exit).
yaml nofin "$THREADS" 3 3 "{$EMU, clock: virtual}" "" no-finalize 20 100
run nofin
got=$(json "$tmp/run-nofin/trace.json" 'd["otherData"]["ranks_traced"], d["otherData"]["ranks_unfinalized"], len([e for e in d["traceEvents"] if e["ph"] == "X"]) > 3' 2>&1)
check "ranks without MPI_Finalize: their timelines, said so ($got)" test "$got" = "3 3 True"

# --- 2. bounded ---------------------------------------------------------------
# 2000 exchanges a rank (4000 segments and more) into 64 events: the
# resolution coarsens, the totals stay exact.
yaml capped "$THREADS" 3 3 "{$EMU, clock: virtual}" "" ring 2000 20
HETLAUNCH_TRACE_EVENTS=64 run capped
check_trace "2000 iterations, 64 events a rank at most" capped virtual 64
# 64 ranks: 200000 / 64 = 3125 events a rank at most (doc/format.md).
yaml big "$THREADS" 32 64 "{$EMU, clock: virtual, cpu_time: false}" "" ring 50 20
sed -i 's/^n: 64$/n: 1024/' "$tmp/big.yaml"   # a column block a rank
run big
check_trace "64 ranks, within the bound" big virtual 3125

# --- 3. threads under emulation ---------------------------------------------------
# Two threads each exchanging 50 times around a ring of 3 ranks used to
# hang both threads in the emulation's sleep until timeout: (both clocks,
# both MPIs).  Asked for MPI_THREAD_MULTIPLE, the program is given
# MPI_THREAD_FUNNELED and makes its calls from one thread; told nothing,
# its second thread's first call ends the job with the reason.
for mpi in mpich openmpi; do
	prog=$THREADS extra=""
	[ $mpi = openmpi ] && prog=$THREADS_OMPI extra="mpi: openmpi"
	for clk in virtual real; do
		yaml "t$mpi$clk" "$prog" 3 3 "{$EMU, clock: $clk}" "$extra" threads 50
		sed -i 's/^timeout: .*/timeout: 60/' "$tmp/t$mpi$clk.yaml"
		run "t$mpi$clk"
		got=$(grep -h '^threads ' "$tmp/run-t$mpi$clk/log.txt" 2>/dev/null | sort | tr '\n' ' ')
		want="threads rank=0 provided=1 threads=1 sum=300 threads rank=1 provided=1 threads=1 sum=200 threads rank=2 provided=1 threads=1 sum=100 "
		check "$mpi, clock: $clk: MULTIPLE asked, FUNNELED provided, one thread runs (exit $rc)" \
			test "$rc $got" = "0 $want"
		yaml "f$mpi$clk" "$prog" 3 3 "{$EMU, clock: $clk}" "$extra" threads-force 50
		sed -i 's/^timeout: .*/timeout: 60/' "$tmp/f$mpi$clk.yaml"
		s=$SECONDS
		run "f$mpi$clk"
		err=$(json "$tmp/run-f$mpi$clk/report.json" 'd.get("error", "")' 2>&1)
		if [ "$rc" -eq 1 ] && [ $((SECONDS - s)) -lt 40 ] &&
			grep -q "from a thread that did not initialise MPI" <<<"$err"; then
			ok "$mpi, clock: $clk: a call from a second thread ends the job in $((SECONDS - s)) s: $err"
		else bad "$mpi, clock: $clk: second thread: exit $rc after $((SECONDS - s)) s: $err"; fi
		got=$(json "$tmp/run-f$mpi$clk/trace.json" 'd["otherData"]["ranks_traced"] + len(d["otherData"]["ranks_missing"])' 2>&1)
		check "$mpi, clock: $clk: trace.json written for the failed job too ($got tracks)" test "$got" = 3
	done
done

echo "trace_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
