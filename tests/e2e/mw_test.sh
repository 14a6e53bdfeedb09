#!/usr/bin/env bash
# mw_test.sh -- hl-mw, the master-worker product of paper 003, run directly
# with mpiexec.hydra on small ragged sizes (P mu does not divide s):
#   * every scheduler passes its check (C x against C0 x + A (B x)), moves
#     exactly the blocks of the model (V of its layout), and no worker ever
#     holds more than m buffers;
#   * HoLM enrols the P workers of s5.1;
#   * the same C bit for bit with and without the runtime preload;
#   * a skipped update fails the check (exit 1); bad arguments exit 2;
#   * `hetlaunch run` and `compare` of a layout: master-worker file (and
#     compare's baseline chosen by baseline_scheduler).
# Run from the repository root; HLMW names the program, PRELOAD the runtime,
# HETLAUNCH the binary.
set -u
HLMW=${HLMW:-lib/hetlaunch/hl-mw}
PRELOAD=${PRELOAD:-lib/hetlaunch/libhetlaunch-rt.so}
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
. "$(dirname "$0")/../lib.sh"
make_tmp /tmp/hetlaunch-mw-test.XXXXXX
# its own field: the first match, on the first line of TEXT only
field() { sed -n "1s/.* $1=\([^ ]*\).*/\1/p;1s/.* $1=\([^ ]*\)$/\1/p" <<<"$2" | head -1; }
run() { LD_PRELOAD=$PRELOAD timeout 120 mpiexec.hydra -n "$@"; }

r=4 t=3 s=7 m=21
for sched in holm orroml ommoml oddoml ddoml bmm obmm; do
	out=$(run 5 "$HLMW" scheduler=$sched blocks=$r,$t,$s q=16 m=$m 2>&1)
	rc=$?
	line=$(grep '^HLMW ' <<<"$out")
	mu=$(field mu "$line")
	v=$((2 * r * s + t * (r * ((s + mu - 1) / mu) + s * ((r + mu - 1) / mu))))
	if [ $rc -ne 0 ] || [ "$(field passed "$line")" != 1 ]; then
		bad "$sched: exit $rc: $out"
	elif [ "$(field blocks_sent "$line")" != $v ]; then
		bad "$sched: blocks_sent $(field blocks_sent "$line"), the model moves $v"
	elif [ "$(field max_buffers "$line")" -gt $m ]; then
		bad "$sched: a worker held $(field max_buffers "$line") buffers, m = $m"
	elif [ "$(grep -c '^HLMW-RANK ' <<<"$out")" != 5 ]; then
		bad "$sched: not one HLMW-RANK line per rank"
	else
		ok "$sched on 4 workers: passed, $v blocks, at most $(field max_buffers "$line") <= $m buffers"
	fi
done

# HoLM: mu = 3 (m = 21), c = 1, w = 2: P = ceil(3 * 2 / 2) = 3 of 4 workers
line=$(run 5 "$HLMW" scheduler=holm blocks=4,3,12 q=8 m=21 c=1 w=2 2>&1 | grep '^HLMW ')
if [ "$(field workers_used "$line")" = 3 ]; then ok "holm enrols P = 3 of 4 workers"
else bad "holm used $(field workers_used "$line") workers, want 3: $line"; fi

# Heterogeneous workers (m, c, w per worker): HoLM enrols by c/mu and leaves
# out worker 3 (rank 3), behind a slow link.
out=$(run 5 "$HLMW" scheduler=holm blocks=8,5,12 q=8 m=45,45,45,21 c=1,1,4,1 w=2,2,2,1 2>&1)
line=$(grep '^HLMW ' <<<"$out")
if [ "$(field passed "$line")" = 1 ] && [ "$(field workers_used "$line")" = 3 ] && \
   grep -q '^HLMW-RANK rank=3 .* buffers=0$' <<<"$out" && [ "$(field max_buffers "$line")" -le 21 ]; then
	ok "heterogeneous workers: 3 enrolled, the slow link left out, buffers <= least m"
else bad "heterogeneous: $out"; fi

# The same product, bit for bit (a hash of C), with and without the preload
# and whatever the scheduler (every C block is updated in k order).
a=$(timeout 120 mpiexec.hydra -n 3 "$HLMW" scheduler=oddoml blocks=3,2,5 q=8 m=21 2>&1 | grep '^HLMW ')
b=$(run 3 "$HLMW" scheduler=oddoml blocks=3,2,5 q=8 m=21 2>&1 | grep '^HLMW ')
c=$(run 3 "$HLMW" scheduler=bmm blocks=3,2,5 q=8 m=21 2>&1 | grep '^HLMW ')
if [ -n "$a" ] && [ "$(field c_hash "$a")" = "$(field c_hash "$b")" ] && \
   [ "$(field c_hash "$a")" = "$(field c_hash "$c")" ] && [ "$(field passed "$a")" = 1 ]; then
	ok "C bit-identical with and without the preload, oddoml and bmm ($(field c_hash "$a"))"
else bad "preload changes the result: '$a' / '$b'"; fi

