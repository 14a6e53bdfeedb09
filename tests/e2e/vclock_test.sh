#!/usr/bin/env bash
# vclock_test.sh -- end-to-end tests of emulate: {clock: virtual},
# with real MPICH, the real preload and stock ScaLAPACK:
#   * a ping-pong, a ring, siblings sharing a machine and collectives
#     across machines, whose virtual times are known in closed form
#     (tests/e2e/mpi/virtual_times.c), on a switch and on a bus;
#   * MPI_Wtime and clock_gettime read the same virtual clock;
#   * the MPI patterns BLACS uses give bit-identical results under it;
#   * wildcard receives take the message that arrives first in virtual time;
#   * determinism: an emulated lhpc LU (hl-driver) three times, once beside a
#     CPU hog, within 0.5% (bit-identical when nothing escaped the order);
#   * the same LU under the real-time clock, within 5%;
#   * bad values of clock: exit 2 at line:col;
#   * a job whose ranks did not load the runtime fails (exit 1);
#   * a program that prints no hetlaunch-rank lines gets ranks[] from the
#     runtime (both clocks, and not emulated; null and why with
#     --no-preload), and compare draws balance.png from them.
# Run from the repository root.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
OBJ=${OBJ:-build/release}
VCLOCK=$PWD/$OBJ/tests/e2e/mpi/virtual_times
PATTERNS=$PWD/$OBJ/tests/e2e/mpi/patterns
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/hetlaunch-vclock-test.XXXXXX)
hog=""
trap '[ -n "$hog" ] && kill $hog 2>/dev/null; rm -rf "$tmp"' EXIT

# within A B REL: |A - B| <= REL * |B|
within() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; if (b < 0) b = -b; exit !(d <= r * b) }'; }

# vtime RUNDIR [RANK]: the largest time printed (or that rank's)
vtime() {
	awk -v r="${2:-}" '$1 == "vclock" {
		split($3, a, "="); split($4, t, "=");
		if (r == "" ? t[2] > m : a[2] == r) m = t[2] } END { print m + 0 }' "$1/log.txt"
}

run() {  # NAME [hetlaunch options]: into $tmp/run-NAME
	local name=$1; shift
	run_to "$name" "$name" "$@"
}
run_to() {  # NAME OUT [hetlaunch options]: into $tmp/run-OUT
	local name=$1 out=$2; shift 2
	"$HETLAUNCH" run "$tmp/$name.yaml" --quiet --out "$tmp/run-$out" "$@" 2>"$tmp/$name.err"
}

# --- 1. closed forms ---------------------------------------------------------
# ping-pong: 10 round trips of 125000 bytes at 100 Mb/s (10 ms) + 100 us:
# 2 x 10 x 10.1 ms = 0.202 s.  cpu_time: false, so that nothing but the
# messages moves the clocks: the loop's own CPU time (larger under the
# sanitizers) is not charged, and MPI_Wtime and clock_gettime must agree
# to the nanosecond, whatever the build.
EMU="{mflops: 4000, cycle_time: 1, latency_us: 100, bandwidth_mbps: 100, clock: virtual, cpu_time: false}"
vclock_yaml pp "a:1,b:1" 2 "$EMU" pingpong 125000 10
if run pp; then
	t0=$(vtime "$tmp/run-pp" 0); t1=$(vtime "$tmp/run-pp" 1)
	if within "$t0" 0.202 0.005 && within "$t1" 0.202 0.005; then
		ok "ping-pong: $t0 s and $t1 s, closed form 0.202 s"
	else
		bad "ping-pong: $t0 s and $t1 s, closed form 0.202 s"
	fi
	m0=$(awk '$1 == "vclock" && $3 == "rank=0" { split($5, m, "="); print m[2] }' "$tmp/run-pp/log.txt")
	if within "$m0" "$t0" 0.000001; then
		ok "clock_gettime(CLOCK_MONOTONIC) reads the virtual clock ($m0 s, MPI_Wtime $t0 s)"
	else
		bad "clock_gettime gave $m0 s, MPI_Wtime $t0 s"
	fi
	python3 - "$tmp/run-pp/report.json" <<'PY' && ok "report: emulation.clock virtual, no unstamped message" || bad "report: emulation clock/unstamped"
