#!/usr/bin/env bash
# bench_plan.sh -- plans at today's sizes (run by `make bench`; seconds).
#   1. `hetlaunch plan` of layouts 1d, 2d and auto on 256, 1024 and 4096
#      processors (two generations: a quarter at speed 2 in nodes of 64,
#      the rest at speed 1 in nodes of 32, mflops: 20000 and 10000 on a
#      25 Gb/s switch, LU n = 100 000, nb = 256): the wall time and the
#      lines of its text (target: under 5 s; a page, 80 lines, at 256: a
#      larger list prints a line or two per node).
#   2. the predicted seconds at n = 100 000 of configs/today-cluster.yaml
#      and configs/modern-*.yaml (when present), plan and baseline.
# Timings on a shared machine are reported beside its load, and a missed
# target says so (MISSED) without failing: the exit status is 1 only when a
# plan fails.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
tmp=$(mktemp -d /tmp/hetlaunch-bench-plan.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
status=0
echo "bench_plan: load $(cut -d' ' -f1-3 /proc/loadavg)"

cluster() {  # cluster LAYOUT PROCS
	local fast=$(($2 / 4)) slow=$(($2 - $2 / 4)) k
	printf 'layout: %s\nn: 100000\nnb: 256\nlatency_us: 2\nbandwidth_mbps: 25000\nmachines:\n' "$1"
	for ((k = 0; k < fast / 64; k++)); do printf '  - {name: new%d, count: 64, mflops: 20000}\n' "$k"; done
	for ((k = 0; k < slow / 32; k++)); do printf '  - {name: old%d, count: 32, mflops: 10000}\n' "$k"; done
}

for procs in 256 1024 4096; do
	for layout in 1d 2d auto; do
		f="$tmp/c-$layout-$procs.yaml"
		cluster "$layout" "$procs" >"$f"
		t0=$(date +%s.%N)
		if ! "$HETLAUNCH" plan "$f" >"$tmp/out" 2>"$tmp/err"; then
			echo "bench_plan: $layout on $procs processors failed: $(head -c 300 "$tmp/err")"
			status=1
			continue
		fi
		t1=$(date +%s.%N)
		lines=$(wc -l <"$tmp/out")
		dt=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
		kept=$(sed -n 's/^layout: auto kept \(..\).*/ (kept \1)/p' "$tmp/out")
		sp=$(sed -n 's/^Predicted speedup over the baseline: \([0-9.]*\).*/\1/p' "$tmp/out")
		echo "bench_plan: $procs processors, layout $layout$kept: plan ${dt} s, ${lines} lines," \
		     "predicted speedup ${sp:-none}"
		if python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 5 and ($procs > 256 or $lines <= 80) else 1)"
		then :; else echo "  target under 5 s (and 80 lines at 256): MISSED (load $(cut -d' ' -f1 /proc/loadavg))"; fi
	done
done

for f in configs/today-cluster.yaml configs/modern-*.yaml; do
	[ -f "$f" ] || continue
	"$HETLAUNCH" plan "$f" --json 2>"$tmp/err" | python3 -c '
import json, sys
d = json.load(sys.stdin); s = d.get("predicted_seconds"); p = d.get("predicted_speedup") or {}
name, lay, n = sys.argv[1], d["layout"], d["n"]
if s:
    print("bench_plan: %s: layout %s, n = %d: predicted %.1f s, baseline %.1f s, speedup %.2f (%s)"
          % (name, lay, n, s["plan"], s["baseline"], p.get("value", 0), p.get("model")))
else:
    print("bench_plan: %s: no predicted seconds (speedup %s, %s)" % (name, p.get("value"), p.get("model")))
' "$f" || { echo "bench_plan: $f: $(head -c 300 "$tmp/err")"; status=1; }
done
exit $status
