#!/usr/bin/env bash
# cli_test.sh -- end-to-end tests of the hetlaunch command:
#   * every tests/cli/bad/*.yaml is refused with exit 2, nothing on stdout, and
#     the message its first line announces ("# expect: LINE:COL: text"),
#     at FILE:LINE:COL (0:0 means the message names the file only);
#   * golden output: `hetlaunch plan` (text and --json) on configs/*.yaml
#     and tests/cli/good/*.yaml equals tests/cli/golden/ (UPDATE_GOLDEN=1 rewrites);
#   * usage errors and --help/--version;
#   * calibrate -o changes only the cycle times of the user's list (golden),
#     writes a device in place, and calibrate --from refuses a report's
#     numbers out of range.
# Run from the repository root; HETLAUNCH names the binary under test.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
. "$(dirname "$0")/../lib.sh"
make_tmp

# --- malformed input ---------------------------------------------------------
for f in tests/cli/bad/*.yaml; do
	expect=$(sed -n '1s/^# expect: //p' "$f")
	loc=${expect%%: *}
	text=${expect#*: }
	"$HETLAUNCH" plan "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$loc" = "0:0" ]; then prefix="$f: "; else prefix="$f:$loc: "; fi
	if [ $rc -ne 2 ]; then
		bad "$f: exit $rc, want 2"; cat "$tmp/err"
	elif [ -s "$tmp/out" ]; then
		bad "$f: wrote to stdout"
	elif ! grep -qF -- "$prefix$text" "$tmp/err"; then
		bad "$f: want '$prefix$text', got:"; cat "$tmp/err"
	else
		ok
	fi
done

# Every command that loads a file refuses every bad one the same way: exit
# 2, the announced message, nothing on stdout, and nothing written or
# started (no run directory, no host file; calibrate's probe is /bin/true).
# A command that starts a job anyway is stopped after 60 s (exit 124: fails).
# Under VARIANT=san a leak on a refused file fails here too.
mkdir -p "$tmp/cwd"
abs_hl=$(realpath "$HETLAUNCH")
for f in tests/cli/bad/*.yaml; do
	expect=$(sed -n '1s/^# expect: //p' "$f")
	loc=${expect%%: *}
	text=${expect#*: }
	abs=$PWD/$f
	if [ "$loc" = "0:0" ]; then prefix="$abs: "; else prefix="$abs:$loc: "; fi
	for cmd in "run --dry-run --out $tmp/cwd/out" "run --quiet" "compare --quiet" \
	           "hostfile -o $tmp/cwd/hosts" "calibrate --out $tmp/cwd/out"; do
		(cd "$tmp/cwd" && HETLAUNCH_PROBE=/bin/true timeout -k 5 60 "$abs_hl" $cmd "$abs" >"$tmp/out" 2>"$tmp/err")
		rc=$?
		if [ $rc -ne 2 ]; then
			bad "$cmd $f: exit $rc, want 2"; head -5 "$tmp/err"
		elif [ -s "$tmp/out" ]; then
			bad "$cmd $f: wrote to stdout"
		elif ! grep -qF -- "$prefix$text" "$tmp/err"; then
			bad "$cmd $f: want '$prefix$text', got:"; head -5 "$tmp/err"
		elif [ -n "$(ls -A "$tmp/cwd")" ]; then
			bad "$cmd $f: left files: $(ls -A "$tmp/cwd")"; rm -rf "${tmp:?}/cwd/"*
		else
			ok
		fi
	done
done

# A plan refused after its arrays were allocated frees them (make fuzz's
# finding; under VARIANT=san a leak turns exit 2 into LeakSanitizer's 23).
"$HETLAUNCH" plan tests/data/fuzz-2d-max-procs-leak.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -qF "max_procs = 1 is smaller than the 2 x 3 grid" "$tmp/err"; then ok
else bad "refused 2d plan: exit $rc: $(head -3 "$tmp/err")"; fi

# An exact ring search that make fuzz found taking 11 s of CPU stops at its
# node budget: exit 0, "not proven optimal", a lower bound below the ring
# found, and that ring as good as the unbounded search's (T_step 0.444919).
timeout 60 "$HETLAUNCH" plan --json tests/data/fuzz-ring-exact-slow.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && python3 - "$tmp/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["ring"]
sys.exit(0 if r["optimal"] is False and 0 < r["lower_bound"] <= r["T_step"] <= 0.44492 else 1)
PY
then ok; else bad "exact ring search past its budget: exit $rc: $(head -c 300 "$tmp/out") $(head -3 "$tmp/err")"; fi

# A file that does not exist names itself.
"$HETLAUNCH" plan tests/cli/bad/no-such-file.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -qF "tests/cli/bad/no-such-file.yaml: cannot open: No such file" "$tmp/err"; then ok
else bad "missing file: exit $rc: $(cat "$tmp/err")"; fi

# Only a regular file is a machine list: a directory says so, and a FIFO is
# refused at once instead of blocking.
"$HETLAUNCH" plan tests >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qF "tests: is a directory" "$tmp/err" && ok || bad "a directory: exit $rc: $(cat "$tmp/err")"
mkfifo "$tmp/fifo"
timeout 10 "$HETLAUNCH" plan "$tmp/fifo" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qF "not a regular file" "$tmp/err" && ok || bad "a FIFO: exit $rc: $(cat "$tmp/err")"

# A template: is read as the machine list is: only a regular file (a FIFO
# blocked even plan, a directory and /dev/zero gave empty files), byte for
# byte (a NUL cut the text there and dropped the rest silently), refused at
# template:'s line and column.
tmpl_yaml() {
	printf 'machines:\n  - {name: a, cycle_time: 1}\nkernel: exec\nprogram: /bin/true\n'
	printf 'inputs:\n  - file: deck.in\n    template: %s\n' "$1"
}
printf 'A\0B\377\001\n' >"$tmp/nul.tmpl"
for t in "$tmp/fifo|$tmp/fifo is not a regular file" "/dev/zero|/dev/zero is not a regular file" \
         "$tmp|$tmp is a directory" "$tmp/nul.tmpl|$tmp/nul.tmpl has a NUL byte (byte 2)" \
         "$tmp/none.tmpl|cannot read $tmp/none.tmpl: No such file"; do
	tmpl_yaml "${t%%|*}" >"$tmp/tmpl.yaml"
	timeout 10 "$HETLAUNCH" plan "$tmp/tmpl.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF "$tmp/tmpl.yaml:7:15: template: ${t#*|}" "$tmp/err"; then ok
	else bad "template: ${t%%|*}: exit $rc (124: it blocked): $(cat "$tmp/err")"; fi
done
printf 'A\377\001\r\nB {{}}\n' >"$tmp/bytes.tmpl"
tmpl_yaml "$tmp/bytes.tmpl" >"$tmp/tmpl.yaml"
(cd "$tmp" && "$abs_hl" run --dry-run --out "$tmp/tmpl-run" "$tmp/tmpl.yaml" >/dev/null 2>"$tmp/err")
rc=$?
if [ $rc -eq 0 ] && [ "$(od -An -c "$tmp/tmpl-run/deck.in" | tr -s ' ')" = "$(printf 'A\377\001\r\nB {}\n' | od -An -c | tr -s ' ')" ]; then ok
else bad "template bytes: exit $rc: $(od -c "$tmp/tmpl-run/deck.in" 2>&1 | head -3) $(cat "$tmp/err")"; fi

# compute: skip folds every allocation of 1 MiB and more onto shared pages
# (vproc/runtime/core/fold.c): the memory check counts what that leaves
# (page tables, the small arrays, the shared buffer), not the arrays' 17 GB
# per process (it refused n = 80000 on machines of 8 GB).  Without
# folding (HETLAUNCH_FOLD_MIN=0) the arrays count again.
for k in lu hpl; do
	printf 'machines:\n  - {name: a, cycle_time: 1, memory_gb: 8}\n  - {name: b, cycle_time: 2, memory_gb: 8}\n' >"$tmp/skip.yaml"
	printf 'kernel: %s\nn: 80000\nnb: 64\nemulate: {clock: virtual, compute: skip}\n' $k >>"$tmp/skip.yaml"
	"$HETLAUNCH" plan "$tmp/skip.yaml" >/dev/null 2>"$tmp/err"
	check "compute: skip, $k, n = 80000 on 8 GB machines: folded, it fits" test $? -eq 0
	HETLAUNCH_FOLD_MIN=0 "$HETLAUNCH" plan "$tmp/skip.yaml" >/dev/null 2>"$tmp/err"
	rc=$?
	check "compute: skip, $k, HETLAUNCH_FOLD_MIN=0: the arrays do not fit" \
		test $rc -eq 2 -a "$(grep -c "need .* GB (.*n = 80000), more than its memory_gb: 8" "$tmp/err")" = 2
done

# max_procs 10^5 on 9 machines, layout 2d, n = 10^7, nb = 1: the panel
# search stops at the first good panel size (it took minutes).
# A hang guard, not a speed target (that is `make bench`).
{ echo "machines:"
  for i in 1 2 3 4 5 6 7 8 9; do echo "  - {name: m$i, cycle_time: $i.$((i * 37 % 10))3}"; done
  printf 'layout: 2d\nmax_procs: 100000\nn: 10000000\nnb: 1\n'; } >"$tmp/maxprocs.yaml"
timeout 60 "$HETLAUNCH" plan "$tmp/maxprocs.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "panel" "$tmp/out" && ok || bad "max_procs 10^5, 2d: exit $rc (124: over 60 s): $(cat "$tmp/err")"

# --- golden output -----------------------------------------------------------
# A list of Slurm node types says in a comment which counts to plan it for
# ("# plan with: hetlaunch plan FILE --nodes gen1=4,gen3=2"), and a file
# planned at another budget says that ("# plan with:
# HETLAUNCH_PLAN_BUDGET=0.016 hetlaunch plan FILE").
nodes_of() { sed -n 's/^# plan with: .*\(--nodes [^ ]*\).*/\1/p' "$1"; }
env_of() { sed -n 's/^# plan with: \(HETLAUNCH_[A-Z_]*=[^ ]*\) .*/\1/p' "$1"; }
for f in configs/*.yaml tests/cli/good/*.yaml; do
	base=$(basename "$f" .yaml)
	read -r -a nodes <<<"$(nodes_of "$f")"
	read -r -a envs <<<"$(env_of "$f")"
	for mode in text json; do
		if [ $mode = json ]; then args=(plan "$f" --json); ext=json; else args=(plan "$f"); ext=txt; fi
		args+=("${nodes[@]}")
		golden="tests/cli/golden/$base.plan.$ext"
		env "${envs[@]}" "$HETLAUNCH" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ]; then bad "$f ($mode): exit $rc: $(cat "$tmp/err")"; continue; fi
		if [ -s "$tmp/err" ]; then bad "$f ($mode): wrote to stderr: $(cat "$tmp/err")"; continue; fi
		if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/out" "$golden"; fi
		if [ ! -f "$golden" ]; then bad "$golden is missing (UPDATE_GOLDEN=1 makes it)"; continue; fi
		if diff -u "$golden" "$tmp/out" >"$tmp/diff"; then ok; else bad "$f ($mode) differs from $golden"; head -40 "$tmp/diff"; fi
	done
	# --json prints one JSON object and nothing else
	env "${envs[@]}" "$HETLAUNCH" plan "$f" --json "${nodes[@]}" >"$tmp/out" 2>/dev/null
	if [ "$(head -c1 "$tmp/out")" = "{" ] && [ "$(tail -n1 "$tmp/out")" = "}" ]; then ok
	else bad "$f: --json output is not a single object"; fi
done

# kernel: hpl: the hpccinf.txt a dry run writes, for a 1d and a 2d plan (HPL's
# Ns, NB, PMAP row-major, P x Q of the plan, the hpl: settings; golden).
for c in hpl-1d hpl-2d; do
	rm -rf "$tmp/run-$c"
	"$HETLAUNCH" run "tests/cli/good/$c.yaml" --dry-run --out "$tmp/run-$c" >/dev/null 2>"$tmp/err"
	golden=tests/cli/golden/$c.hpccinf.txt
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/run-$c/hpccinf.txt" "$golden"; fi
	if diff -u "$golden" "$tmp/run-$c/hpccinf.txt" >"$tmp/diff"; then ok
	else bad "$c: hpccinf.txt differs from $golden: $(head -20 "$tmp/diff") $(cat "$tmp/err")"; fi
done
if grep -q "^mpirun .*/usr/bin/hpcc\$" "$tmp/run-hpl-2d/command.txt" &&
	grep -q "^# run in: $tmp/run-hpl-2d\$" "$tmp/run-hpl-2d/command.txt"; then ok