import json, sys
e = json.load(open(sys.argv[1]))["emulation"]
sys.exit(0 if e["clock"] == "virtual" and e["unstamped"] == 0 else 1)
PY
else
	bad "ping-pong: exit $?"; cat "$tmp/pp.err"
fi

# Two pairs ping-pong at once, on four machines: on a switch each pair
# has its ports (2 K w = 0.2 s), on a bus (latency 0) the four messages
# of a round share it and the last pair ends at 4 K w = 0.4 s.
for net in switch bus; do
	vclock_yaml "pp4$net" "a:1,b:1,c:1,d:1" 4 \
		"{mflops: 4000, cycle_time: 1, bandwidth_mbps: 100, network: $net, clock: virtual}" \
		pingpong 125000 10
	want=0.2; [ $net = bus ] && want=0.4
	if run "pp4$net" --baseline cyclic; then
		t=$(vtime "$tmp/run-pp4$net")
		if within "$t" $want 0.005; then
			ok "two ping-pongs on a $net: $t s, closed form $want s"
		else
			bad "two ping-pongs on a $net: $t s, closed form $want s"
		fi
	else
		bad "two ping-pongs on a $net: exit"; cat "$tmp/pp4$net.err"
	fi
done

# ring: 3 machines at 4000, 2000, 1000 Mflop/s, DGEMM of order 100 (2e6
# flops: 0.5, 1, 2 ms), 125000 bytes at 100 Mb/s (10 ms), 100 us: the
# slowest machine paces it, 20 x (2 + 10) ms = 0.240 s on its rank.
vclock_yaml ring "f:1,m:2,s:4" 3 "$EMU" ring 125000 20 100
if run ring --baseline cyclic; then
	slow=$(awk '$1 == "hetlaunch-rank-machine" {print}' "$tmp/run-ring/log.txt" >/dev/null; \
		python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['ranks']; print([x['rank'] for x in r if x['machine']=='s'][0])" "$tmp/run-ring/report.json")
	t=$(vtime "$tmp/run-ring" "$slow")
	if within "$t" 0.240 0.005; then
		ok "ring: the slow machine's rank $slow took $t s, closed form 0.240 s"
	else
		bad "ring: the slow machine's rank $slow took $t s, closed form 0.240 s"
	fi
else
	bad "ring: exit"; cat "$tmp/ring.err"
fi

# share: 2 machines of 1000 Mflop/s, B = 4 (two ranks on each), 10
# DGEMMs of order 100 (2 ms) per rank: a machine does 2 x 10 x 2 ms = 40 ms.
# cpu_time: false: only the DGEMMs are charged, not the start-up around them.
vclock_yaml share "a:1,b:1" 4 "{mflops: 1000, cycle_time: 1, clock: virtual, cpu_time: false}" share 10 100
if run share; then
	# from the first start to the last end (which sibling goes first
	# is decided by the clocks and ranks: vorder.c)
	t=$(awk '$1 == "vclock" { split($6, s, "="); split($7, e, "=");
		if (lo == "" || s[2] < lo) lo = s[2]; if (e[2] > hi) hi = e[2] }
		END { print hi - lo }' "$tmp/run-share/log.txt")
	if within "$t" 0.040 0.01; then
		ok "two siblings share their machine: $t s, closed form 0.040 s"
	else
		bad "two siblings share their machine: $t s, closed form 0.040 s"
	fi
else
	bad "share: exit"; cat "$tmp/share.err"
fi

# collectives cross the network once per other machine: 2 machines of
# 2 ranks each, interleaved (ranks 0, 2 on a; 1, 3 on b), on a 100 Mb/s
# bus.  10 broadcasts of 125000 bytes (10 ms) from rank 0: one transfer
# each (0 -> 1, then 1 -> 3 inside b), 10 x 10 ms + 100 us = 0.1001 s; a
# tree over the ranks alone crossed twice (0 -> 1 and 2 -> 3): 0.2 s.
# 10 Allreduces of the same size: to a and back, 10 x 2 x 10.1 ms = 0.202 s
# (twice as much over the ranks alone).
EMUBUS="{mflops: 4000, cycle_time: 1, latency_us: 100, bandwidth_mbps: 100, network: bus, clock: virtual, cpu_time: false}"
for coll in bcast:0.1001 allreduce:0.202; do
	vclock_yaml "${coll%%:*}" "a:1,b:1" 4 "$EMUBUS" "${coll%%:*}" 125000 10
	if run "${coll%%:*}"; then
		t=$(vtime "$tmp/run-${coll%%:*}")
		if within "$t" "${coll#*:}" 0.01; then
			ok "${coll%%:*} on 2 machines x 2 ranks, bus: $t s, closed form ${coll#*:} s"
		else
			bad "${coll%%:*} on 2 machines x 2 ranks, bus: $t s, closed form ${coll#*:} s"
		fi
	else
		bad "${coll%%:*}: exit"; cat "$tmp/${coll%%:*}.err"
	fi
done

# wildcard receives in virtual order (vorder.c): rank 1 sends
# after a DGEMM of order 200 (16 ms at 1000 Mflop/s), rank 2 after one of
# order 50 and 300 ms of real sleep (not charged): rank 0's two
# MPI_ANY_SOURCE receives take rank 2's message first, which arrives first
# in virtual time though last in real time.  With the ordering off
# (HETLAUNCH_VORDER=0) MPI's real order shows: rank 1 first.
vclock_yaml wild "a:1,b:1,c:1" 3 "{mflops: 1000, cycle_time: 1, latency_us: 100, bandwidth_mbps: 100, clock: virtual, cpu_time: false}" wildcard 200
wild_order() { awk '$1 == "vclock-wildcard" { print $2, $3 }' "$tmp/run-$1/log.txt"; }
run wild
if [ "$(wild_order wild)" = "first=2 second=1" ]; then
	ok "wildcard receives in virtual order: $(wild_order wild) (the later in real time, earlier in virtual time, first)"
else
	bad "wildcard receives: '$(wild_order wild)', want first=2 second=1"; cat "$tmp/wild.err"
fi
HETLAUNCH_VORDER=0 run_to wild wild-off
if [ "$(wild_order wild-off)" = "first=1 second=2" ]; then
	ok "the wildcard test can fail: with the ordering off, real order: $(wild_order wild-off)"
else
	bad "wildcard with the ordering off: '$(wild_order wild-off)', want first=1 second=2"
fi

# MPI_Iprobe under the order: two siblings on one machine, rank 1 spinning
# on MPI_Iprobe while rank 0 does two DGEMMs of order 200 (16 ms each at
# 1000 Mflop/s) and sends 4 bytes (within the machine: no network time):
# rank 1 gets them at 32 ms, in order.  Not interposed, the spinning rank counted as computing at its
# clock and rank 0's second booking waited for it for ever (timed out).
vclock_yaml ipr "a:1" 2 "{mflops: 1000, cycle_time: 1, latency_us: 100, bandwidth_mbps: 100, clock: virtual, cpu_time: false}" iprobe 200
if timeout 30 "$HETLAUNCH" run "$tmp/ipr.yaml" --quiet --out "$tmp/run-ipr" 2>"$tmp/ipr.err"; then
	t1=$(vtime "$tmp/run-ipr" 1)
	ooo=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['emulation']['out_of_order'])" "$tmp/run-ipr/report.json")
	if within "$t1" 0.032 0.02 && [ "$ooo" = 0 ]; then
		ok "MPI_Iprobe spin: rank 1 at $t1 s, closed form 0.032 s, in order"
	else bad "MPI_Iprobe spin: rank 1 at $t1 s (closed form 0.032 s), out of order $ooo"; fi
