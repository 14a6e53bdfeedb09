#!/usr/bin/env bash
# bench_vclock.sh -- the benchmarks of the virtual clock (run by
# `make bench`; minutes).  Each prints its figure beside the load of this
# computer; the exit status is 0 unless a run fails (timings on a shared
# machine are reported, not asserted).
#   1. emulated lhpc and lip (configs/*-emulated.yaml) at n = 2400, the
#      virtual clock against the real one: the wall-clock ratio (virtual /
#      real) and the difference of the emulated times (target 5%).
#   2. 64 machines (32 of 10 Gflop/s, 32 of 5) on this computer, 96 ranks,
#      hl-driver LU n = 2048 under the virtual clock: its wall time.
#   3. determinism: the lhpc run of 1 (cpu_time: false) twice more, once
#      beside a CPU hog: the spread of the three times (target 1%).
#   4. compute: skip (the BLAS charged, not run; memory folded), LU with
#      cpu_time: false: wall time, emulated seconds per wall second and
#      peak memory at 16, 64, 96 and 256 ranks; 16 and 96 ranks with the
#      BLAS run too, and the skip/run difference of the emulated times.
#      BENCH_SKIP_RANKS chooses the ranks (default "16 64 96 256"; the
#      256-rank LU is n = 20 000, about 4 minutes here: target 5).  Each
#      line has the job's CPU seconds too (user + sys, all its processes),
#      which the computer's other load changes far less than the wall time.
#   5. B = M (one column block per rank), nb = 64, LU under compute: skip,
#      machines of cycle times 1, 2, 4 (20, 10, 5 Gflop/s; 5 us, 20 Gb/s):
#      the family whose 96-rank run stalled for ever (a full pending
#      list, doc/design/virtual-clock.md).  Each must finish with
#      out_of_order 0 (else the exit status is 1); prints the wall time,
#      the emulated time and emulated / predicted.  BENCH_BM_RANKS chooses
#      the ranks (default "96 128"; 256 is n = 16 384; 512, n = 32 768,
#      on the emulator's 256 machines a computer, took 475 s here).
# BENCH_VCLOCK_ONLY=1|2|3|4|5 runs one of them.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
ONLY=${BENCH_VCLOCK_ONLY:-}
tmp=$(mktemp -d /tmp/hetlaunch-bench-vclock.XXXXXX)
hog=""
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$tmp"' EXIT
status=0
load() { cut -d' ' -f1-3 /proc/loadavg; }
rtime() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['time'])" "$1/report.json"; }