else bad "hpl-2d: command.txt: $(cat "$tmp/run-hpl-2d/command.txt")"; fi
# n: auto: the dry run's hpccinf.txt carries the n the plan chose
rm -rf "$tmp/run-auto"
"$HETLAUNCH" run tests/cli/good/hpl-auto.yaml --dry-run --out "$tmp/run-auto" >/dev/null 2>&1
if grep -q "^15360 *Ns\$" "$tmp/run-auto/hpccinf.txt" 2>/dev/null; then ok
else bad "hpl-auto: hpccinf.txt's Ns: $(grep Ns "$tmp/run-auto/hpccinf.txt" 2>&1)"; fi
# ... and hostfile and simulate plan at that n too (they planned at n = nb)
"$HETLAUNCH" hostfile tests/cli/good/hpl-auto.yaml >"$tmp/out" 2>"$tmp/err"
if cmp -s "$tmp/out" "$tmp/run-auto/hosts.mpich"; then ok
else bad "hpl-auto: hostfile is not the dry run's hosts.mpich: $(cat "$tmp/out" "$tmp/err")"; fi
"$HETLAUNCH" simulate tests/cli/good/hpl-auto.yaml --json >"$tmp/out" 2>"$tmp/err"
if [ "$(json "$tmp/out" 'd["kernel"], d["n"], d["M"], d["B"]' 2>/dev/null)" = "hpl 15360 240 4" ]; then ok
else bad "hpl-auto: simulate: $(cat "$tmp/out" "$tmp/err")"; fi

# --- usage ---------------------------------------------------------------------
expect_rc() {  # expect_rc WANT DESCRIPTION ARGS...
	local want=$1 what=$2; shift 2
	"$HETLAUNCH" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq "$want" ]; then ok; else bad "$what: exit $rc, want $want"; fi
}
expect_rc 0 "--help" --help
grep -q "^usage: hetlaunch" "$tmp/out" && ok || bad "--help prints no usage"
# Every command has a --help (and -h): its usage on stdout, nothing on
# stderr, exit 0, whatever else is on the line; nothing is loaded or run.
for c in plan hostfile run compare calibrate simulate sbatch; do
	for h in --help -h; do
		expect_rc 0 "$c $h" $c configs/lhpc-lu.yaml $h
		grep -q "^usage: hetlaunch $c \[\?FILE" "$tmp/out" && [ ! -s "$tmp/err" ] && ok \
			|| bad "$c $h: no usage on stdout: $(cat "$tmp/out" "$tmp/err")"
	done
done
expect_rc 0 "--version" --version
grep -q "^hetlaunch [0-9]" "$tmp/out" && ok || bad "--version prints no version"
expect_rc 2 "no arguments"
expect_rc 2 "unknown option" --frobnicate
expect_rc 2 "plan without FILE" plan
expect_rc 2 "plan unknown option" plan configs/lhpc-lu.yaml --jsn
expect_rc 2 "plan two files" plan configs/lhpc-lu.yaml configs/lip-lu.yaml
expect_rc 0 "plan -- FILE" plan --json -- configs/lhpc-lu.yaml
# One parser for every command (launcher/cli/options.c): the nearest option
# of the command, or the command that has the option; values after '='.
expect_rc 2 "plan --jsn" plan configs/lhpc-lu.yaml --jsn
grep -q "plan: unknown option '--jsn'; did you mean '--json'?" "$tmp/err" && ok \
	|| bad "plan --jsn: no suggestion: $(cat "$tmp/err")"
expect_rc 2 "compare --dry-run" compare configs/lhpc-lu.yaml --dry-run
grep -q "compare: unknown option '--dry-run' (an option of 'run')" "$tmp/err" && ok \
	|| bad "compare --dry-run: no pointer to run: $(cat "$tmp/err")"
expect_rc 2 "unknown option far from any" plan configs/lhpc-lu.yaml --zzzzzzzz
grep -q "did you mean\|an option of" "$tmp/err" && bad "--zzzzzzzz: a suggestion: $(cat "$tmp/err")" || ok
expect_rc 2 "run --out without DIR" run configs/lhpc-lu.yaml --out
grep -q "run: --out needs DIR" "$tmp/err" && ok || bad "--out: $(cat "$tmp/err")"
expect_rc 2 "flag with a value" plan configs/lhpc-lu.yaml --json=yes
expect_rc 2 "--baseline other" run configs/lhpc-lu.yaml --baseline block --dry-run
"$HETLAUNCH" hostfile configs/lhpc-lu.yaml --format=openmpi >"$tmp/eq" 2>/dev/null
"$HETLAUNCH" hostfile configs/lhpc-lu.yaml --format openmpi >"$tmp/sp" 2>/dev/null
check "--format=openmpi is --format openmpi" cmp -s "$tmp/eq" "$tmp/sp"
expect_rc 2 "keys takes no FILE" keys configs/lhpc-lu.yaml
expect_rc 2 "help bad format" help --format roff
# Every command of the table is in --help, and every option of a command in
# its own --help.
"$HETLAUNCH" help --format md | awk -F'|' 'NR > 3 && $2 ~ /`/ { print $2 }' | tr -d '` ' |
	sed 's/FILE$\|\[FILE\]$//' >"$tmp/cmds"
missing=
while read -r c; do
	"$HETLAUNCH" --help | grep -q "^  $c" || missing="$missing $c"
done <"$tmp/cmds"
check "every command of the table in --help (missing:$missing)" test -z "$missing"