else bad "MPI_Iprobe spin: exit $?: $(tail -3 "$tmp/ipr.err")"; fi

# More messages pending for one rank than its list in the segment holds
# (128; the rest in the pool's chunks, vorder.c): rank 0 sends 300 ints,
# tags 1 .. 300, to rank 1 on another machine, which takes them from
# MPI_ANY_SOURCE, tag 300 first.  Each leaves at 32 bits / 100 Mb/s =
# 0.32 us after the one before: tag 300 arrives 300 x 0.32 us + 100 us =
# 0.000196 s after rank 0 started.  A message the full list left out
# could end no wildcard receive (172 escapes, 24 s of wall time), as in
# the 96-rank LU of tests/bench/bench_vclock.sh item 5, which stalled.
vclock_yaml flood "a:1,b:1" 2 "{mflops: 1000, cycle_time: 1, latency_us: 100, bandwidth_mbps: 100, clock: virtual, cpu_time: false}" flood 300
if timeout 60 "$HETLAUNCH" run "$tmp/flood.yaml" --quiet --out "$tmp/run-flood" 2>"$tmp/flood.err"; then
	t=$(awk '$1 == "vclock" { split($6, s, "="); split($7, e, "=");
		if ($3 == "rank=0") s0 = s[2]; else e1 = e[2] } END { print e1 - s0 }' "$tmp/run-flood/log.txt")
	ooo=$(json "$tmp/run-flood/report.json" "d['emulation']['out_of_order']")
	if within "$t" 0.000196 0.01 && [ "$ooo" = 0 ] && grep -q "vclock-flood ok=1" "$tmp/run-flood/log.txt"; then
		ok "300 messages pending for one rank, taken in reverse from any source: $t s, closed form 0.000196 s, in order"
	else bad "300 pending messages: $t s (closed form 0.000196 s), out of order $ooo"; fi