# timed NAME [OUT]: run $tmp/NAME.yaml into $tmp/run-OUT (default NAME);
# prints the wall seconds.  The job's CPU seconds (user + sys of hetlaunch
# and every process it waited for: mpiexec, the ranks) go to $tmp/OUT.cpu:
# a wall time that grew with CPU time unchanged is the computer's load,
# not the code (cpu OUT prints them).
timed() {
	local name=$1 out=${2:-$1} t0 t1
	t0=$(date +%s.%N)
	if ! /usr/bin/time -f "%U %S" -o "$tmp/$out.cpu" \
		"$HETLAUNCH" run "$tmp/$name.yaml" --quiet --out "$tmp/run-$out" 2>"$tmp/$out.err"; then
		echo "bench_vclock: $name failed:"; tail -5 "$tmp/$out.err"; status=1
	fi
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

cpu() { tail -1 "$tmp/$1.cpu" 2>/dev/null | awk '{ printf "%.1f", $1 + $2 }'; }

# PLATFORM (lhpc, lip) at n = 2400 with the keys KEY... added to its
# emulate: mapping
platform_yaml() {  # PLATFORM NAME KEY...
	local plat=$1 name=$2; shift 2
	awk -v name="$name" -v extra="$*" '
		/^name: / { print "name: " name; next }
		/^n: / { print "n: 2400"; next }
		{ print }
		/^  network: switch$/ { n = split(extra, k, " "); for (i = 1; i <= n; i++) print "  " k[i] }
	' "configs/$plat-emulated.yaml" | sed 's/~/ /' >"$tmp/$name.yaml"
}
lhpc_yaml() { platform_yaml lhpc "$@"; }

if [ -z "$ONLY" ] || [ "$ONLY" = 1 ]; then
	for plat in lhpc lip; do
		platform_yaml $plat "v$plat" "clock:~virtual"
		platform_yaml $plat "r$plat"
		l0=$(load)
		wv=$(timed "v$plat")
		wr=$(timed "r$plat")
		tv=$(rtime "$tmp/run-v$plat"); tr=$(rtime "$tmp/run-r$plat")
		echo "1. $plat n=2400 (the plan): virtual clock $tv s emulated in $wv s of wall time;" \
		     "real clock $tr s in $wr s" \
		     "-> wall ratio $(awk -v a="$wv" -v b="$wr" 'BEGIN { printf "%.2f", a / b }')," \
		     "times differ by $(awk -v a="$tv" -v b="$tr" 'BEGIN { printf "%+.1f%%", (a - b) / b * 100 }')" \
		     "(target 5%; load before: $l0, after: $(load))"
	done
fi

if [ -z "$ONLY" ] || [ "$ONLY" = 2 ]; then
	{
		echo "name: big64"
		echo "machines:"
		for i in $(seq 0 63); do echo "  - {name: m$i, host: localhost, cycle_time: $((1 + i % 2))}"; done
		echo "layout: 1d"
		echo "B: 96"
		echo "kernel: lu"
		echo "n: 4096"
		echo "nb: 32"
		echo "emulate: {mflops: 10000, cycle_time: 1, latency_us: 10, bandwidth_mbps: 10000, clock: virtual}"
		echo "timeout: 1800"
	} >"$tmp/big64.yaml"
	l0=$(load)
	w=$(timed big64)
	echo "2. 64 machines (10 and 5 Gflop/s), 96 ranks, LU n=4096, virtual clock: $(rtime "$tmp/run-big64") s emulated" \
	     "in $w s of wall time (load before: $l0)"
fi

if [ -z "$ONLY" ] || [ "$ONLY" = 3 ]; then
	lhpc_yaml dlhpc "clock:~virtual" "cpu_time:~false"
	l0=$(load)
	timed dlhpc d1 >/dev/null
	timed dlhpc d2 >/dev/null
	(while :; do :; done) &
	hog=$!
	timed dlhpc d3 >/dev/null
	kill "$hog"; hog=""
	a=$(rtime "$tmp/run-d1"); b=$(rtime "$tmp/run-d2"); c=$(rtime "$tmp/run-d3")
	echo "3. determinism, lhpc n=2400, virtual clock, cpu_time: false: $a, $b, $c s (the last beside a CPU hog):" \
	     "spread $(python3 -c "import sys; v=[float(x) for x in sys.argv[1:]]; print('%.2f%%' % ((max(v)-min(v))/min(v)*100))" "$a" "$b" "$c")" \
	     "(target 1%; load before: $l0)"
fi
# big_yaml NAME RANKS MACHINES N COMPUTE: machines of 10 and 5 Gflop/s
big_yaml() {
	{
		echo "name: $1"
		echo "machines:"
		for i in $(seq 0 $(($3 - 1))); do echo "  - {name: m$i, host: localhost, cycle_time: $((1 + i % 2))}"; done
		echo "layout: 1d"; echo "B: $2"; echo "kernel: lu"; echo "n: $4"; echo "nb: 32"
		echo "emulate: {mflops: 10000, cycle_time: 1, latency_us: 10, bandwidth_mbps: 10000, clock: virtual, cpu_time: false, compute: $5}"
		echo "timeout: 3600"
	} >"$tmp/$1.yaml"
}
# skip_row NAME: wall, emulated s per wall s, peak memory (used, sampled), load
skip_row() {
	local name=$1 l0 w peak
	l0=$(load)
	( while :; do free -b | awk '/^Mem:/ { print $3 }'; sleep 2; done ) >"$tmp/$name.mem" &
	local sampler=$!
	local base; base=$(free -b | awk '/^Mem:/ { print $3 }')
	w=$(HETLAUNCH_VORDER_STATS=1 timed "$name")
	kill "$sampler"
	peak=$(sort -n "$tmp/$name.mem" | tail -1)
	local t; t=$(rtime "$tmp/run-$name")
	# the ordering's cost, summed over the ranks (HETLAUNCH_VORDER_STATS, vorder.c)
	local cost; cost=$(awk '/^hetlaunch-vorder:/ { for (i = 4; i < NF; i += 2) s[$i] += $(i + 1) }
		END { printf "naps %d, timeouts %d, snapshots %d", s["naps"], s["timeouts"], s["snapshots"] }' "$tmp/run-$name/log.txt")
	echo "4. $name: $t s emulated in $w s of wall, $(cpu "$name") s of CPU ($(awk -v t="$t" -v w="$w" 'BEGIN { printf "%.4f", t / w }') emulated s per wall s; $cost)," \
	     "memory $(awk -v p="$peak" -v b="$base" 'BEGIN { printf "%.2f", (p - b) / 2^30 }') GiB above the $(awk -v b="$base" 'BEGIN { printf "%.2f", b / 2^30 }') GiB before" \
	     "(load before: $l0, after: $(load))"
}
if [ -z "$ONLY" ] || [ "$ONLY" = 4 ]; then
	for r in ${BENCH_SKIP_RANKS:-16 64 96 256}; do
		case $r in
		16) set -- 12 4096 ;; 64) set -- 48 2048 ;; 96) set -- 64 3072 ;; 256) set -- 256 20000 ;;
		*) set -- "$r" 4096 ;;
		esac
		big_yaml "skip$r" "$r" "$1" "$2" skip
		skip_row "skip$r"
		if [ "$r" = 16 ] || [ "$r" = 96 ]; then
			big_yaml "run$r" "$r" "$1" "$2" run
			skip_row "run$r"
			a=$(rtime "$tmp/run-skip$r"); b=$(rtime "$tmp/run-run$r")
			echo "4. $r ranks: skip $a s, run $b s emulated: $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.3f%%", (a - b) / b * 100 }')"
		fi
	done