# A skipped update must fail the check.
line=$(run 3 "$HLMW" scheduler=holm blocks=4,3,7 q=16 m=21 fault=1 2>&1)
rc=$?
if [ $rc -eq 1 ] && grep -q ' passed=0 ' <<<"$line"; then ok "a skipped update fails the check"
else bad "fault=1: exit $rc: $line"; fi

# Bad arguments, and a memory too small for the layout.
run 2 "$HLMW" scheduler=fifo blocks=1,1,1 q=8 m=21 >/dev/null 2>&1
rc1=$?
run 2 "$HLMW" scheduler=holm blocks=1,1,1 q=8 m=4 >/dev/null 2>&1
rc2=$?
if [ $rc1 -eq 2 ] && [ $rc2 -eq 2 ]; then ok "bad arguments exit 2"
else bad "bad arguments: exit $rc1 and $rc2, want 2"; fi

# Through hetlaunch: run (HoLM) and compare (HoLM against ODDOML).
cat >"$tmp/mw.yaml" <<YAML
layout: master-worker
blocks: [4, 3, 12]
memory_blocks: 21
block_time: 1
scheduler: holm
nb: 16
timeout: 120
machines:
  - {name: m0, host: localhost, cycle_time: 1}
  - {name: w, host: localhost, cycle_time: 2, count: 4}
YAML
"$HETLAUNCH" run "$tmp/mw.yaml" --quiet --out "$tmp/run" >/dev/null 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(json "$tmp/run/report.json" 'd["passed"], d["results"][0]["check"]')" = "True PASSED" ] \
   && grep -q 'scheduler=holm .*P=3' "$tmp/run/command.txt"; then ok "hetlaunch run: hl-mw holm PASSED"
else bad "hetlaunch run: exit $rc"; cat "$tmp/run/log.txt" 2>/dev/null | tail -3; fi
"$HETLAUNCH" compare "$tmp/mw.yaml" --quiet --out "$tmp/cmp" >/dev/null 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q 'scheduler=oddoml' "$tmp/cmp/cyclic/command.txt" && \
   grep -q 'scheduler=holm' "$tmp/cmp/hetero/command.txt"; then ok "hetlaunch compare: holm against oddoml"
else bad "hetlaunch compare: exit $rc"; fi
# baseline_scheduler: what compare runs first, and what it predicts against.
{ cat "$tmp/mw.yaml"; echo "baseline_scheduler: orroml"; } >"$tmp/mw-orroml.yaml"
"$HETLAUNCH" compare "$tmp/mw-orroml.yaml" --quiet --json --out "$tmp/cmp2" >"$tmp/cmp2.json" 2>/dev/null
rc=$?
want=$("$HETLAUNCH" plan "$tmp/mw-orroml.yaml" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["master_worker"]["predicted_speedup_over_baseline"])')
if [ $rc -eq 0 ] && grep -q 'scheduler=orroml' "$tmp/cmp2/cyclic/command.txt" && \
   grep -q 'scheduler=holm' "$tmp/cmp2/hetero/command.txt" && \
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if abs(d["predicted_speedup"] - float(sys.argv[2])) < 1e-9 and d["cyclic"]["passed"] and d["hetero"]["passed"] else 1)' "$tmp/cmp2.json" "$want"
then ok "hetlaunch compare with baseline_scheduler: orroml: holm against orroml, predicted $want"
else bad "hetlaunch compare, baseline_scheduler: orroml: exit $rc"; fi

# Under the virtual clock with the flop models only (load-independent), an
# emulated HoLM run meets the block model: notes s5's E1 with r = 5 (one
# tile row: 6 tiles on P = 3 of 4 workers), c = w = 5.24288 ms on a 50 Mb/s
# bus, simulated 1502 w = 7.875 s.  The master takes each credit from the worker
# it waits for: with MPI_ANY_SOURCE a credit taken early (real order) moved
# its clock to a later worker's time, and E1 measured 1.30-1.38.
cat >"$tmp/mw-virtual.yaml" <<YAML
layout: master-worker
master: m0
blocks: [5, 20, 30]
memory_blocks: 45
block_time: 1
scheduler: holm
kernel: mw
nb: 64
timeout: 120
emulate: {mflops: 100, cycle_time: 1, bandwidth_mbps: 50, network: bus, clock: virtual, cpu_time: false}
machines:
  - {name: m0, cycle_time: 1}
  - {name: w, cycle_time: 1, count: 4}
YAML
"$HETLAUNCH" run "$tmp/mw-virtual.yaml" --quiet --out "$tmp/virt" >/dev/null 2>&1
rc=$?
ratio=$(json "$tmp/virt/report.json" 'round(d["time"] / d["predicted"]["time"], 4)' 2>/dev/null)
if [ $rc -eq 0 ] && python3 -c "import sys; sys.exit(0 if 0.97 <= float(sys.argv[1]) <= 1.08 else 1)" "${ratio:-0}"
then ok "virtual clock: emulated holm within [0.97, 1.08] of its simulated makespan ($ratio)"
else bad "virtual clock: holm measured / simulated = ${ratio:-?} (exit $rc), want [0.97, 1.08]"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
