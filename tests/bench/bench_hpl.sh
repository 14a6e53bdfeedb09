#!/usr/bin/env bash
# bench_hpl.sh -- stock HPL (kernel: hpl, Debian's hpcc) on an emulated
# mixed cluster (run by `make bench`; a few minutes).  Prints its figures
# beside the load of this computer; the exit status is 0 unless a run fails
# (timings on a shared machine are reported, not asserted).
#   `hetlaunch compare` on experiments/hpl/mixed.py's case A (one old and
#   one new machine, 2:1 per core; plain HPL's one process per machine
#   against hetlaunch's 1d plan, 1 + 2 processes) at n = BENCH_HPL_N
#   (default 1600: the compare took 84 s of wall at load 48 -> 7, the
#   whole script 190 s), under
#   clock: virtual: the measured speedup against the predicted one (target
#   >= 90% of it), and each run's efficiency, its Gflop/s over the sum of
#   the two machines' Gflop/s alone (each run alone at the same n).
#   Then the fresh-machine round's example: three machines (cycle times
#   100, 170, 300), 1d B = 7, n = 1920, nb = 40: `compare`'s wall time
#   (target: under 5 minutes with both runs PASSED; more than 9 minutes and
#   no result when hpcc ran all its benchmarks) and each run's wall time
#   split into HPL's section and the rest.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
N=${BENCH_HPL_N:-1600}
tmp=$(mktemp -d /tmp/hetlaunch-bench-hpl.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
status=0
load() { cut -d' ' -f1-3 /proc/loadavg; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
if [ ! -x /usr/bin/hpcc ]; then
	echo "bench_hpl: no /usr/bin/hpcc (Debian's hpcc: scripts/install-deps); skipped"
	exit 0
fi

# mixed_yaml NAME MACHINE-LINE...: layout 1d, kernel hpl at n = $N
mixed_yaml() {
	local name=$1; shift
	{
		echo "name: $name"
		echo "machines:"
		printf '  - %s\n' "$@"
		echo "layout: 1d"
		echo "kernel: hpl"
		echo "n: $N"
		echo "nb: 40"
		echo "emulate: {clock: virtual, mflops: 1000, cycle_time: 1, latency_us: 50, bandwidth_mbps: 1000}"
		echo "timeout: 900"
	} >"$tmp/$name.yaml"
}
old='{name: old, cycle_time: 2}'
new='{name: new, cycle_time: 1}'

# timed CMD NAME: hetlaunch CMD on $tmp/NAME.yaml into $tmp/NAME; the wall seconds
timed() {
	local t0 t1
	t0=$(date +%s.%N)
	if ! "$HETLAUNCH" $1 "$tmp/$2.yaml" --quiet --out "$tmp/$2" >/dev/null 2>"$tmp/$2.err"; then
		echo "bench_hpl: $1 $2 failed:" >&2; tail -5 "$tmp/$2.err" >&2; status=1
	fi
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }'
}
gflops() { json "$1/report.json" 'd["results"][0]["gflops"]' 2>/dev/null || echo nan; }

mixed_yaml old "$old"
mixed_yaml new "$new"
mixed_yaml mixed "$old" "$new"
l0=$(load)
wo=$(timed "run --baseline cyclic" old)
wn=$(timed "run --baseline cyclic" new)
wc=$(timed compare mixed)
go=$(gflops "$tmp/old"); gn=$(gflops "$tmp/new")
gc=$(gflops "$tmp/mixed/cyclic"); gh=$(gflops "$tmp/mixed/hetero")
sp=$(json "$tmp/mixed/compare.json" '"%.3f %.3f" % (d["speedup"], d["predicted_speedup"])' 2>/dev/null || echo "nan nan")
python3 - "$N" "$go" "$gn" "$gc" "$gh" $sp "$wo" "$wn" "$wc" "$l0" "$(load)" <<'PY'
import sys
n, go, gn, gc, gh, sp, pr, wo, wn, wc, l0, l1 = sys.argv[1:]
go, gn, gc, gh, sp, pr = (float(x) for x in (go, gn, gc, gh, sp, pr))
s = go + gn
print(f"hpl. compare, mixed cluster (1 old + 1 new, 2:1), hpcc n={n}, virtual clock: speedup {sp:.2f}"
      f" against predicted {pr:.2f} = {100 * sp / pr:.0f}% of it (target 90%);"
      f" efficiency cyclic {gc / s:.3f}, plan {gh / s:.3f} ({gc:.4g} and {gh:.4g} Gflop/s over"
      f" {go:.4g} + {gn:.4g} alone); wall {wc} s for the compare, {wo} + {wn} s alone"
      f" (load before: {l0}, after: {l1})")
PY
# The three-machine example: compare's wall time, each run's split.
cat >"$tmp/three.yaml" <<YAML
name: three
machines:
  - {name: a, cycle_time: 100}
  - {name: b, cycle_time: 170}
  - {name: c, cycle_time: 300}
layout: 1d
B: 7
kernel: hpl
n: 1920
nb: 40
emulate: {clock: virtual, mflops: 2000, cycle_time: 100, latency_us: 20, bandwidth_mbps: 5000}
timeout: 600
YAML
l0=$(load)
w3=$(timed compare three)
python3 - "$tmp/three" "$w3" "$l0" "$(load)" <<'PY'
import json, sys
d, w, l0, l1 = sys.argv[1:]
parts = []
for m in ("cyclic", "hetero"):
    try:
        r = json.load(open(f"{d}/{m}/report.json"))
        j = r["job"]
        parts.append(f"{m} {'PASSED' if r['passed'] else 'FAILED'}, wall {j['elapsed']:.1f} s"
                     f" = HPL {j['hpl_wall_time'] or 0:.1f} + other {j['other_benchmarks_time']:.1f}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        parts.append(f"{m}: no report ({e})")
print(f"hpl. compare, 3 machines 100/170/300, 1d B = 7, n = 1920: {w} s of wall (target < 300 s);"
      f" {'; '.join(parts)} (load before: {l0}, after: {l1})")
PY
exit $status