else bad "300 pending messages: exit $?: $(tail -3 "$tmp/flood.err")"; fi

# The stall watchdog: two ranks that each receive from the other first
# wait for ever, with nothing moving.  With emulate: stall_timeout_s: 3
# hetlaunch ends the job after 3 s of that: exit 1, job.stalled true, and
# each rank's call and what it waits for in log.txt and on stderr.  A run
# that does not stall (the ping-pong above) says job.stalled false.
vclock_yaml dead "a:1,b:1" 2 "{mflops: 1000, cycle_time: 1, clock: virtual, stall_timeout_s: 3}" deadlock
t0=$(date +%s)
timeout 60 "$HETLAUNCH" run "$tmp/dead.yaml" --quiet --out "$tmp/run-dead" 2>"$tmp/dead.err"
rc=$? wall=$(( $(date +%s) - t0 ))
stalled=$(json "$tmp/run-dead/report.json" "d['job']['stalled']" 2>/dev/null)
if [ $rc = 1 ] && [ "$stalled" = True ] && [ $wall -lt 30 ] &&
   grep -q "stalled: rank 0 (virtual time .*): in MPI_Recv: waits for a message from rank 1, tag 9" "$tmp/run-dead/log.txt" &&
   grep -q "stalled: rank 1 .*in MPI_Recv: waits for a message from rank 0" "$tmp/dead.err"; then
	ok "a deadlock is ended as stalled after 3 s: exit 1 in $wall s, job.stalled true, each rank's MPI_Recv in log.txt and on stderr"
else
	bad "deadlock: exit $rc in $wall s, job.stalled $stalled: $(grep stalled "$tmp/dead.err" | head -3)"
fi
check "a run that did not stall: job.stalled false" \
	test "$(json "$tmp/run-pp/report.json" "d['job']['stalled']")" = False