fi
# bm_yaml NAME MACHINES B: the stalled family, n = 64 B
bm_yaml() {
	{
		echo "name: $1"
		echo "machines:"
		for i in $(seq 0 $(($2 - 1))); do
			echo "  - {name: m$i, host: localhost, cycle_time: $((1 << (i % 3)))}"
		done
		echo "layout: 1d"; echo "B: $3"; echo "kernel: lu"; echo "n: $((64 * $3))"; echo "nb: 64"
		echo "emulate: {clock: virtual, mflops: 20000, cycle_time: 1, latency_us: 5, bandwidth_mbps: 20000, compute: skip}"
		echo "timeout: 3600"
	} >"$tmp/$1.yaml"
}
if [ -z "$ONLY" ] || [ "$ONLY" = 5 ]; then
	for r in ${BENCH_BM_RANKS:-96 128}; do
		m=$((r * 3 / 4)); [ "$m" -gt 256 ] && m=256   # the emulator's machines a computer
		bm_yaml "bm$r" "$m" "$r"
		l0=$(load)
		w=$(timed "bm$r")
		r_json=$tmp/run-bm$r/report.json
		ooo=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['emulation']['out_of_order'])" "$r_json" 2>/dev/null)
		mop=$(python3 -c "import json,sys; print('%.2f' % json.load(open(sys.argv[1]))['predicted']['measured_over_predicted'])" "$r_json" 2>/dev/null)
		# timed's own status is lost in its $(...): the report decides
		passed=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['passed'])" "$r_json" 2>/dev/null)
		if [ "$ooo" != 0 ] || [ "$passed" != True ]; then
			status=1
			grep -m 20 stalled "$tmp/run-bm$r/log.txt"   # the watchdog's diagnosis, if it ended it
		fi
		echo "5. B = M = $r ($m machines, n = $((64 * r))): $(rtime "$tmp/run-bm$r" 2>/dev/null) s emulated" \
		     "in $w s of wall, $(cpu "bm$r") s of CPU, emulated / predicted $mop, out_of_order $ooo (load before: $l0, after: $(load))"
	done
fi
exit $status