# --- hostfile ------------------------------------------------------------------
# Golden host files in every format (tests/cli/golden/NAME.hostfile.FORMAT), then
# properties that hold whatever the plan: every format lists the plan's hosts
# in rank order (the "host" of each entry of the plan JSON's ranks).
hf_formats="mpich mpich-grouped mpich-rankmap openmpi openmpi-seq slurm"
plan_hosts() {  # plan_hosts FILE [--nodes ...]: one host per rank
	"$HETLAUNCH" plan "$@" --json | awk '/^  "ranks": \[/ {on = 1; next}
		on && /^  \]/ {on = 0} on && /"host":/ {sub(/.*"host": "/, ""); sub(/".*/, ""); print}'
}
expand_mpich() { awk -F: '{for (i = 0; i < $2; i++) print $1}' "$1"; }
hf_golden() {  # hf_golden CONFIG FORMAT GOLDEN [ARGS...]
	local f=$1 fmt=$2 golden=$3; shift 3
	"$HETLAUNCH" hostfile "$f" --format "$fmt" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -ne 0 ]; then bad "hostfile $f $fmt: exit $rc: $(cat "$tmp/err")"; return 1; fi
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/out" "$golden"; fi
	if [ ! -f "$golden" ]; then bad "$golden is missing (UPDATE_GOLDEN=1 makes it)"; return 1; fi
	if diff -u "$golden" "$tmp/out" >"$tmp/diff"; then ok
	else bad "hostfile $f $fmt differs from $golden"; head -20 "$tmp/diff"; return 1; fi
}
for f in configs/*.yaml tests/cli/good/count-and-speed.yaml tests/cli/good/hostlist.yaml; do
	base=$(basename "$f" .yaml)
	read -r -a nodes <<<"$(nodes_of "$f")"
	plan_hosts "$f" "${nodes[@]}" >"$tmp/hosts"
	[ -s "$tmp/hosts" ] || { bad "$f: no ranks in the plan JSON"; continue; }
	for fmt in $hf_formats; do
		hf_golden "$f" "$fmt" "tests/cli/golden/$base.hostfile.$fmt" "${nodes[@]}" || continue
		cp "$tmp/out" "$tmp/hf.$fmt"
		# the mpich note is printed exactly when a host is on two runs of lines
		split=0
		[ "$fmt" = mpich ] && split=$(awk -F: '$1 != prev {n[$1]++} {prev = $1}
			END {for (h in n) if (n[h] > 1) s++; print s + 0}' "$tmp/hf.mpich")
		if [ "$split" -gt 0 ]; then
			grep -q "^hetlaunch: note: $split host.* more than one line" "$tmp/err" && ok || bad "$f mpich: no note about $split split hosts: $(cat "$tmp/err")"
		else
			[ ! -s "$tmp/err" ] && ok || bad "$f $fmt: wrote to stderr: $(cat "$tmp/err")"
		fi
	done
	# per-rank formats = the plan's hosts in rank order
	cmp -s "$tmp/hosts" "$tmp/hf.slurm" && ok || bad "$f: slurm file is not the plan's hosts"
	cmp -s "$tmp/hosts" "$tmp/hf.openmpi-seq" && ok || bad "$f: openmpi-seq file is not the plan's hosts"
	expand_mpich "$tmp/hf.mpich" | cmp -s "$tmp/hosts" - && ok || bad "$f: mpich file does not expand to the plan's hosts"
	awk '{print NR - 1}' "$tmp/hosts" >"$tmp/want-ranks"
	sed 's/^rank \([0-9]*\)=.*/\1/' "$tmp/hf.openmpi" | cmp -s "$tmp/want-ranks" - && ok || bad "$f: rankfile ranks are not 0..n-1 in order"
	sed 's/^rank [0-9]*=\([^ ]*\) slot=[0-9]*$/\1/' "$tmp/hf.openmpi" | cmp -s "$tmp/hosts" - && ok || bad "$f: rankfile hosts are not the plan's hosts"
	# grouped list + rankmap: each host once, and line rankmap[k] is rank k's host
	tr ',' '\n' <"$tmp/hf.mpich-rankmap" | awk -F: 'NR == FNR {h[NR - 1] = $1; n[NR - 1] = $2; next}
		{print h[$1]; c[$1]++} END {for (i in n) if (c[i] != n[i]) exit 1}' "$tmp/hf.mpich-grouped" - >"$tmp/regrouped" \
		&& cmp -s "$tmp/hosts" "$tmp/regrouped" && ok || bad "$f: mpich-grouped + mpich-rankmap do not give the plan's hosts"
	[ "$(cut -d: -f1 "$tmp/hf.mpich-grouped" | sort | uniq -d)" = "" ] && ok || bad "$f: mpich-grouped lists a host twice"
	rm -f "$tmp"/hf.*
done

# --- Slurm: node types and sbatch ----------------------------------------------
# (Outside an allocation: SLURM_JOB_ID unset.)  The batch script, golden with
# this binary's and the file's absolute paths replaced by @HETLAUNCH@ and @FILE@.
unset SLURM_JOB_ID SLURM_HET_SIZE
sbatch_golden() {  # sbatch_golden FILE GOLDEN [ARGS...]
	local f=$1 golden=$2; shift 2
	"$HETLAUNCH" sbatch "$f" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -ne 0 ]; then bad "sbatch $f: exit $rc: $(cat "$tmp/err")"; return; fi
	sed -e "s#'$(realpath "$HETLAUNCH")'#'@HETLAUNCH@'#" -e "s#$(realpath "$f")#@FILE@#g" \
		"$tmp/out" >"$tmp/script"
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/script" "$golden"; fi
	if diff -u "$golden" "$tmp/script" >"$tmp/diff"; then ok
	else bad "sbatch $f differs from $golden"; head -20 "$tmp/diff"; fi
}
sbatch_golden configs/slurm-features.yaml tests/cli/golden/slurm-features.sbatch --nodes gen1=4,gen3=2
sbatch_golden tests/cli/good/hostlist.yaml tests/cli/golden/hostlist.sbatch
# -o: the same script, replaced atomically, never through a link; sh reads it.
"$HETLAUNCH" sbatch configs/slurm-features.yaml --nodes gen1=4,gen3=2 >"$tmp/want" 2>/dev/null
expect_rc 0 "sbatch -o" sbatch configs/slurm-features.yaml --nodes gen1=4,gen3=2 -o "$tmp/job.sh"
cmp -s "$tmp/want" "$tmp/job.sh" && sh -n "$tmp/job.sh" && ok || bad "sbatch -o: not the script of stdout, or not sh"
echo keep >"$tmp/target"; ln -sf "$tmp/target" "$tmp/link.sh"
expect_rc 2 "sbatch -o through a link" sbatch configs/slurm-features.yaml --nodes gen1=4,gen3=2 -o "$tmp/link.sh"
[ "$(cat "$tmp/target")" = keep ] && ok || bad "sbatch -o wrote through a link"
# Refusals: exit 2, the reason at the entry's line:column, nothing written.
types_yaml() {  # types_yaml FILE ENTRY...
	local f=$1; shift
	{ echo "machines:"; for e in "$@"; do echo "  - $e"; done; } >"$f"
}
types_yaml "$tmp/part.yaml" "{name: old, cycle_time: 2, slurm: {partition: old}}"
rm -f "$tmp/job.sh"
expect_rc 2 "sbatch: partitions" sbatch "$tmp/part.yaml" --nodes old=2 -o "$tmp/job.sh"
grep -q "part.yaml:2:39: sbatch: slurm: partition asks for a heterogeneous job" "$tmp/err" && [ ! -e "$tmp/job.sh" ] && ok || bad "sbatch partitions: $(cat "$tmp/err")"
types_yaml "$tmp/mixed.yaml" "{name: a, host: n1, cycle_time: 1}" "{name: b, cycle_time: 2, slurm: {feature: gen1}}"
expect_rc 2 "sbatch: hosts and types" sbatch "$tmp/mixed.yaml" --nodes gen1=1
grep -q "mixed.yaml:2:5: sbatch: a names its host" "$tmp/err" && ok || bad "sbatch mixed: $(cat "$tmp/err")"
expect_rc 2 "sbatch: types, no --nodes, no allocation" sbatch configs/slurm-features.yaml
grep -q "slurm-features.yaml:20:24: machines: old is a Slurm node type (slurm: feature gen1): run inside an allocation" "$tmp/err" && ok || bad "no --nodes: $(cat "$tmp/err")"
# --nodes: a type with no count is refused at its slurm: unless optional; a
# TYPE that is no type of the file, a bad list, a command that runs: usage.
expect_rc 2 "--nodes without a type's count" plan configs/slurm-features.yaml --nodes gen1=4
grep -q "slurm-features.yaml:21:24: machines: new (slurm: feature gen3) got no node: give --nodes gen3=COUNT" "$tmp/err" && ! grep -q a100 "$tmp/err" && ok || bad "--nodes gen1=4: $(cat "$tmp/err")"
expect_rc 2 "--nodes: unknown type" plan configs/slurm-features.yaml --nodes gen1=4,gen3=1,gen9=2
grep -q "slurm-features.yaml: --nodes: gen9 is no slurm: feature" "$tmp/err" && ok || bad "--nodes gen9: $(cat "$tmp/err")"
expect_rc 2 "--nodes: not TYPE=COUNT" plan configs/slurm-features.yaml --nodes gen1
expect_rc 2 "--nodes: compare" compare configs/slurm-features.yaml --nodes gen1=4,gen3=2
expect_rc 2 "--nodes: run without --dry-run" run configs/slurm-features.yaml --nodes gen1=4,gen3=2
expect_rc 0 "--nodes: run --dry-run" run configs/slurm-features.yaml --nodes gen1=4,gen3=2 --dry-run --out "$tmp/dry"
[ "$(cut -d: -f1 "$tmp/dry/hosts.mpich" | sort -u | tr '\n' ' ')" = "new-0 new-1 old-0 old-1 old-2 old-3 " ] && ok || bad "run --dry-run --nodes: hosts $(tr '\n' ' ' <"$tmp/dry/hosts.mpich")"

# count > 1: the two processors of node1.example are slots 0 and 1, and every
# rank of a machine is on its machine's slot (new.0 -> 0, new.1 -> 1).
"$HETLAUNCH" plan tests/cli/good/count-and-speed.yaml --json | awk '/"ranks": \[/ {on = 1} on && /"machine":/ {sub(/.*"machine": "/, ""); sub(/".*/, ""); print}' >"$tmp/machines"
"$HETLAUNCH" hostfile tests/cli/good/count-and-speed.yaml --format openmpi | sed 's/.* slot=//' >"$tmp/slots"
paste -d' ' "$tmp/machines" "$tmp/slots" | sort -u >"$tmp/pairs"
printf 'new.0 0\nnew.1 1\nold 0\n' | cmp -s - "$tmp/pairs" && ok || bad "count-and-speed: machine/slot pairs: $(tr '\n' ';' <"$tmp/pairs")"

# --baseline cyclic: one rank per machine, in list order
for f in configs/lhpc-lu.yaml configs/table3-2d.yaml; do
	base=$(basename "$f" .yaml)
	for fmt in mpich openmpi; do
		hf_golden "$f" "$fmt" "tests/cli/golden/$base.cyclic.hostfile.$fmt" --baseline cyclic
	done
done
"$HETLAUNCH" hostfile configs/lhpc-lu.yaml --baseline cyclic --format slurm >"$tmp/out"
printf 'lhpcb\nlhpcf\nlhpci\n' | cmp -s - "$tmp/out" && ok || bad "lhpc cyclic: want one rank per machine in list order"

