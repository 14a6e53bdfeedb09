#!/usr/bin/env bash
# bench_dense.sh -- the benchmarks of hl-driver (run by `make bench`;
# minutes, not seconds).  Each prints its figure beside its target; the
# exit status is 0 (timings on a shared machine are reported, not asserted).
#   1. driver LU n = 3000: 3x3 (9 ranks) against 1x2 (2 ranks) on this
#      computer, with the preload and hetlaunch's wake-up segment; target
#      ratio <= 1.25.
#   2. emulated lhpc and lip (configs/*-emulated.yaml) at n = 2400: the
#      measured speedup over cyclic, target >= 95% of the predicted one;
#      under the real and the virtual clock.
#   3. driver against stock xdlu on the same 1x2 problem that xdlu can hold
#      (n = 900, nb = 32): target within 5% of xdlu's time.
# BENCH_DENSE_REPS (default 3; 9 for 3) runs of 1 and 3, alternating the two
# programs compared, the median kept; 2 runs once.
# BENCH_DENSE_ONLY=1|2|3 runs one of them.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
DRIVER=${DRIVER:-lib/hetlaunch/hl-driver}
REPS=${BENCH_DENSE_REPS:-3}
ONLY=${BENCH_DENSE_ONLY:-}
tmp=$(mktemp -d /tmp/hetlaunch-bench-dense.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# local_yaml NAME B KERNEL TESTER [PROGRAM ARGS]: B processes on this computer
local_yaml() {
	{
		echo "name: $1"
		echo "machines:"
		echo "  - {name: here, host: localhost, cycle_time: 1}"
		echo "B: $2"
		echo "kernel: $3"
		[ "$4" = stock ] && echo "tester: stock"
		[ -n "${5:-}" ] && echo "program: $5" && echo "args: $6"
		echo "n: ${N:-900}"
		echo "nb: 32"
		echo "timeout: 900"
	} >"$tmp/$1.yaml"
}

# one_run NAME I: run I of NAME; prints the first result's time (nan: failed)
one_run() {
	# The scratch directory goes at exit: a failure shows its reason here.
	"$HETLAUNCH" run "$tmp/$1.yaml" --quiet --out "$tmp/run-$1-$2" >/dev/null 2>"$tmp/err-$1-$2" ||
		{ echo "FAILED: $1, run $2: $(tail -n 3 "$tmp/err-$1-$2" | tr '\n' ' ')" >&2
		  tail -n 5 "$tmp/run-$1-$2/log.txt" >&2 2>/dev/null; echo nan; return; }
	json "$tmp/run-$1-$2/report.json" '"%.4f" % d["time"]'
}

# time_pair A B: "tA tB", the medians over REPS runs of each, A and B
# alternating, so that a drift of this computer's load (a shared machine:
# the median of 9 runs of n = 900 moved by 5% between two back-to-back
# sets) weighs on both alike
time_pair() {
	local i
	: >"$tmp/t-$1"; : >"$tmp/t-$2"
	for i in $(seq "$REPS"); do
		one_run "$1" "$i" >>"$tmp/t-$1"
		one_run "$2" "$i" >>"$tmp/t-$2"
	done
	echo "$(median <"$tmp/t-$1") $(median <"$tmp/t-$2")"
}

if [ -z "$ONLY" ] || [ "$ONLY" = 1 ]; then
	drv=$(realpath "$DRIVER")
	N=3000 local_yaml g33 9 exec driver "$drv" "[lu, '${BENCH_NB:-32}', '3', '3', '3000']"
	N=3000 local_yaml g12 2 exec driver "$drv" "[lu, '${BENCH_NB:-32}', '1', '2', '3000']"
	read -r t33 t12 < <(time_pair g33 g12)
	echo "bench: driver LU n = 3000, 3x3 (9 ranks) $t33 s, 1x2 (2 ranks) $t12 s: ratio" \
	     "$(awk -v a="$t33" -v b="$t12" 'BEGIN {printf "%.2f", a / b}') (target <= 1.25;" \
	     "median of $REPS; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
fi

if [ -z "$ONLY" ] || [ "$ONLY" = 2 ]; then
	# Each platform under the real clock (sleeps; this computer's load adds
	# time) and under the virtual clock charging the flop models only
	# (load-independent).  Beside the step model's speedup (000
	# Fig 5, no panel, no network), the one of the predicted seconds
	# (vproc/planner/dense/lu_time.c: panel, broadcasts and swaps on the network).
	for p in lhpc lip; do
		for clock in real virtual; do
			sed 's/^n: .*/n: 2400/' "configs/$p-emulated.yaml" >"$tmp/$p-$clock.yaml"
			[ "$clock" = virtual ] &&
				sed -i 's/^  network: switch/  network: switch\n  clock: virtual\n  cpu_time: false/' "$tmp/$p-$clock.yaml"
			"$HETLAUNCH" compare "$tmp/$p-$clock.yaml" --quiet --out "$tmp/cmp-$p-$clock" >/dev/null 2>&1
			c=$tmp/cmp-$p-$clock/compare.json
			if [ -s "$c" ]; then
				echo "bench: emulated $p ($clock clock), driver LU n = 2400: $(json "$c" '"cyclic %.2f s, hetero %.2f s: speedup %.2f, predicted %.2f: %.0f%% of predicted (target >= 95%%); predicted seconds %.2f / %.2f: speedup %.2f, %.0f%% of it" % (d["cyclic"]["time"], d["hetero"]["time"], d["speedup"], d["predicted_speedup"], 100 * d["fraction_of_predicted"], d["cyclic"]["predicted"]["time"], d["hetero"]["predicted"]["time"], d["cyclic"]["predicted"]["time"] / d["hetero"]["predicted"]["time"], 100 * d["speedup"] * d["hetero"]["predicted"]["time"] / d["cyclic"]["predicted"]["time"])')"
			else
				echo "bench: emulated $p ($clock clock): FAILED (no compare.json)"
			fi
		done
	done
fi

if [ -z "$ONLY" ] || [ "$ONLY" = 3 ]; then
	local_yaml xd 2 lu stock
	local_yaml hl 2 lu driver
	REPS=${BENCH_DENSE_REPS:-9}   # 0.1 s runs: more of them
	read -r txd thl < <(time_pair xd hl)
	echo "bench: LU n = 900 nb = 32 on 1x2: stock xdlu $txd s, hl-driver $thl s:" \
	     "$(awk -v a="$thl" -v b="$txd" 'BEGIN {printf "%+.1f%%", 100 * (a - b) / b}')" \
	     "(target within 5%; median of $REPS)"
fi
exit 0
