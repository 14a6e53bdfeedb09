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
# BENCH_VCLOCK_ONLY=1|2|3 runs one of them.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
ONLY=${BENCH_VCLOCK_ONLY:-}
tmp=$(mktemp -d /tmp/hetlaunch-bench-vclock.XXXXXX)
hog=""
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$tmp"' EXIT
status=0
load() { cut -d' ' -f1-3 /proc/loadavg; }
rtime() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['time'])" "$1/report.json"; }

# timed NAME: run $tmp/NAME.yaml into $tmp/run-OUT (default NAME); prints the wall seconds
timed() {
	local name=$1 out=${2:-$1} t0 t1
	t0=$(date +%s.%N)
	if ! "$HETLAUNCH" run "$tmp/$name.yaml" --quiet --out "$tmp/run-$out" 2>"$tmp/$out.err"; then
		echo "bench_vclock: $name failed:"; tail -5 "$tmp/$out.err"; status=1
	fi
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

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
exit $status