# -o: the same bytes as stdout, nothing on stdout, no temporary file left;
# an existing file is replaced
mkdir "$tmp/o"
for fmt in $hf_formats; do
	"$HETLAUNCH" hostfile configs/lip-lu.yaml --format "$fmt" >"$tmp/stdout.$fmt" 2>/dev/null
	echo stale >"$tmp/o/hosts"
	"$HETLAUNCH" hostfile configs/lip-lu.yaml --format "$fmt" -o "$tmp/o/hosts" >"$tmp/out" 2>/dev/null
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && cmp -s "$tmp/stdout.$fmt" "$tmp/o/hosts" &&
	   [ "$(ls -A "$tmp/o")" = hosts ]; then ok
	else bad "hostfile -o ($fmt): exit $rc, or the file differs from stdout, or left: $(ls -A "$tmp/o")"; fi
done
# -o into a directory that does not exist: exit 1, the path named, nothing made
"$HETLAUNCH" hostfile configs/lhpc-lu.yaml -o "$tmp/nodir/hosts" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$tmp/nodir" ] && [ ! -s "$tmp/out" ] && grep -qF "$tmp/nodir/hosts" "$tmp/err"; then ok
else bad "hostfile -o into a missing directory: exit $rc: $(cat "$tmp/err")"; fi
# -o onto a directory: exit 1, the directory untouched, no temporary file
mkdir "$tmp/o/adir"
"$HETLAUNCH" hostfile configs/lhpc-lu.yaml -o "$tmp/o/adir" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ -d "$tmp/o/adir" ] && [ "$(ls -A "$tmp/o" | tr '\n' ' ')" = "adir hosts " ]; then ok
else bad "hostfile -o onto a directory: exit $rc, left: $(ls -A "$tmp/o")"; fi
# stdout that cannot be written: exit 1, and no note claims success
if [ -w /dev/full ]; then
	"$HETLAUNCH" hostfile configs/lhpc-lu.yaml --format slurm >/dev/full 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "writing the output" "$tmp/err" && ok || bad "hostfile >/dev/full: exit $rc: $(cat "$tmp/err")"
fi
# bad input: exit 2, FILE:LINE:COL, and -o leaves the existing file alone
echo keep >"$tmp/o/hosts"
"$HETLAUNCH" hostfile tests/cli/bad/negative.yaml -o "$tmp/o/hosts" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$tmp/o/hosts")" = keep ] && grep -q "^tests/cli/bad/negative.yaml:[0-9]*:[0-9]*: " "$tmp/err"; then ok
else bad "hostfile on a bad file: exit $rc: $(cat "$tmp/err")"; fi
# a host with ':' cannot go into an MPICH host file; the other formats take it
printf 'machines:\n  - name: a\n    host: "fe80::1"\n    cycle_time: 1\n  - name: b\n    cycle_time: 2\n' >"$tmp/colon.yaml"
for fmt in mpich mpich-grouped mpich-rankmap; do
	"$HETLAUNCH" hostfile "$tmp/colon.yaml" --format $fmt >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qF "$tmp/colon.yaml:2:5: host \"fe80::1\" of machine a has ':'" "$tmp/err"; then ok
	else bad "hostfile $fmt with host fe80::1: exit $rc: $(cat "$tmp/err")"; fi
done
"$HETLAUNCH" hostfile "$tmp/colon.yaml" --format openmpi >"$tmp/out" 2>"$tmp/err" && grep -q "=fe80::1 slot=0" "$tmp/out" && ok || bad "hostfile openmpi with host fe80::1: $(cat "$tmp/err")"
# usage
expect_rc 2 "hostfile without FILE" hostfile
expect_rc 2 "hostfile bad format" hostfile configs/lhpc-lu.yaml --format mpi
grep -q "unknown format 'mpi' (formats: mpich, " "$tmp/err" && ok || bad "bad format: message lists no formats: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] && ok || bad "bad format wrote to stdout"
expect_rc 2 "hostfile --format without value" hostfile configs/lhpc-lu.yaml --format
expect_rc 2 "hostfile -o without value" hostfile configs/lhpc-lu.yaml -o
expect_rc 2 "hostfile -o ''" hostfile configs/lhpc-lu.yaml -o ''
expect_rc 2 "hostfile bad baseline" hostfile configs/lhpc-lu.yaml --baseline hetero
expect_rc 2 "hostfile unknown option" hostfile configs/lhpc-lu.yaml --fromat mpich
expect_rc 2 "hostfile two files" hostfile configs/lhpc-lu.yaml configs/lip-lu.yaml
expect_rc 0 "hostfile -- FILE" hostfile --format slurm -- configs/lhpc-lu.yaml
grep -q "hostfile FILE" <("$HETLAUNCH" --help) && ok || bad "--help does not list hostfile"

# simulate (paper 002 s4; tests/e2e/adapt_test.sh has more): the bound below every makespan
"$HETLAUNCH" simulate configs/lhpc-lu.yaml --json >"$tmp/out" 2>"$tmp/err" && python3 -c '
import json, sys; d = json.load(open(sys.argv[1]))
assert all(d[s]["makespan"] >= d["lower_bound"] for s in ("static", "optimized", "dynamic"))' "$tmp/out" \
	&& ok || bad "simulate --json: $(cat "$tmp/err")"
expect_rc 2 "simulate on layout 2d" simulate configs/table3-2d.yaml
expect_rc 2 "simulate unknown option" simulate configs/lhpc-lu.yaml --fast
# simulate is bounded by its cost, M (M+1)/2 tasks x (min(M, max_procs) + 8)
# passes <= 2^25 (about 2 s): lhpc-lu with nb 1 simulates n 964, refuses 965
# at n's line, before anything is simulated (n 20000 grew past 6 GB).
for c in 964:0 965:2; do
	sed "s/^n: .*/n: ${c%:*}/; s/^nb: .*/nb: 1/" configs/lhpc-lu.yaml >"$tmp/sim-big.yaml"
	timeout 60 "$HETLAUNCH" simulate "$tmp/sim-big.yaml" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc = 0 ]; then want=dynamic; else want="sim-big.yaml:16:4: simulate: M = 965"; fi
	[ $rc = "${c#*:}" ] && grep -qF "$want" "$tmp/out" "$tmp/err" && { [ $rc = 0 ] || [ ! -s "$tmp/out" ]; } \
		&& ok || bad "simulate n ${c%:*} nb 1: rc $rc, want ${c#*:}: $(cat "$tmp/err")"
done
expect_rc 2 "run --adapt without K" run configs/lhpc-lu.yaml --adapt

# layout columns reports paper 000's 2D panel plan (partition.panel_2d): it is
# layout 2d's own plan for the same machines (same grid, machines, panel
# counts), its blocks tile the block matrix, C^ = p + q, and its predicted
# time is the product's model nb [max t H W + beta (sum (H + W) - 2 nb)].
for f in configs/mmm-fig11.yaml tests/cli/good/columns-toy.yaml tests/cli/good/columns-auto.yaml; do
	sed -e 's/^layout: columns/layout: 2d/' -e '/^partition:/d' -e '/^select:/d' -e '/^kernel:/d' "$f" >"$tmp/as2d.yaml"
	"$HETLAUNCH" plan "$f" --json >"$tmp/cols.json" 2>"$tmp/err" &&
	"$HETLAUNCH" plan "$tmp/as2d.yaml" --json >"$tmp/2d.json" 2>>"$tmp/err" && python3 -c '
import json, sys
c = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
g = c["partition"]["panel_2d"]; N = c["partition"]["block_side"]; beta = c["partition"]["comm_cost"]
p, q = d["grid"]["p"], d["grid"]["q"]; Bp, Bq = d["panel"]["Bp"], d["panel"]["Bq"]
assert g["grid"] == [p, q] and g["panel"] == [Bp, Bq] and g["cost"] == p + q, (g["grid"], p, q)
cover = [[0] * N for _ in range(N)]
for b in g["blocks"]:
    for i in range(b["row"], b["row"] + b["rows"]):
        for j in range(b["col"], b["col"] + b["cols"]):
            cover[i][j] += 1
assert all(v == 1 for row in cover for v in row), "panel_2d blocks do not tile"
# the 2d plan: virtual process (I, J) is rank I*Bq + J; grid machine of block row k is row_pattern[k % Bp]
name = {r["rank"]: r["machine"] for r in d["ranks"]}
own = {}
for b in g["blocks"]:
    own[b["machine"]] = own.get(b["machine"], 0) + b["rows"] * b["cols"]
want = {}
for k in range(N):
    for l in range(N):
        m = name[(k % Bp) * Bq + (l % Bq)]
        want[m] = want.get(m, 0) + 1
assert own == want, (own, want)
t = {m["name"]: m["cycle_time"] for m in c["machines"]}
load = max(t[b["machine"]] * b["rows"] * b["cols"] for b in g["blocks"])
hp = sum(b["rows"] + b["cols"] for b in g["blocks"])
assert abs(load - g["max_load"]) < 1e-9 and hp == g["half_perimeter_blocks"]
T = N * (load + beta * (hp - 2 * N))
assert abs(T - g["predicted_time"]) <= 1e-9 * T, (T, g["predicted_time"])' "$tmp/cols.json" "$tmp/2d.json" \
		&& ok || bad "$f: partition.panel_2d is not layout 2d's plan read as rectangles: $(cat "$tmp/err")"
done