# A token around three ranks of one machine, 3000 hops: each arrives at
# its sender's clock plus the 1 ns tick, so the last receiver (rank 0)
# ends at 3000 ns.  Its wall time is the wake-ups': a receiver that slept
# again after a wake whose message was not there yet waited for its 1 ms
# nap, 3 s in all (MPICH; 3.45 s before the fix, 0.31-0.35 s after).
vclock_yaml token "a:1" 3 "{mflops: 1000, cycle_time: 1, clock: virtual, cpu_time: false}" token 3000
t0=$(date +%s%N)
if run token; then
	wall_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	t=$(vtime "$tmp/run-token" 0)
	if within "$t" 0.000003 0.01 && grep -q "vclock-token hops=3000" "$tmp/run-token/log.txt"; then
		ok "token: 3000 hops among siblings end at $t s, closed form 3e-06 s"
	else
		bad "token: 3000 hops end at $t s, closed form 3e-06 s"
	fi
	if [ "$wall_ms" -lt 2000 ]; then
		ok "token: 3000 sibling hops in $wall_ms ms of wall (a missed wake-up costs 1 ms a hop: 3 s)"
	else
		bad "token: 3000 sibling hops took $wall_ms ms of wall (a missed wake-up costs 1 ms a hop)"
	fi
else
	bad "token: exit $?"; cat "$tmp/token.err"
fi

# --- 2. patterns: bit-identical under the virtual clock -----------------------
mkdir -p "$tmp/plain" "$tmp/virt"
timeout 120 mpiexec.hydra -n 4 "$PATTERNS" "$tmp/plain" >/dev/null 2>&1
patterns_yaml "$PATTERNS" "$tmp/virt" \
	"{mflops: 1000, cycle_time: 1, latency_us: 50, bandwidth_mbps: 1000, clock: virtual}"
run patterns
rc=$?
n=$(cat "$tmp/plain"/rank-*.txt 2>/dev/null | wc -l)
if [ $rc -eq 0 ] && [ "$n" -gt 0 ] && diff -r "$tmp/plain" "$tmp/virt" >/dev/null; then
	ok "patterns under the virtual clock (4 ranks on 2 machines): $n lines bit-identical"
else
	bad "patterns under the virtual clock: exit $rc"; cat "$tmp/patterns.err"
	diff -r "$tmp/plain" "$tmp/virt" | head -5
fi

# --- 3. the lhpc LU (hl-driver): determinism, and both clocks ---------------
lu_yaml() {  # NAME N EMULATE-EXTRA
	cat >"$tmp/$1.yaml" <<YAML
name: $1
machines:
  - {name: lhpcb, cycle_time: 100}
  - {name: lhpcf, cycle_time: 143}
  - {name: lhpci, cycle_time: 353}
layout: 1d
B: 9
kernel: lu
n: $2
nb: 32
emulate: {mflops: 300, cycle_time: 100, latency_us: 60, bandwidth_mbps: 200$3}
timeout: 300
YAML
}
lu_time() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['time'])" "$1/report.json"; }
N=${VCLOCK_N:-800}
lu_yaml luv "$N" ", clock: virtual, cpu_time: false"
if run luv && run_to luv luv2; then
	(while :; do :; done) &
	hog=$!
	run_to luv luv3
	kill "$hog"; hog=""
	a=$(lu_time "$tmp/run-luv"); b=$(lu_time "$tmp/run-luv2"); c=$(lu_time "$tmp/run-luv3")
	spread=$(python3 -c "import sys; v=[float(x) for x in sys.argv[1:]]; print('%.4f' % ((max(v)-min(v))/min(v)))" "$a" "$b" "$c")
	# Bookings in virtual-time order (vorder.c) make the runs
	# bit-identical (measured: 0.820995 s every time, at load 10 to 30 on
	# this 2-core machine, beside the hog too).  0.5% leaves room for a
	# booking the real-time escape let through out of order on a machine
	# loaded beyond that (counted in emulation.out_of_order, printed here);
	# it was 5.3% on CI before the ordering, 1% is the issue's target.
	ooo=$(for d in luv luv2 luv3; do python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['emulation']['out_of_order'])" "$tmp/run-$d/report.json"; done | paste -sd,)
	if awk -v s="$spread" 'BEGIN { exit !(s <= 0.005) }'; then
		ok "lhpc LU n=$N, virtual clock, cpu_time: false: $a, $b, $c s (the last beside a CPU hog): spread $spread, out of order $ooo"
	else
		bad "lhpc LU n=$N virtual: $a, $b, $c s: spread $spread above 0.5% (out of order $ooo)"
	fi
