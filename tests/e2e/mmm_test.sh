#!/usr/bin/env bash
# mmm_test.sh -- hl-mmm (layout: columns' MPI program, paper 001) run
# directly with mpiexec.hydra under the runtime preload on 1, 3 and 7 ranks
# (column and guillotine partitions, more ranks than cores): C = A B must
# pass its residual check, the bytes the ranks receive must equal the
# plan's 8 nb^2 (n/nb) (sum (H + W) - 2 n/nb), every rank prints its line,
# and bad arguments are refused with exit 2.  Then through hetlaunch: the
# plan's blocks reach hl-mmm in rank order, run passes, the baseline runs
# stock PDGEMM (hl-driver mm) on a P x Q grid, one process per machine,
# and under the virtual clock every message is stamped.
# Run from the repository root; HL_MMM, PRELOAD and HETLAUNCH name the binaries.
set -u
HL_MMM=${HL_MMM:-lib/hetlaunch/hl-mmm}
PRELOAD=${PRELOAD:-lib/hetlaunch/libhetlaunch-rt.so}
. "$(dirname "$0")/../lib.sh"
make_tmp

# run NRANKS ARGS...: output in $tmp/out, status in $rc (lib.sh)
run() { local n=$1; shift; mpi_run "$n" "$HL_MMM" "$@"; }

# the plan's volume from the rectangles: 8 nb^2 (n/nb) (sum (rows + cols) - 2 n/nb)
planned() {  # planned N NB BLOCKS
	python3 -c 'import sys; n, nb = int(sys.argv[1]), int(sys.argv[2]); b = [list(map(int, x.split(","))) for x in sys.argv[3].split("/")]; k = n // nb; print(8 * nb * nb * k * (sum(r[2] + r[3] for r in b) - 2 * k))' "$@"
}

check_run() {  # check_run NRANKS N NB BLOCKS WHAT
	local p=$1 n=$2 nb=$3 blocks=$4 what=$5
	run "$p" n="$n" nb="$nb" blocks="$blocks"
	local res mmm
	res=$(grep '^hetlaunch-result ' "$tmp/out")
	mmm=$(grep '^hetlaunch-mmm ' "$tmp/out")
	if [ $rc -ne 0 ] || [ -z "$res" ]; then bad "$what: exit $rc: $(cat "$tmp/out" "$tmp/err")"; return; fi
	[ "$(field passed "$res")" = 1 ] && awk -v r="$(field residual "$res")" 'BEGIN {exit !(r < 16)}' \
		&& ok || bad "$what: residual: $res"
	[ "$(field n "$res")" = "$n" ] && [ "$(field Q "$res")" = "$p" ] && ok || bad "$what: sizes in '$res'"
	local want
	want=$(planned "$n" "$nb" "$blocks")
	[ "$(field bytes_received "$mmm")" = "$want" ] && ok \
		|| bad "$what: received $(field bytes_received "$mmm") bytes, the plan says $want"
	[ "$(grep -c '^hetlaunch-rank ' "$tmp/out")" = "$p" ] && ok || bad "$what: not $p rank lines"
}

check_run 1 128 32 "0,0,4,4" "1 rank"
# three machines of speeds 1, 2, 3 (column DP: {1,2} | {3})
check_run 3 192 16 "0,0,4,6/4,0,8,6/0,6,12,6" "3 ranks, columns"
# a guillotine partition: the row cuts differ between the two halves
check_run 3 160 16 "0,0,6,4/6,0,4,4/0,4,10,6" "3 ranks, guillotine-like"
# Fig 11 (001 s6.1) at n = 640, nb = 32: 9,830,400 bytes (notes s6.10)
fig11="0,0,1,4/1,0,1,4/2,0,9,4/11,0,9,4/0,4,10,8/10,4,10,8/0,12,20,8"
check_run 7 640 32 "$fig11" "7 ranks, Fig 11"
[ "$(field bytes_received "$(grep '^hetlaunch-mmm ' "$tmp/out")")" = 9830400 ] && ok \
	|| bad "Fig 11: not the notes' 9830400 bytes"

# a product that leaves one block step out must fail its check (exit 1)
run 3 n=192 nb=16 blocks="0,0,4,6/4,0,8,6/0,6,12,6" skip=5
res=$(grep '^hetlaunch-result ' "$tmp/out")
[ $rc -eq 1 ] && [ "$(field passed "$res")" = 0 ] && ok || bad "skip=5: exit $rc, $res"

# refused: a rank count that is not the rectangles', an overlap, a gap, junk
run 2 n=128 nb=32 blocks=0,0,4,4
[ $rc -eq 2 ] && grep -q "usage: " "$tmp/err" && ok || bad "2 ranks, 1 rectangle: exit $rc"
run 2 n=128 nb=32 blocks=0,0,4,4/0,0,1,1
[ $rc -eq 2 ] && ok || bad "overlapping rectangles: exit $rc"
run 2 n=128 nb=32 blocks=0,0,2,4/2,0,1,4
[ $rc -eq 2 ] && ok || bad "rectangles that leave a gap: exit $rc"
run 1 n=100 nb=32 blocks=0,0,3,3
[ $rc -eq 2 ] && ok || bad "n not a multiple of nb: exit $rc"