# A product is order-free (kernels.h): the plans group each machine's
# processes (vproc_pattern_group), same counts as LU's order; LU keeps 000
# s3.4's interleaved order.  Table 3: 2D rows 0 1 2 0 1 0 become 0 0 0 1 1 2.
for k in mm lu; do
	sed "s/^kernel: .*/kernel: $k/" configs/table3-emulated.yaml >"$tmp/t3-$k.yaml"
	sed "s/^kernel: .*/kernel: $k/; s/^layout: 1d/layout: 1d\norder: interleaved/" \
		experiments/configs/table3-1d-emulated.yaml >"$tmp/t3-1d-$k.yaml"
	[ $k = mm ] && sed -i '/^order:/d' "$tmp/t3-1d-$k.yaml"
	"$HETLAUNCH" plan "$tmp/t3-$k.yaml" --json >"$tmp/t3-$k.json" 2>"$tmp/err" &&
	"$HETLAUNCH" plan "$tmp/t3-1d-$k.yaml" --json >"$tmp/t3-1d-$k.json" 2>>"$tmp/err" ||
		{ bad "plan of Table 3, kernel $k: $(cat "$tmp/err")"; continue; }
done
python3 -c '
import json, sys
def load(f): return json.load(open(f))
mm, lu = load(sys.argv[1]), load(sys.argv[2])
m1, l1 = load(sys.argv[3]), load(sys.argv[4])
def runs(p): return 1 + sum(a != b for a, b in zip(p, p[1:]))
assert mm["panel"]["grouped"] and not lu["panel"]["grouped"]
assert mm["panel"]["row_pattern"] == [0, 0, 0, 1, 1, 2], mm["panel"]["row_pattern"]
assert sorted(lu["panel"]["row_pattern"]) == mm["panel"]["row_pattern"]
assert runs(lu["panel"]["row_pattern"]) > 3
assert m1["pattern_grouped"] and not l1["pattern_grouped"]
assert sorted(m1["pattern"]) == sorted(l1["pattern"]) and m1["counts"] == l1["counts"]
assert runs(m1["pattern"]) == len(set(m1["pattern"])), m1["pattern"]
assert runs(l1["pattern"]) > len(set(l1["pattern"]))
' "$tmp/t3-mm.json" "$tmp/t3-lu.json" "$tmp/t3-1d-mm.json" "$tmp/t3-1d-lu.json" 2>"$tmp/err" \
	&& ok || bad "kernel mm: patterns not grouped by machine: $(tail -n 2 "$tmp/err")"

# The 1D slice's order (layout_1d.c choose_order).  Table 3's QR
# on its 100 Mb/s bus at n = 2000: the interleaved slice's I-ring crosses
# machines at 18 of 19 hops, the grouped one at 9, so order: auto groups it
# (measured under the virtual clock: 23.80 s against 11.29 s), after the
# step model's imbalance.  order: interleaved keeps 000 s3.4; without a
# network to predict, auto keeps it too; order: grouped groups and
# predicts the LU steps on the grouped slice.
sed 's/^n: .*/n: 2000/' experiments/configs/table3-1d-emulated.yaml >"$tmp/o-auto.yaml"
sed 's/^layout: 1d/layout: 1d\norder: interleaved/' "$tmp/o-auto.yaml" >"$tmp/o-int.yaml"
# (at n = 2400, M = 75: at the file's M = 64 both orders happen to predict the same steps)
sed 's/^n: .*/n: 2400/' configs/lip-lu.yaml >"$tmp/o-lip.yaml"
sed 's/^layout: 1d/layout: 1d\norder: grouped/' "$tmp/o-lip.yaml" >"$tmp/o-grp.yaml"
# the same on a 100 Gb/s network: the bytes no longer weigh, the grouped
# slice's imbalance does (+3.2%), and auto keeps (restores) 000 s3.4's order
sed -e 's/bandwidth_mbps: 100$/bandwidth_mbps: 100000/' -e 's/latency_us: 100$/latency_us: 1/' \
	"$tmp/o-auto.yaml" >"$tmp/o-fast.yaml"
for o in auto int grp lip fast; do
	"$HETLAUNCH" plan "$tmp/o-$o.yaml" --json >"$tmp/o-$o.json" 2>"$tmp/err" ||
		bad "order $o: plan failed: $(cat "$tmp/err")"
done
python3 -c '
import json, sys
a, i, g, l = (json.load(open(f)) for f in sys.argv[1:5])
def runs(p): return 1 + sum(x != y for x, y in zip(p, p[1:]))
o = a["order"]
assert o["mode"] == "auto" and o["chosen"] == "grouped" and a["pattern_grouped"], o
assert o["grouped_s"] * (1 + o["grouped_excess"]) < o["interleaved_s"], o
assert 0 < o["grouped_excess"] < 0.1 and o["interleaved_s"] > 1.5 * o["grouped_s"], o
assert runs(a["pattern"]) == len(set(a["pattern"])) and a["counts"] == i["counts"]
assert i["order"]["chosen"] == "interleaved" and i["order"]["interleaved_s"] is None
assert runs(i["pattern"]) > len(set(i["pattern"]))
# the LU steps are predicted on the order that runs
assert abs(a["predicted"]["lu"]["hetero"] / i["predicted"]["lu"]["hetero"] - 1 - o["grouped_excess"]) < 1e-9
assert l["order"]["chosen"] == "interleaved" and l["order"]["interleaved_s"] is None, l["order"]
assert g["order"]["chosen"] == "grouped" and runs(g["pattern"]) == len(set(g["pattern"]))
assert g["counts"] == l["counts"] and g["predicted"]["lu"]["hetero"] != l["predicted"]["lu"]["hetero"]
f = json.load(open(sys.argv[5]))
fo = f["order"]
assert fo["chosen"] == "interleaved" and not f["pattern_grouped"], fo
assert fo["interleaved_s"] > 0 and fo["grouped_s"] > 0, fo
assert fo["grouped_s"] * (1 + fo["grouped_excess"]) >= fo["interleaved_s"], fo
assert f["pattern"] == i["pattern"] and f["predicted"]["lu"] == i["predicted"]["lu"], (f["pattern"], i["pattern"])
' "$tmp/o-auto.json" "$tmp/o-int.json" "$tmp/o-grp.json" "$tmp/o-lip.json" "$tmp/o-fast.json" 2>"$tmp/err" \
	&& ok || bad "order: the slice order choice: $(tail -n 2 "$tmp/err")"
"$HETLAUNCH" plan "$tmp/o-auto.yaml" >"$tmp/o-auto.txt" 2>&1
grep -q '^  chosen: grouped$' "$tmp/o-auto.txt" && grep -q 'interleaved (000 s3.4) .* s$' "$tmp/o-auto.txt" \
	&& ok || bad "order: plan text lacks the order choice: $(grep -A4 'Slice order' "$tmp/o-auto.txt")"
# layout: auto (layout_auto.c): 2d on today's mixed cluster of 256 cores,
# 1d on six unequal machines over a high-latency network; both by seconds.
"$HETLAUNCH" plan configs/today-cluster.yaml --json | python3 -c '
import json, sys; a = json.load(sys.stdin)["layout_auto"]
assert a["chosen"] == "2d" and a["units"] == "s" and a["2d"] < a["1d"], a' \
	&& ok || bad "layout: auto does not keep 2d on configs/today-cluster.yaml"
"$HETLAUNCH" plan tests/cli/good/auto-1d.yaml >"$tmp/auto1.txt" &&
grep -q '^layout: auto kept 1d: the predicted time of the whole LU' "$tmp/auto1.txt" &&
grep -q '^  1d is [0-9.]* x faster$' "$tmp/auto1.txt" \
	&& ok || bad "layout: auto does not keep 1d on tests/cli/good/auto-1d.yaml"
# layout: auto when one plan's LU play is over the planner's budget
# (auto_choice.c): at the default budget both plays run and 2d is kept by
# them; at HETLAUNCH_PLAN_BUDGET=0.016 the 2d play is over, and both are
# compared on the sum of phases, which keeps 2d too (keeping the 1d plan
# because it alone had seconds was the fault).
for b in 1 0.016; do
	HETLAUNCH_PLAN_BUDGET=$b "$HETLAUNCH" plan --json tests/cli/good/auto-over-budget.yaml |
	python3 -c '
import json, sys; a = json.load(sys.stdin)["layout_auto"]; b = sys.argv[1]
assert a["chosen"] == "2d" and a["1d"] > 0, a
if b == "1":
    assert a["compared_on"] == "play" and 0 < a["2d"] < a["1d"] and a["why"] is None and "phases" not in a, a
else:
    p = a["phases"]
    assert a["compared_on"] == "phases" and a["2d"] is None and 0 < p["2d"] < p["1d"], a
    assert "layout 2d: the work of its LU play" in a["why"] and "budget of 4e+05" in a["why"], a
' "$b" && ok || bad "layout: auto with HETLAUNCH_PLAN_BUDGET=$b on auto-over-budget.yaml"
done
# ... and when even the 2d plan's sum of phases is over the budget (a
# 32 x 32 panel; the 1d slice of 2 processes is not): not compared, 2d kept,
# and the plan says so.
{ printf 'layout: auto\nB: 2\npanel: [32, 32]\nn: 2000\nnb: 8\nlatency_us: 2\nbandwidth_mbps: 25000\nmachines:\n'
  printf '  - {name: new%d, count: 16, mflops: 20000}\n' 1 2
  printf '  - {name: old%d, count: 8, mflops: 10000}\n' 1 2 3 4; } >"$tmp/uncompared.yaml"
HETLAUNCH_PLAN_BUDGET=0.005 "$HETLAUNCH" plan "$tmp/uncompared.yaml" >"$tmp/unc.txt" &&
HETLAUNCH_PLAN_BUDGET=0.005 "$HETLAUNCH" plan --json "$tmp/uncompared.yaml" | python3 -c '
import json, sys; a = json.load(sys.stdin)["layout_auto"]
assert a["chosen"] == "2d" and a["compared_on"] is None and a["1d"] > 0 and a["2d"] is None, a
assert "layout 2d: the work of its sum of phases" in a["why"], a' &&
grep -q '^  not compared, even on the sum of phases: 2d kept' "$tmp/unc.txt" \
	&& ok || bad "layout: auto, the 2d sum of phases over the budget: $(sed -n '/layout: auto/,/^$/p' "$tmp/unc.txt")"