else
	bad "lhpc LU under the virtual clock: exit"; cat "$tmp/luv.err"
fi

# A long emulation shows how far it has come: a progress line every
# HETLAUNCH_PROGRESS_S (10 s by default) with the slowest rank's virtual
# time; none under --quiet.  Seconds of BLAS at n = 3072.
lu_yaml prog 3072 ", clock: virtual, cpu_time: false"
if HETLAUNCH_PROGRESS_S=0.5 run_to prog progq && mv "$tmp/prog.err" "$tmp/progq.err" &&
	HETLAUNCH_PROGRESS_S=0.5 "$HETLAUNCH" run "$tmp/prog.yaml" --out "$tmp/run-prog" >/dev/null 2>"$tmp/prog.err"; then
	line=$(grep -m1 'hetlaunch-progress' "$tmp/prog.err")
	if echo "$line" | grep -Eq '^\[ *[0-9.]+s\] hetlaunch-progress: emulated [0-9]+\.[0-9]{6} s \(the slowest rank\), [0-8] of 9 ranks finished$' &&
		! grep -q hetlaunch-progress "$tmp/progq.err"; then
		ok "progress while the job runs: $line"
	else
		bad "progress while the job runs: '$line'"
	fi
else
	bad "progress while the job runs: exit: $(tail -3 "$tmp/prog.err")"
fi

# The same LU under the real clock.  The real clock can only add time
# (wake-ups late on a loaded computer); within 5% is checked where this
# computer is quiet enough for the real-time run to be the emulated
# cluster's (load below 1.5 and no overruns), otherwise reported.
lu_yaml lur "$N" ", cpu_time: false"
load=$(cut -d' ' -f1 /proc/loadavg)
if run lur; then
	r=$(lu_time "$tmp/run-lur")
	over=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['emulation']['overrun_fraction'])" "$tmp/run-lur/report.json")
	ratio=$(python3 -c "import sys; print('%.3f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$r" "$a")
	if awk -v l="$load" -v o="$over" 'BEGIN { exit !(l < 1.5 && o < 0.001) }'; then
		if within "$a" "$r" 0.05; then
			ok "lhpc LU n=$N: virtual $a s, real-time $r s (ratio $ratio)"
		else
			bad "lhpc LU n=$N: virtual $a s, real-time $r s (ratio $ratio), not within 5%"
		fi
	elif awk -v a="$a" -v r="$r" 'BEGIN { exit !(a <= r * 1.05) }'; then
		ok "lhpc LU n=$N: virtual $a s, real-time $r s (ratio $ratio; load $load, overruns $over: not compared within 5%)"
	else
		bad "lhpc LU n=$N: virtual $a s slower than real-time $r s"
	fi
else
	bad "lhpc LU under the real clock: exit"; cat "$tmp/lur.err"
fi

# The default keeps INTERFACE.md's promise ("the same times whatever else
# this computer is doing"): without cpu_time:, a virtual-clock LU charges
# the flop models only (report: cpu_time false), and gives the same time
# alone and beside two CPU hogs.  With cpu_time: true (the old default) the
# lhpc LU n = 1800 moved by 1-3% (measured 8.86-9.06 s over six runs).
# kernel: exec keeps cpu_time: true (the ping-pong above).
lu_yaml lud 320 ", clock: virtual"
if run lud && { yes >/dev/null & h1=$!; yes >/dev/null & h2=$!; hog="$h1 $h2"; run_to lud lud2; }; then
	kill $hog; hog=""
	a=$(lu_time "$tmp/run-lud"); b=$(lu_time "$tmp/run-lud2")
	c=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['emulation']['cpu_time'])" "$tmp/run-lud/report.json")
	e=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['emulation']['cpu_time'])" "$tmp/run-pp4switch/report.json")
	if [ "$c $e" = "False True" ] && within "$a" "$b" 0.005; then
		ok "virtual clock by default: cpu_time $c (exec: $e), LU n=320 $a s alone, $b s beside two hogs"
	else
		bad "virtual clock by default: cpu_time $c (exec: $e), LU n=320 $a s alone, $b s beside two hogs"
	fi