if [ -n "${HETLAUNCH:-}" ]; then
	cfg=configs/mmm-fig11.yaml
	blocks=$("$HETLAUNCH" plan "$cfg" --json | python3 -c 'import json,sys; d=json.load(sys.stdin)["partition"]; print("/".join("%d,%d,%d,%d" % (b["row"], b["col"], b["rows"], b["cols"]) for b in d["blocks"]))')
	[ "$blocks" = "$fig11" ] && ok || bad "plan $cfg: blocks $blocks, want $fig11"
	"$HETLAUNCH" run "$cfg" --out "$tmp/run" --dry-run >"$tmp/out" 2>"$tmp/err"
	grep -q -- "-n 7 .*hl-mmm n=640 nb=32 blocks=$blocks\$" "$tmp/out" && ok \
		|| bad "run --dry-run: not the plan's blocks: $(cat "$tmp/out" "$tmp/err")"
	"$HETLAUNCH" run "$cfg" --out "$tmp/run2" --quiet >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r["passed"] and r["nranks"] == 7 and r["results"][0]["n"] == 640 else 1)' "$tmp/run2/report.json" \
		&& ok || bad "hetlaunch run $cfg: exit $rc: $(cat "$tmp/err")"
	grep -q "^hetlaunch-mmm bytes_received=9830400 " "$tmp/run2/log.txt" && ok || bad "run: log has no 9830400 bytes"
	# the baseline is stock PDGEMM (hl-driver mm), one process per machine
	# on a grid as square as possible: 7 machines, 1 x 7
	"$HETLAUNCH" run "$cfg" --out "$tmp/run3" --baseline cyclic --dry-run >"$tmp/out" 2>/dev/null
	grep -q -- "-n 7 .*/hl-driver mm 32 1 7 640\$" "$tmp/out" && ok \
		|| bad "baseline: not hl-driver mm 32 1 7 640: $(cat "$tmp/out")"
	# four machines at a small n: 2 x 2, and PDGEMM passes its check
	sed -e 's/^n: 640/n: 128/' -e '/sun[567]/d' "$cfg" >"$tmp/four.yaml"
	"$HETLAUNCH" run "$tmp/four.yaml" --out "$tmp/run4" --baseline cyclic --dry-run >"$tmp/out" 2>/dev/null
	grep -q -- "-n 4 .*/hl-driver mm 32 2 2 128\$" "$tmp/out" && ok \
		|| bad "baseline of 4: not hl-driver mm 32 2 2 128: $(cat "$tmp/out")"
	"$HETLAUNCH" run "$tmp/four.yaml" --out "$tmp/run5" --baseline cyclic --quiet >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); x=r["results"][0]; sys.exit(0 if r["passed"] and r["nranks"] == 4 and (r["nprow"], r["npcol"]) == (2, 2) and x["n"] == 128 and x["check"] == "PASSED" else 1)' "$tmp/run5/report.json" \
		&& ok || bad "baseline run of 4: exit $rc: $(cat "$tmp/err") $(cat "$tmp/run5/report.json" 2>/dev/null)"
	grep -q "^hetlaunch-result .*routine=PDGEMM" "$tmp/run5/log.txt" && ok \
		|| bad "baseline run of 4: no PDGEMM result line: $(grep hetlaunch-result "$tmp/run5/log.txt")"
fi

# Under the virtual clock (001-table2's configuration: Fig 11 emulated on a
# 10 Mb/s bus, clock: virtual, cpu_time: false): every message hl-mmm sends
# (Isend/Irecv/Waitall, Bcast, Reduce, Allreduce, Barrier) is stamped
# (emulation.unstamped = 0), and the virtual time lies under the model's
# no-overlap prediction (33.5 s) but not far: a rank computes while the bus
# serves others, it does not skip work (measured 29.0-29.6 s).
if [ -n "${HETLAUNCH:-}" ]; then
	"$HETLAUNCH" run experiments/configs/001-table2-emulated.yaml --out "$tmp/vrun" --quiet \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1])); e = r["emulation"]
ratio = r["time"] / r["predicted"]["time"]
assert r["passed"] and e["clock"] == "virtual" and e["cpu_time"] is False, e
assert e["unstamped"] == 0 and e["calendar_dropped"] == 0, (e["unstamped"], e["calendar_dropped"])
assert 0.8 <= ratio <= 1.0, ratio' "$tmp/vrun/report.json" \
		&& ok || bad "virtual clock run: exit $rc: $(tail -2 "$tmp/err")"
fi

echo "mmm_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