# HETLAUNCH_PLAN_BUDGET that is not a finite factor > 0 is a usage error:
# exit 2, the variable named, nothing written.
for v in abc 0 -1 inf 1e400 2x; do
	(cd "$tmp/cwd" && HETLAUNCH_PLAN_BUDGET=$v "$abs_hl" run --dry-run --out "$tmp/cwd/out" \
		"$OLDPWD/tests/cli/good/auto-1d.yaml" >"$tmp/out" 2>"$tmp/err")
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ -z "$(ls -A "$tmp/cwd")" ] &&
	   grep -qF "HETLAUNCH_PLAN_BUDGET=$v: not a finite number > 0" "$tmp/err"; then ok
	else bad "HETLAUNCH_PLAN_BUDGET=$v: exit $rc: $(head -2 "$tmp/err")"; rm -rf "${tmp:?}/cwd/"*; fi
done
# Inside a Slurm allocation whose nodes are not the plan's hosts, run,
# run --dry-run and compare refuse: exit 2, the missing hosts named in list
# order, nothing written or started.  An allocation that holds them passes.
mkdir -p "$tmp/alloc"
for cmd in "run --dry-run" "run --quiet" "compare --quiet"; do
	(cd "$tmp/alloc" && SLURM_JOB_NODELIST='c[001-010]' timeout 60 "$abs_hl" $cmd \
		"$OLDPWD/configs/department-cluster.yaml" >"$tmp/out" 2>"$tmp/err")
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ -z "$(ls -A "$tmp/alloc")" ] &&
	   grep -qF "the Slurm allocation (SLURM_JOB_NODELIST=c[001-010]) lacks the plan's hosts: old1, old2, old3, old4, mid1, mid2, mid3, mid4, new1, new2 (10 hosts" "$tmp/err"; then
		ok
	else
		bad "$cmd in allocation c[001-010]: exit $rc, files: $(ls -A "$tmp/alloc"), $(head -3 "$tmp/err")"
	fi
	rm -rf "${tmp:?}/alloc/"*
done
SLURM_JOB_NODELIST='old[1-4],mid[1-4],new1' "$HETLAUNCH" run --dry-run --out "$tmp/alloc/d" \
	configs/department-cluster.yaml >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qF "lacks the plan's hosts: new2 (1 host:" "$tmp/err" && [ ! -e "$tmp/alloc/d" ] \
	&& ok || bad "allocation without new2: exit $rc: $(head -3 "$tmp/err")"
SLURM_JOB_NODELIST='old[1-4],mid[1-4],new[1-2]' "$HETLAUNCH" run --dry-run --out "$tmp/alloc/d" \
	configs/department-cluster.yaml >/dev/null 2>"$tmp/err" && [ -s "$tmp/alloc/d/plan.json" ] \
	&& ok || bad "an allocation holding the plan's hosts was refused: $(head -3 "$tmp/err")"
# kernel: exec with model: plans layout: auto with that model and names it
# on the plan's first line; without model: nothing is predicted step by
# step (no "LU of M column blocks"), and auto says why 2d was not compared.
"$HETLAUNCH" plan tests/cli/good/exec-model.yaml >"$tmp/em.txt" &&
head -1 "$tmp/em.txt" | grep -q ', kernel exec, model: qr$' &&
grep -q '^layout: auto kept [12]d: the predicted time of the whole QR' "$tmp/em.txt" &&
grep -q '^  2d .* speedup [0-9.]* over the baseline$' "$tmp/em.txt" \
	&& ok || bad "exec with model: qr: $(head -3 "$tmp/em.txt")"
sed '/^model:/d' tests/cli/good/exec-model.yaml >"$tmp/em-none.yaml"
"$HETLAUNCH" plan "$tmp/em-none.yaml" >"$tmp/em.txt" &&
head -1 "$tmp/em.txt" | grep -q ', kernel exec, model: none (no algorithm to predict by)$' &&
! grep -q 'LU of M' "$tmp/em.txt" && grep -q 'kernel exec without model:' "$tmp/em.txt" &&
grep -q '^Predicted speedup over the baseline: .*steady state' "$tmp/em.txt" \
	&& ok || bad "exec without model: $(cat "$tmp/em.txt" | head -40)"
# One baseline for every predicted speedup of a file (layout: auto): the
# kept plan's speedup in the comparison equals the plan's one speedup line,
# and both are baseline / kept in the plan document.
for f in configs/department-cluster.yaml configs/today-cluster.yaml tests/cli/good/auto-1d.yaml; do
	"$HETLAUNCH" plan "$f" >"$tmp/ob.txt" && "$HETLAUNCH" plan --json "$f" >"$tmp/ob.json" &&
	python3 - "$tmp/ob.txt" "$tmp/ob.json" <<'PY' && ok || bad "$f: more than one baseline for its speedups"
import json, re, sys
text = open(sys.argv[1]).read(); d = json.load(open(sys.argv[2]))
a = d["layout_auto"]; kept = a["chosen"]
want = a["baseline"] / a[kept]
assert abs(d["predicted_speedup"]["value"] - want) < 1e-9 * want, (d["predicted_speedup"], want)
rows = dict(re.findall(r"^  (1d|2d) .* speedup ([0-9.]+) over the baseline$", text, re.M))
line = re.search(r"^Predicted speedup over the baseline: ([0-9.]+) ", text, re.M).group(1)
assert rows[kept] == line == "%.2f" % want, (rows, line, want)
assert re.search(r"^  baseline .* \(the one baseline: %s's, " % kept, text, re.M), text
assert a["network"] or "not seconds" in text, "relative units called seconds"
PY
done
# The processes per host: the summary's counts are the plan document's
# ranks per host, the dropped hosts are those without one, and alike hosts
# with unequal counts are named with a why (1d: with the cost of equal ones).
for f in configs/department-cluster.yaml tests/cli/good/hosts-1d.yaml; do
	"$HETLAUNCH" plan "$f" >"$tmp/hs.txt" && "$HETLAUNCH" plan --json "$f" >"$tmp/hs.json" &&
	python3 - "$tmp/hs.txt" "$tmp/hs.json" <<'PY' && ok || bad "$f: the processes per host disagree with its ranks"
import collections, json, re, sys
text = open(sys.argv[1]).read(); d = json.load(open(sys.argv[2]))
per = collections.Counter(r["host"] for r in d["ranks"])
sec = text.split("\nProcesses per host (", 1)[1].split("\n\n", 1)[0]
assert sec.startswith("%d ranks on 288 cores of 10 hosts" % len(d["ranks"])), sec[:60]
seen = {}
for m in re.finditer(r"^  (\w+)(?:\.\.(\w+))?\s+(\d+)\s+[0-9.]+\s+(\d+)  ", sec, re.M):
    a, b, procs = m.group(1), m.group(2), int(m.group(4))
    names = [a] if not b else [a[:-1] + str(k) for k in range(int(a[-1]), int(b[-1]) + 1)]
    for h in names:
        seen[h] = procs
assert len(seen) == 10 and all(seen[h] == per.get(h, 0) for h in seen), (seen, per)
dropped = sorted(h for h in seen if seen[h] == 0)
if dropped:
    assert "dropped (no process): " + ", ".join(dropped) in sec, sec
if per["new1"] != per["new2"]:
    assert "alike hosts, unequal counts:" in sec and "why:" in sec, sec
    assert d["layout"] != "1d" or "cost of equal counts" in sec, sec
PY
done
# Layout 2d deals alike hosts' grid cells (alike_hosts.c): the department
# cluster's new and mid nodes get equal counts at the same predicted time;
# hosts-2d's c2 hosts are dealt 5 and 5, its c3 hosts cannot be equal and
# the plan says why (their cells hold 2 processes for 3 hosts).
for f in configs/department-cluster.yaml tests/cli/good/hosts-2d.yaml; do
	"$HETLAUNCH" plan "$f" >"$tmp/hs.txt" && "$HETLAUNCH" plan --json "$f" >"$tmp/hs.json" &&
	python3 - "$tmp/hs.txt" "$tmp/hs.json" <<'PY' && ok || bad "$f: alike hosts' counts not dealt"
import collections, json, sys
text = open(sys.argv[1]).read(); d = json.load(open(sys.argv[2]))
per = collections.Counter(r["host"] for r in d["ranks"])
groups = [["new1", "new2"], ["mid1", "mid2", "mid3", "mid4"]] if "new1" in per else [["c2-1", "c2-2"]]
for g in groups:
    assert len({per[h] for h in g}) == 1, (g, per)
    assert " ".join(g) + " %d each" % per[g[0]] in text, text
assert "equal counts cost 1.0000 x the speed-ordered plan's time" in text, text
if "c3-1" in per:
    assert "alike hosts, unequal counts: c3-1 1 c3-2 1 c3-3 0" in text, text
    assert "2 in all,\n    not a multiple of 3 hosts" in text, text
PY
done
# A plan of hundreds of cores fits a page: a count: entry's identical
# processors on one line (new1's 48 of 2 processes: the other 16 have 1);
# plan --full prints every table whole.
"$HETLAUNCH" plan configs/today-cluster.yaml >"$tmp/tc.txt" &&
"$HETLAUNCH" plan configs/today-cluster.yaml --full >"$tmp/tc-full.txt" &&
[ "$(wc -l <"$tmp/tc.txt")" -le 70 ] && grep -q '^  new1\.0-47  *2 .*(48 machines' "$tmp/tc.txt" &&
[ "$(wc -l <"$tmp/tc-full.txt")" -gt 300 ] && grep -q "^  row 0  *new1\.0 " "$tmp/tc-full.txt" \
	&& ok || bad "plan text of 256 cores is not grouped ($(wc -l <"$tmp/tc.txt") lines), or --full is"
# The grid is chosen for any number of machines (vproc/planner/grid/grid_shape.c): 320
# in two generations, well under a second (make bench measures).
{ printf 'layout: 2d\nn: 20000\nnb: 128\nmachines:\n'
  printf '  - {name: a, count: 200, speed: 2}\n  - {name: b, count: 120, speed: 1}\n'; } >"$tmp/g320.yaml"