else
	[ -n "$hog" ] && kill $hog; hog=""
	bad "LU under the virtual clock, default cpu_time: exit"; cat "$tmp/lud.err"
fi

# A job whose ranks did not load the runtime (here: a preload the loader
# refuses, as when lib/hetlaunch/libhetlaunch-rt.so is rebuilt under a running job) ran
# unemulated: exit 1 and said, not a PASSED run with this computer's times.
: >"$tmp/empty.so"
lu_yaml lunp 320 ", clock: virtual, cpu_time: false"
HETLAUNCH_PRELOAD="$tmp/empty.so" "$HETLAUNCH" run "$tmp/lunp.yaml" --quiet --out "$tmp/run-lunp" \
	2>"$tmp/lunp.err"
rc=$?
if [ $rc -eq 1 ] && grep -q "0 of 9 ranks attached" "$tmp/lunp.err"; then
	ok "no rank attached to the runtime: exit 1, said"
else
	bad "no rank attached to the runtime: exit $rc"; tail -3 "$tmp/lunp.err"
fi

# --- 4. per-rank times from the runtime (ranks[] of a silent program) --------
# vclock wildcard prints no hetlaunch-rank line: rank 1 computes a DGEMM of
# order 400, rank 2 one of order 100 and sleeps 300 ms, rank 0 only waits.
# The runtime's figures fill ranks[] (ranks_source "runtime"): rank 0's
# compute near 0 (under the virtual clock with cpu_time: false, 0: only the
# DGEMMs are charged; else its start-up's CPU time, a few % of its run),
# rank 1's at least the DGEMM's 2 400^3 / 500 Mflop/s = 0.256 s (less 5%;
# not emulated: this computer's speed), and every
# rank's compute + wait (its MPI_Init to MPI_Finalize) at least the
# program's own time and at most the job's.
# rank_times RUNDIR: "source r0c r0w r1c r1w r2c r2w elapsed maxprinted"
rank_times() {
	python3 - "$1" <<'PY'
import json, sys, re
d = json.load(open(sys.argv[1] + "/report.json"))
t = [x for r in d["ranks"] for x in (r["compute"], r["wait"])]
p = [float(m) for m in re.findall(r"^vclock mode=\S+ rank=\d+ time=(\S+)", open(sys.argv[1] + "/log.txt").read(), re.M)]
print(d.get("ranks_source"), *t, d["job"]["elapsed"], max(p) if p else 0)
PY
}
# ranks_ok WHAT RUNDIR FRACTION MIN1: the checks above, rank 0's compute
# below FRACTION of its run, rank 1's at least MIN1 s
ranks_ok() {
	local got; got=$(rank_times "$2" 2>&1)
	if awk -v s="$got" -v f="$3" -v m="$4" 'BEGIN { n = split(s, v, " "); if (n != 9 || v[1] != "runtime") exit 1
		for (k = 0; k < 3; k++) { t[k] = v[2 + 2 * k] + v[3 + 2 * k]; if (t[k] < v[9] * 0.99 || t[k] > v[8]) exit 1 }
		exit !(v[2] <= f * t[0] && v[4] >= m && v[3] >= 0 && v[5] >= 0 && v[7] >= 0) }'; then
		ok "$1: ranks[] from the runtime (source compute wait ... elapsed printed): $got"
	else bad "$1: ranks[] from the runtime: $got"; fi
}
for clk in "virtual, cpu_time: false" real; do
	vclock_yaml "acct${clk%%,*}" "a:1,b:1,c:1" 3 "{mflops: 500, cycle_time: 1, latency_us: 100, bandwidth_mbps: 100, clock: $clk}" wildcard 400
	if run "acct${clk%%,*}"; then ranks_ok "silent program, clock: $clk" "$tmp/run-acct${clk%%,*}" "$([ "${clk%%,*}" = virtual ] && echo 0.001 || echo 0.1)" 0.243
	else bad "silent program, clock: $clk: exit $?: $(tail -3 "$tmp/acct${clk%%,*}.err")"; fi