t0=$(date +%s%N)
"$HETLAUNCH" plan "$tmp/g320.yaml" >"$tmp/g320.txt" 2>&1 && t1=$(date +%s%N) &&
grep -q '^layout 2d: a [0-9]* x [0-9]* grid of machines (chosen' "$tmp/g320.txt" &&
[ $(( (t1 - t0) / 1000000 )) -lt 5000 ] \
	&& ok || bad "2d grid for 320 machines: $(head -n 2 "$tmp/g320.txt")"
# No plan slower than its baseline is made silently: a B fixed too small
# says that it loses and by how much; hetlaunch's own choice of B on 256
# cores uses them all (it took 64 of them: 0.50 of the baseline's speed).
{ printf 'n: 100000\nnb: 256\nB: 64\nmachines:\n'
  printf '  - {name: new, count: 128, speed: 2}\n  - {name: old, count: 128, speed: 1}\n'; } >"$tmp/lose.yaml"
sed '/^B: /d' "$tmp/lose.yaml" >"$tmp/win.yaml"
"$HETLAUNCH" plan "$tmp/lose.yaml" >"$tmp/lose.txt" &&
grep -q '^  this plan LOSES: it is predicted [0-9.]* x slower than the baseline (B = 64 given' "$tmp/lose.txt" &&
"$HETLAUNCH" plan "$tmp/win.yaml" --json | python3 -c '
import json, sys; d = json.load(sys.stdin)
assert d["B"] >= 256 and d["predicted_speedup"]["value"] > 1, (d["B"], d["predicted_speedup"])
assert all(c > 0 for c in d["counts"].values())' \
	&& ok || bad "a plan slower than its baseline: $(grep -i 'speedup\|loses' "$tmp/lose.txt")"
# A chosen panel that misses its 10% says what it achieved.
printf 'layout: 2d\nn: 1024\nnb: 32\nmax_procs: 4\nmachines:\n  - {name: a, speed: 1}\n  - {name: b, speed: 1.7}\n  - {name: c, speed: 3.1}\n  - {name: d, speed: 5}\n' >"$tmp/pmiss.yaml"
"$HETLAUNCH" plan "$tmp/pmiss.yaml" | grep -q '^panel 2 x 2 virtual processes (chosen: the best up to max_procs = 4, efficiency 0\.[0-9]*; none is within 10%)$' \
	&& ok || bad "a chosen panel short of 10% claims it: $("$HETLAUNCH" plan "$tmp/pmiss.yaml" | sed -n 3,4p)"
# The seconds model for a real cluster (mflops:, latency_us, bandwidth_mbps)
# at n = 100 000, no emulation, no memory check against this computer.
"$HETLAUNCH" plan configs/today-cluster.yaml --json | python3 -c '
import json, sys; d = json.load(sys.stdin)
s, p = d["predicted_seconds"], d["predicted_speedup"]
assert s["plan"] > 0 and s["baseline"] > s["plan"] and p["model"] == "seconds", (s, p)
assert abs(p["value"] - s["baseline"] / s["plan"]) < 1e-9, p' \
	&& ok || bad "configs/today-cluster.yaml: no predicted seconds of the real cluster"

# The plan's predicted seconds (plan.c): with emulate: mflops the
# plan's and the baseline's; the 1d plan's is the seconds of the order it
# chose; without emulation, null.
"$HETLAUNCH" plan configs/lhpc-emulated.yaml --json >"$tmp/ps-lhpc.json" 2>"$tmp/err" &&
"$HETLAUNCH" plan configs/lhpc-lu.yaml --json >"$tmp/ps-real.json" 2>>"$tmp/err" &&
"$HETLAUNCH" plan configs/mw-e1-emulated.yaml --json >"$tmp/ps-mw.json" 2>>"$tmp/err" &&
python3 -c '
import json, sys
e, r, m = (json.load(open(f)) for f in sys.argv[1:4])
s, o = e["predicted_seconds"], e["order"]
assert 0 < s["plan"] < s["baseline"], s
assert abs(s["plan"] - (o["grouped_s"] if o["chosen"] == "grouped" else o["interleaved_s"])) < 1e-9 * s["plan"], (s, o)
assert r["predicted_seconds"] is None, r["predicted_seconds"]
assert m["predicted_seconds"]["plan"] > 0, m["predicted_seconds"]
' "$tmp/ps-lhpc.json" "$tmp/ps-real.json" "$tmp/ps-mw.json" 2>>"$tmp/err" \
	&& ok || bad "plan: predicted_seconds: $(tail -n 3 "$tmp/err")"
"$HETLAUNCH" plan configs/lhpc-emulated.yaml >"$tmp/ps.txt" &&
grep -q '^  this plan [0-9.]* s, the baseline [0-9.]* s$' "$tmp/ps.txt" &&
grep -q '^Predicted speedup over the baseline: [0-9.]* (model: seconds at the emulated' "$tmp/ps.txt" \
	&& ok || bad "plan text: no predicted seconds line"
# a bad value, and the key on a layout without a slice: exit 2 at the key
sed 's/^layout: 1d/layout: 1d\norder: sideways/' configs/lip-lu.yaml >"$tmp/o-bad.yaml"
"$HETLAUNCH" plan "$tmp/o-bad.yaml" >/dev/null 2>"$tmp/err"; rc=$?
line=$(grep -n '^order:' "$tmp/o-bad.yaml" | cut -d: -f1)
[ $rc = 2 ] && grep -q "o-bad.yaml:$line:[0-9]*: .*order" "$tmp/err" \
	&& ok || bad "order: sideways: rc $rc, $(cat "$tmp/err")"
sed 's/^layout: 2d/layout: 2d\norder: grouped/' configs/table3-emulated.yaml >"$tmp/o-2d.yaml"
"$HETLAUNCH" plan "$tmp/o-2d.yaml" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "o-2d.yaml:[0-9]*:[0-9]*: .*order" "$tmp/err" \
	&& ok || bad "order on layout 2d: rc $rc, $(cat "$tmp/err")"

# layout: master-worker plans up to 2^20 block products (r t s); one more
# is refused at blocks' line (tests/cli/bad/mw-blocks-too-many.yaml).
for b in "1024, 1024, 1:0" "1025, 1024, 1:2"; do
	sed "s/^blocks: .*/blocks: [${b%:*}]/" configs/mw-small.yaml >"$tmp/mw-cap.yaml"
	"$HETLAUNCH" plan "$tmp/mw-cap.yaml" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = "${b#*:}" ] && ok || bad "blocks: [${b%:*}]: rc $rc, want ${b#*:}: $(cat "$tmp/err")"
done

# --- calibrate --from and -o: the report is input, -o is the user's file -------
# Only the cycle times change in the written list (a golden file); a report's
# numbers out of range are refused at the report and field, writing nothing.
mkdir -p "$tmp/calrun"
cal_report() {  # COMPUTE_OF_fast N
	printf '{"layout": "1d", "kernel": "lu", "results": [{"n": %s}], "ranks": [{"machine": "fast", "compute": %s}, {"machine": "slow", "compute": 2.0}, {"machine": "pair.0", "compute": 3.0}, {"machine": "pair.1", "compute": 3.5}]}\n' "$2" "$1" >"$tmp/calrun/report.json"
}
CAL=tests/data/calibrate-commented.yaml
cal_report 1.0 64
"$HETLAUNCH" calibrate --from "$tmp/calrun" "$CAL" -o "$tmp/cal.yaml" --quiet >/dev/null 2>"$tmp/err"
check "calibrate -o keeps comments, order, max_procs and emulate: true; only the cycle times change" \
	cmp -s "$tmp/cal.yaml" tests/cli/golden/calibrate-commented.yaml
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	"$HETLAUNCH" calibrate --from "$tmp/calrun" "$CAL" -o "$tmp/null" --quiet >/dev/null 2>"$tmp/err"
	rc=$?
	check "calibrate -o a device node (/dev/null's): exit 0, still the device" test $rc -eq 0 -a -c "$tmp/null"
else
	echo "SKIP: mknod not permitted here: calibrate -o a device node"
fi
for case in "1e308 64 ranks[0].compute" "nan 64 ranks[0].compute" \
            "1.0 100000000 results[0].n" "1.0 10000000 results[0].n"; do
	read -r c n field <<<"$case"
	cal_report "$c" "$n"
	rm -f "$tmp/cal2.yaml"
	timeout 20 "$HETLAUNCH" calibrate --from "$tmp/calrun" "$CAL" -o "$tmp/cal2.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -e "$tmp/cal2.yaml" ] && grep -qF "$tmp/calrun/report.json: $field = " "$tmp/err"
	then ok
	else bad "calibrate --from a report with compute $c, n $n: exit $rc, want 2 at $field: $(head -2 "$tmp/err")"; fi
done
# --- multi-core nodes: each rank bound to its machine's CPUs --------------------
# configs/modern-cluster.yaml models 288 cores a machine per core (count:);
# the dry run's command binds every rank to one CPU: Hydra by -bind-to user:,
# srun (in an allocation: SLURM_JOB_ID, nothing started) by --cpu-bind, Open
# MPI by the rankfile's slots.  A node model (cores:) binds a node's ranks to
# all its CPUs (srun: when the nodes have as many cores, one mask fits all).
MC=configs/modern-cluster.yaml
"$HETLAUNCH" run $MC --dry-run --out "$tmp/mc-hydra" >"$tmp/out" 2>"$tmp/err"
check "modern-cluster, Hydra: -bind-to user:0,1,2,... in the dry run's command" \
	grep -q "^mpiexec.hydra -f [^ ]*/hosts.mpich -bind-to user:0,1,2,3," "$tmp/out"
check "modern-cluster, Hydra: command.txt has the binding too" \
	grep -q -- "-bind-to user:0,1,2," "$tmp/mc-hydra/command.txt"