done
# Not emulated: the runtime still counts in real time (the segment of the
# wake-ups); --no-preload: nobody counts, null with the reason.
vclock_yaml acctplain "a:1,b:1,c:1" 3 false wildcard 400
sed -i 's/cycle_time: 1}/cycle_time: 1, host: localhost}/' "$tmp/acctplain.yaml"
if run acctplain; then ranks_ok "silent program, not emulated" "$tmp/run-acctplain" 0.1 0
else bad "silent program, not emulated: exit $?: $(tail -3 "$tmp/acctplain.err")"; fi
if run_to acctplain acctnp --no-preload; then
	got=$(json "$tmp/run-acctnp/report.json" 'd["ranks_source"], d["ranks"][0]["compute"], "no-preload" in d["ranks_missing"]' 2>&1)
	check "--no-preload: ranks[] null, said why ($got)" test "$got" = "None None True"
else bad "silent program, --no-preload: exit $?: $(tail -3 "$tmp/acctplain.err")"; fi
# compare on a silent program draws the balance picture from those figures.
vclock_yaml acctcmp "fast:1,slow:2" 3 "{mflops: 500, cycle_time: 1, latency_us: 100, bandwidth_mbps: 100, clock: virtual}" ring 1000 4 200
"$HETLAUNCH" compare "$tmp/acctcmp.yaml" --quiet --out "$tmp/cmp-acct" >/dev/null 2>"$tmp/acctcmp.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(head -c 4 "$tmp/cmp-acct/balance.png" 2>/dev/null | tail -c 3)" = PNG ] &&
	[ "$(grep -vc '^#' "$tmp/cmp-acct/balance.dat")" = 2 ]; then
	ok "compare on a silent program: balance.png and balance.dat from the runtime's figures"
else bad "compare on a silent program: exit $rc: $(grep -i balance "$tmp/acctcmp.err")"; fi
# Its times are virtual: each run's the largest rank's compute + wait
# (it was the job's wall time: 0.34 s and 0.48 s for the same virtual
# run), said by time_clock, and compare's speedup divides those.  The
# reports compare.json embeds are the runs' report.json, emulation and
# all (it kept 3 of its keys).
if python3 - "$tmp/cmp-acct" <<'PY'
import json, sys
d = sys.argv[1]
c = json.load(open(d + "/compare.json"))
for m in ("cyclic", "hetero"):
    r = json.load(open(f"{d}/{m}/report.json"))
    span = max(k["compute"] + k["wait"] for k in r["ranks"])
    assert r.get("time_clock") == "virtual" and r["results"][0]["time_source"] == "ranks", r.get("time_clock")
    assert r["time"] == span and r["results"][0]["time"] == span, (r["time"], span)
assert c["time_clock"] == "virtual"
assert c["speedup"] == c["cyclic"]["time"] / c["hetero"]["time"], c["speedup"]
PY
then ok "compare on a silent program, virtual clock: each time is the largest rank's virtual span, time_clock virtual"
else bad "compare on a silent program, virtual clock: times are not the ranks' virtual spans"; fi
if python3 - "$tmp/cmp-acct" <<'PY'
import json, sys
d = sys.argv[1]
c = json.load(open(d + "/compare.json"))
for m in ("cyclic", "hetero"):
    r = json.load(open(f"{d}/{m}/report.json"))
    assert c[m] == r, f"compare.json's {m} is not {m}/report.json"
    assert len(r["emulation"]) >= 10 and "out_of_order" in r["emulation"], sorted(r["emulation"])
PY
then ok "compare.json embeds both runs' report.json, emulation and all"
else bad "compare.json's runs are not their report.json"; fi
"$HETLAUNCH" compare "$tmp/acctcmp.yaml" --quiet --no-preload --out "$tmp/cmp-acctnp" >/dev/null 2>"$tmp/acctcmp.err"
check "compare --no-preload on a silent program: no balance.png, and why" grep -q \
	"no balance.png: no per-rank times: the program printed no hetlaunch-rank lines and the runtime was not preloaded (--no-preload)" "$tmp/acctcmp.err"

echo "vclock_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