SLURM_JOB_ID=4242 "$HETLAUNCH" run $MC --dry-run --out "$tmp/mc-srun" >"$tmp/out" 2>"$tmp/err"
check "modern-cluster, srun: --cpu-bind=map_cpu:0,1,2,... in the dry run's command" \
	grep -q "srun .*--ntasks=367 --cpu-bind=map_cpu:0,1,2,3,.*,62,63,0,1," "$tmp/out"
sed 's/^name: modern-cluster/name: modern-ompi\nmpi: openmpi/' $MC >"$tmp/mc-ompi.yaml"
"$HETLAUNCH" run "$tmp/mc-ompi.yaml" --dry-run --out "$tmp/mc-ompi" >"$tmp/out" 2>"$tmp/err"
check "modern-cluster, mpirun: the rankfile binds gen3-1's 64 cores to slots 0..63" \
	test "$(awk '/=gen3-1 slot=/ {sub(/.*slot=/, ""); print}' "$tmp/mc-ompi/hosts.openmpi" | sort -un | tr '\n' ' ')" \
	= "$(seq 0 63 | tr '\n' ' ')"
cat >"$tmp/nodes.yaml" <<YAML
machines:
  - {name: new, host: n1, speed: 64, cores: 32}
  - {name: old, host: n2, speed: 32, cores: 32}
  - {name: big, host: n3, speed: 64, cores: 64}
n: 20000
nb: 256
B: 40
YAML
SLURM_JOB_ID=4242 "$HETLAUNCH" run "$tmp/nodes.yaml" --dry-run --out "$tmp/nodes-srun" >"$tmp/out" 2>"$tmp/err"
check "node model, srun: nodes of 32 and 64 cores need two masks: not bound, and said" \
	grep -q "ranks not bound to their cores: srun --cpu-bind takes one CPU list" "$tmp/err"
sed -i '/name: big/d' "$tmp/nodes.yaml"
SLURM_JOB_ID=4242 "$HETLAUNCH" run "$tmp/nodes.yaml" --dry-run --out "$tmp/nodes-srun" >"$tmp/out" 2>"$tmp/err"
check "node model, srun: a node's ranks share its 32 CPUs (--cpu-bind=mask_cpu:0xffffffff,...)" \
	grep -q -- "--cpu-bind=mask_cpu:0xffffffff,0xffffffff," "$tmp/out"
"$HETLAUNCH" hostfile "$tmp/nodes.yaml" --format openmpi >"$tmp/out" 2>"$tmp/err"
check "node model, rankfile: slot=0-31 on each node" \
	test "$(cut -d' ' -f3 "$tmp/out" | sort -u | tr '\n' ' ')" = "slot=0-31 "
# Hydra's node map (PMI_process_mapping) is at most 1024 bytes: 240 ranks
# interleaved over 60 hosts need more, and hetlaunch says so.
{ echo "machines:"; for i in $(seq 0 59); do echo "  - {name: m$i, host: h$i, speed: $((i % 3 + 1))}"; done
  echo "n: 100000"; echo "nb: 128"; echo "B: 240"; echo "max_procs: 1024"; echo "order: interleaved"; } >"$tmp/many.yaml"
"$HETLAUNCH" hostfile "$tmp/many.yaml" --format mpich-rankmap >"$tmp/out" 2>"$tmp/err"
check "a 240-rank rankmap over Hydra's 1024-byte node map: warned, with what to do" \
	grep -q "PMI_process_mapping) in at most 1024 bytes .* these 240 ranks need 2128 .*order: grouped" "$tmp/err"
"$HETLAUNCH" hostfile configs/lhpc-lu.yaml --format mpich-rankmap >"$tmp/out" 2>"$tmp/err"
check "a short rankmap: no warning" test ! -s "$tmp/err"

# --- the format reference covers the user contract -----------------------------
# Every word of ../shared/INTERFACE.md's contract is in doc/format.md (when
# the contract is beside the repository, as in CI).
if [ -r ../shared/INTERFACE.md ]; then
	check "doc/format.md names every key, command and JSON key of ../shared/INTERFACE.md" \
		sh -c 'scripts/doc-coverage >/dev/null 2>&1'
fi

# --- the schema (launcher/config/keys.c) --------------------------------------------
# The files generated from it are up to date (scripts/gen-keys rewrites them).
"$HETLAUNCH" keys --format dict >"$tmp/dict"
check "keys.dict is \`hetlaunch keys --format dict\` (scripts/gen-keys)" \
	cmp -s "$tmp/dict" tests/fuzz/keys.dict
"$HETLAUNCH" keys --format man >"$tmp/man"
sed -n '/^\.\\" BEGIN KEYS$/,/^\.\\" END KEYS$/p' man/hetlaunch.1 | sed '1d;$d' >"$tmp/man.1"
check "man/hetlaunch.1's key list is \`hetlaunch keys --format man\` (scripts/gen-keys)" \
	cmp -s "$tmp/man" "$tmp/man.1"
sed -n '/^\.\\" BEGIN KEYS$/,/^\.\\" END KEYS$/p' man/hetlaunch.yaml.5 | sed '1d;$d' >"$tmp/man.5"
check "man/hetlaunch.yaml.5's key list is \`hetlaunch keys --format man\` (scripts/gen-keys)" \
	cmp -s "$tmp/man" "$tmp/man.5"
"$HETLAUNCH" keys --format md >"$tmp/md"
sed -n '/^<!-- BEGIN KEYS -->$/,/^<!-- END KEYS -->$/p' doc/format.md | sed '1d;$d' >"$tmp/format.md"
check "doc/format.md's key table is \`hetlaunch keys --format md\` (scripts/gen-keys)" \
	cmp -s "$tmp/md" "$tmp/format.md"
expect_rc 2 "keys bad format" keys --format yaml
# The command table's documents are up to date (scripts/gen-keys).
for part in SYNOPSIS OPTIONS; do
	fmt=man-$(echo $part | tr 'A-Z' 'a-z')
	"$HETLAUNCH" help --format $fmt >"$tmp/gen"
	sed -n "/^\.\\\\\" BEGIN $part\$/,/^\.\\\\\" END $part\$/p" man/hetlaunch.1 | sed '1d;$d' >"$tmp/have"
	check "man/hetlaunch.1's $part is \`hetlaunch help --format $fmt\` (scripts/gen-keys)" \
		cmp -s "$tmp/gen" "$tmp/have"
done
"$HETLAUNCH" help --format md >"$tmp/gen"
sed -n '/^<!-- BEGIN COMMANDS -->$/,/^<!-- END COMMANDS -->$/p' doc/format.md | sed '1d;$d' >"$tmp/have"
check "doc/format.md's command table is \`hetlaunch help --format md\` (scripts/gen-keys)" \
	cmp -s "$tmp/gen" "$tmp/have"
# Each key once per place (a top-level key is common or a layout's, never both).
"$HETLAUNCH" keys --format md | awk -F' [|] ' 'NR > 3 { print $2, $1 }' | sort | uniq -d >"$tmp/dups"
check "every key once per place in the schema" test ! -s "$tmp/dups"
# The table's ranges and enums are what the loaders refuse with: one file
# per key with its value out of range (or not one of its values).
keyfile() {  # keyfile WHERE LAYOUT KEY VALUE
	local m="machines: [{name: a, cycle_time: 1}, {name: b, cycle_time: 2}]"
	case $1 in
	"top level") printf 'layout: %s\n%s\n%s: %s\n' "$2" "$m" "$3" "$4" ;;
	"machines: entry") printf 'layout: %s\nblocks: [2, 2, 2]\nmachines:\n  - name: a\n    cycle_time: 1\n    %s: %s\n  - {name: b, cycle_time: 2}\n' "$2" "$3" "$4" ;;
	"emulate:") printf 'layout: %s\n%s\nemulate: {%s: %s}\n' "$2" "$m" "$3" "$4" ;;
	"hpl:") printf 'layout: %s\n%s\nkernel: hpl\nhpl: {%s: %s}\n' "$2" "$m" "$3" "$4" ;;
	"slurm:") printf 'layout: %s\nmachines:\n  - {name: a, cycle_time: 1, slurm: {%s: %s}}\n' "$2" "$3" "$4" ;;
	esac >"$tmp/key.yaml"
}
"$HETLAUNCH" keys --format md | tail -n +4 | sed 's/ \\| /\//g' |
while IFS='|' read -r _ key where value scope _; do
	key=$(echo $key | tr -d '`'); where=$(echo $where); value=$(echo $value); scope=$(echo $scope)
	layout=1d; case $scope in "layout "*) layout=${scope#layout }; layout=${layout%% *} ;; esac
	case $value in
	"integer "*..*[0-9])
		lo=${value#integer }; lo=${lo%..*}; hi=${value##*..}
		keyfile "$where" "$layout" "$key" $((hi + 1))
		want="$key: $((hi + 1)) is out of range [$lo, $hi]" ;;
	*/*)
		case $key in layout|kernel|emulate|cpu_time) continue ;; esac
		keyfile "$where" "$layout" "$key" zzz
		want="$key: expected one of $(echo "$value" | sed 's/\//, /g'), got \"zzz\""
		[ "$value" = "true/false" ] && want="$key: expected true or false, got \"zzz\"" ;;
	*) continue ;;
	esac
	[ "$where" = "emulate:" ] && want="emulate: $want"
	[ "$where" = "hpl:" ] && want="hpl: $want"
	[ "$where" = "slurm:" ] && want="slurm: $want"
	"$HETLAUNCH" plan "$tmp/key.yaml" >/dev/null 2>"$tmp/err"
	grep -qF -- "$want" "$tmp/err" && echo ok || echo "bad $key ($where): want '$want', got: $(cat "$tmp/err")"
done >"$tmp/schema"
n=$(grep -c '^ok$' "$tmp/schema")
check "the schema's ranges and values are the loaders' ($n keys)" \
	sh -c "! grep -v '^ok$' '$tmp/schema' && [ $n -ge 20 ]"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
