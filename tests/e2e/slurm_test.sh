#!/usr/bin/env bash
# slurm_test.sh -- `hetlaunch run` inside a real Slurm allocation.
#
# The three network-namespace hosts of the multi-host test
# (tests/e2e/multihost/netns-up) become a Slurm cluster (tests/e2e/slurm/slurm-up:
# munged and slurmctld here, one slurmd per namespace as nodes n1, n2, n3,
# a test-made munge key and slurm.conf).  A machine list puts machines on
# n1 and n3 only; `sbatch -w n1,n2,n3` runs `hetlaunch run` on it.  Checks:
#   a. hetlaunch launched through srun with the plan's `slurm` host file,
#      and that file is what `hetlaunch hostfile --format slurm` prints;
#   b. LU (hl-driver) PASSED, and hetlaunch's report says placement: verified;
#   c. every rank ran on the node the plan gave it: a second run (kernel:
#      exec) of whereami, each rank reporting its namespace's address, read
#      by the test itself; n2, in the allocation but not in the plan, got
#      nothing;
#   c2. Hydra's own Slurm launcher (-launcher slurm) with the same host
#      file misplaces ranks (the reason hetlaunch uses srun), and hetlaunch
#      does not call that placement verified;
#   c3. mpi: openmpi in the allocation (mpirun, the rankfile): every rank on
#      its plan's node, placement verified;
#   d. `scancel` of a running job ends it: hetlaunch exits 1 and says the
#      Slurm job was cancelled;
#   f. a list of node types (features gen1, gen3): `hetlaunch sbatch
#      --submit` asks for them by constraint counts, and in the job every
#      rank runs on a node of its type, placement verified;
#   g. in an allocation, plan names the nodes each type got (by feature and
#      by partition); a node no type
#      matches, and a type no node matches, are refused (exit 2, nothing
#      started);
#   h. a heterogeneous job (partitions old : new): het_group types get their
#      components' nodes, and run refuses with the measured reason;
#   e. after tear-down no daemon, namespace or process of this run is left.
# Needs root, network namespaces and the Slurm packages (scripts/install-deps);
# without root or namespaces it prints SKIP: and exits 0.  HETLAUNCH names
# the binary under test (default bin/hetlaunch); SLURM_KEEP=1 keeps the
# scratch directory.  Every exit path stops the daemons and the hosts.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
case $HETLAUNCH in /*) ;; */*) HETLAUNCH=$ROOT/$HETLAUNCH ;; esac
MH=$ROOT/tests/e2e/multihost
SL=$ROOT/tests/e2e/slurm
JOB_TIMEOUT=${SLURM_TEST_TIMEOUT:-60}

. "$ROOT/tests/lib.sh"
t0=$(date +%s.%N)
summary() {
	printf 'slurm_test: %d passed, %d failed (%s s)\n' "$pass" "$fail" \
		"$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
	[ "$fail" -eq 0 ]
	exit $?
}
skip() {
	echo "SKIP: slurm_test: $* -- the Slurm checks did NOT run"
	summary
}

[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, Slurm daemons)"
command -v ip >/dev/null 2>&1 || skip "no ip(8) (iproute2)"
for c in munged slurmctld slurmd sbatch srun scancel squeue sinfo sshd mpicc.mpich mpicc.openmpi python3; do
	command -v "$c" >/dev/null 2>&1 || { bad "missing $c (scripts/install-deps installs it)"; summary; }
done
[ -x "$HETLAUNCH" ] || { bad "no $HETLAUNCH (make)"; summary; }

# Names start with PREFIX (as in multihost_test.sh); our processes carry
# HLT_MULTIHOST_TAG, or our scratch directory on their command line, or
# live in our namespaces.
PREFIX=hls$$
for s in '' a b c d e f g h; do
	if ! ip netns list 2>/dev/null | grep -q "^hls$$$s" && ! ip -o link show | grep -q ": hls$$$s"; then
		PREFIX=hls$$$s
		break
	fi
done
export HLT_MULTIHOST_TAG=$PREFIX
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetlaunch-slurm.XXXXXX") || exit 1
chmod 755 "$tmp"   # the jobs' files are read and written from the namespaces
net=$tmp/net
sl=$tmp/slurm
inodes=()

# our_procs, kill_ours: what this run started, and only that
# shellcheck source=multihost/procs.sh
. "$MH/procs.sh"
cleaned=''
cleanup() {
	[ -n "$cleaned" ] && return
	cleaned=1
	[ -d "$sl" ] && "$SL/slurm-down" "$sl" >/dev/null 2>&1
	[ -d "$net" ] && "$MH/netns-down" "$net" >/dev/null 2>&1
	kill_ours
	if [ "${SLURM_KEEP:-0}" = 1 ]; then echo "slurm_test: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'echo "slurm_test: interrupted" >&2; exit 130' INT
trap 'echo "slurm_test: terminated" >&2; exit 143' TERM

if ! ip netns add "${PREFIX}probe" 2>"$tmp/probe.err"; then
	skip "the kernel refuses network namespaces: $(cat "$tmp/probe.err")"
fi
ip netns del "${PREFIX}probe"

# --- the cluster ----------------------------------------------------------------------
if HLT_PREFIX=$PREFIX "$MH/netns-up" "$net" 3 >"$tmp/up.out" 2>&1; then ok
else bad "netns-up: $(cat "$tmp/up.out")"; summary; fi
mapfile -t inodes <"$net/netns-inodes"
if "$SL/slurm-up" "$sl" "$net" >"$tmp/slurm-up.out" 2>&1; then ok
else bad "slurm-up: $(cat "$tmp/slurm-up.out")"; tail -n 5 "$sl"/*.log; summary; fi
# shellcheck source=/dev/null
. "$sl/env"
export SLURM_CONF
declare -A addr_of
for i in 0 1 2; do addr_of[${SLURM_NODES[$i]}]=${SLURM_HOSTS[$i]}; done

if mpicc.mpich -std=c11 -O2 -o "$tmp/whereami" "$MH/whereami.c" 2>"$tmp/cc.err" &&
	mpicc.openmpi -std=c11 -O2 -o "$tmp/owhere" "$MH/whereami.c" 2>>"$tmp/cc.err"; then ok
else bad "building whereami: $(cat "$tmp/cc.err")"; summary; fi
# shellcheck source=/dev/null
. "$net/env"   # SUBNET

# Machines on n1 and n3 only; n2 is in the allocation, not in the plan.
yaml=$tmp/slurm.yaml
cat >"$yaml" <<YAML
# Generated by tests/e2e/slurm_test.sh: two Slurm nodes of the three.
name: slurm
machines:
  - {name: fast, host: n1, cycle_time: 1}
  - {name: slow, host: n3, cycle_time: 2}
layout: 1d
B: 3
kernel: lu
n: 240
nb: 16
timeout: $((JOB_TIMEOUT - 20))
YAML
sed -e 's/^kernel: lu$/kernel: exec/' "$yaml" >"$tmp/where.yaml"
printf 'program: %s\n' "$tmp/whereami" >>"$tmp/where.yaml"
sed -e 's/^kernel: lu$/kernel: exec/' "$yaml" >"$tmp/sleep.yaml"
printf 'program: /bin/sleep\nargs: ["60"]\n' >>"$tmp/sleep.yaml"

# Hydra under Slurm (what README.md says hetlaunch does not use): Hydra's
# own Slurm launcher with the plan's host file.  Its proxies call mpiexec
# back at the address of n1, where the batch script runs.
cp "$tmp/where.yaml" "$tmp/hydra.yaml"
printf 'mpiexec: [mpiexec.hydra, -launcher, slurm, -localhost, "%s"]\n' "${addr_of[n1]}" >>"$tmp/hydra.yaml"

# Open MPI: mpirun in the allocation (its daemons started by srun) with the
# plan's rankfile; TCP on the bridge's subnet (tests/e2e/multihost_test.sh).
sed -e '/^program:/d' "$tmp/where.yaml" >"$tmp/ompi.yaml"
{
	printf 'program: %s\n' "$tmp/owhere"
	echo "mpi: openmpi"
	printf 'mpiexec: [mpirun, --mca, oob_tcp_if_include, "%s", --mca, btl_tcp_if_include, "%s",\n' \
		"$SUBNET.0/24" "$SUBNET.0/24"
	echo '          --mca, btl, "tcp,self", --mca, pml, ob1]'
} >>"$tmp/ompi.yaml"

# batch NAME YAML: a batch script that runs hetlaunch on YAML into
# $tmp/NAME/ and writes its exit status to $tmp/NAME.rc.  UCX over the
# namespaces' eth0 (tests/e2e/multihost/README.md says why).
batch() {
	cat >"$tmp/$1.sh" <<SH
#!/usr/bin/env bash
export UCX_TLS=tcp,self UCX_NET_DEVICES=eth0
# scancel sends TERM to the batch shell too: note it, wait for hetlaunch.
trap 'echo "batch: SIGTERM" >&2' TERM
"$HETLAUNCH" run "$2" --out "$tmp/$1" >"$tmp/$1.out" 2>"$tmp/$1.err"
echo \$? >"$tmp/$1.rc"
SH
	chmod 755 "$tmp/$1.sh"
}
# submit NAME: sbatch on all three nodes; sets job.
submit() {
	job=$(sbatch --parsable -N 3 -w "$(IFS=,; echo "${SLURM_NODES[*]}")" -o "$tmp/$1.slurm-out" \
		"$tmp/$1.sh" 2>"$tmp/$1.sbatch-err")
	[ -n "$job" ] || bad "sbatch $1: $(cat "$tmp/$1.sbatch-err")"
}
# finished NAME: wait (JOB_TIMEOUT at most) for the batch script's exit status.
finished() {
	local i
	for i in $(seq 1 $((JOB_TIMEOUT * 5))); do
		[ -s "$tmp/$1.rc" ] && return 0
		sleep 0.2
	done
	bad "$1: no exit status after $JOB_TIMEOUT s (job $job: $(squeue -h -j "$job" -o %T 2>&1))"
	scancel "$job" 2>/dev/null
	return 1
}
json() {  # FILE EXPR(d)
	python3 -c "import json,sys; d = json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}

# --- a, b. LU (hl-driver) through srun ----------------------------------------------------------
batch lu "$yaml"
batch where "$tmp/where.yaml"
submit lu
submit where
finished lu
finished where
d=$tmp/lu
if [ "$(cat "$tmp/lu.rc" 2>/dev/null)" = 0 ]; then ok
else bad "hetlaunch run in the allocation: exit $(cat "$tmp/lu.rc" 2>/dev/null): $(tail -n 8 "$tmp/lu.err")"; fi
if grep -q ' SLURM_HOSTFILE=[^ ]*/hosts.slurm srun --mpi=pmi2 --distribution=arbitrary .*--ntasks=3 ' "$d/command.txt" 2>/dev/null; then ok
else bad "command.txt is not the srun command: $(cat "$d/command.txt" 2>/dev/null)"; fi
"$HETLAUNCH" hostfile "$yaml" --format slurm >"$tmp/hosts.want" 2>/dev/null
if [ -s "$tmp/hosts.want" ] && cmp -s "$tmp/hosts.want" "$d/hosts.slurm"; then ok
else bad "hosts.slurm differs from hetlaunch hostfile --format slurm: $(diff "$tmp/hosts.want" "$d/hosts.slurm" 2>&1 | head -5)"; fi
if [ "$(json "$d/report.json" 'd["passed"], d["placement"]')" = "True verified" ]; then ok
else bad "report.json: passed, placement = $(json "$d/report.json" 'd["passed"], d["placement"]')"; fi
if grep -q '^  placement: verified (3 ranks)' "$tmp/lu.err"; then ok
else bad "hetlaunch did not print 'placement: verified': $(grep placement "$tmp/lu.err")"; fi
# Each rank's Slurm node, as the rank saw it (SLURMD_NODENAME), is the plan's.
got=$(json "$d/report.json" '" ".join(r["node"] for r in d["placement_ranks"])')
want=$(tr '\n' ' ' <"$tmp/hosts.want" | sed 's/ $//')
if [ -n "$got" ] && [ "$got" = "$want" ]; then ok; else bad "ranks on nodes '$got', the plan says '$want'"; fi

# --- c. where every rank ran, by its own address -------------------------------------------------
if [ "$(cat "$tmp/where.rc" 2>/dev/null)" = 0 ]; then ok
else bad "whereami in the allocation: exit $(cat "$tmp/where.rc" 2>/dev/null): $(tail -n 8 "$tmp/where.err")"; fi
mapfile -t plan_hosts <"$tmp/hosts.want"
for r in "${!plan_hosts[@]}"; do
	got=$(sed -n "s/^rank $r of ${#plan_hosts[@]}: //p" "$tmp/where/log.txt" 2>/dev/null)
	want=${addr_of[${plan_hosts[$r]}]}
	if [ "$got" = "$want" ]; then ok
	else bad "rank $r ran at '${got:-?}', the plan says ${plan_hosts[$r]} ($want)"; fi
done
if grep -q "^rank [0-9]* of [0-9]*: ${addr_of[n2]}\$" "$tmp/where/log.txt" 2>/dev/null; then
	bad "n2 is not in the plan but ran a rank: $(grep "${addr_of[n2]}" "$tmp/where/log.txt")"
else ok; fi
if [ "$(json "$tmp/where/report.json" 'd["placement"]')" = verified ]; then ok
else bad "whereami: placement $(json "$tmp/where/report.json" 'd["placement"]')"; fi

# Hydra's -launcher slurm places the ranks by the allocation's node list,
# not by the host file (measured here; the reason hetlaunch uses srun).
# Under mpiexec no rank can name its Slurm node (SLURMD_NODENAME is
# mpiexec's), and n1..n3 resolve nowhere: hetlaunch cannot tell where the
# ranks are, and must not say "verified".
batch hydra "$tmp/hydra.yaml"
submit hydra
if finished hydra; then
	misplaced=0
	for r in "${!plan_hosts[@]}"; do
		got=$(sed -n "s/^rank $r of ${#plan_hosts[@]}: //p" "$tmp/hydra/log.txt" 2>/dev/null)
		[ "$got" = "${addr_of[${plan_hosts[$r]}]}" ] || misplaced=$((misplaced + 1))
	done
	if [ $misplaced -gt 0 ]; then ok
	else bad "Hydra -launcher slurm placed every rank as planned: README.md's reason for srun is stale"; fi
	st=$(json "$tmp/hydra/report.json" 'd["placement"]')
	if [ -n "$st" ] && [ "$st" != verified ]; then ok
	else bad "Hydra misplaced $misplaced ranks, hetlaunch says placement '${st:-?}'"; fi
fi

# Open MPI in the allocation: every rank on its plan's node, by its address
# and by hetlaunch's own check.
batch ompi "$tmp/ompi.yaml"
submit ompi
if finished ompi; then
	if [ "$(cat "$tmp/ompi.rc")" = 0 ]; then ok
	else bad "Open MPI in the allocation: exit $(cat "$tmp/ompi.rc"): $(tail -n 6 "$tmp/ompi.err")"; fi
	for r in "${!plan_hosts[@]}"; do
		got=$(sed -n "s/^rank $r of ${#plan_hosts[@]}: //p" "$tmp/ompi/log.txt" 2>/dev/null)
		want=${addr_of[${plan_hosts[$r]}]}
		if [ "$got" = "$want" ]; then ok
		else bad "Open MPI: rank $r ran at '${got:-?}', the plan says ${plan_hosts[$r]} ($want)"; fi
	done
	if [ "$(json "$tmp/ompi/report.json" 'd["placement"]')" = verified ]; then ok
	else bad "Open MPI in the allocation: placement $(json "$tmp/ompi/report.json" 'd["placement"]')"; fi
fi

# --- d. scancel ends the job: exit 1, and hetlaunch says why ------------------------------------
batch sleep "$tmp/sleep.yaml"
submit sleep
running=''
for _ in $(seq 1 $((JOB_TIMEOUT * 5))); do
	# The step has started (job.0) and hetlaunch has written its command.
	if squeue -h -s -j "$job" -o %i 2>/dev/null | grep -q "^$job\.0\$"; then running=1; break; fi
	sleep 0.2
done
if [ -n "$running" ]; then ok; else bad "the sleep job's step never started"; fi
scancel "$job"
if finished sleep; then
	if [ "$(cat "$tmp/sleep.rc")" = 1 ]; then ok; else bad "after scancel hetlaunch exited $(cat "$tmp/sleep.rc"), want 1"; fi
	if grep -q "^hetlaunch: the Slurm job $job was cancelled" "$tmp/sleep.err"; then ok
	else bad "no clear message after scancel: $(tail -n 6 "$tmp/sleep.err")"; fi
fi

# --- f. node types: the allocation's nodes by feature, sbatch --submit ---------------------------
# A list of types only (n1 is gen1, n2 and n3 gen3: slurm-up): `hetlaunch
# sbatch` asks for them by constraint counts and submits; in the job
# hetlaunch reads the nodes from Slurm, plans on them, and every rank runs
# on the node its type got.  Equal speeds, B = 3: one rank per node.
cat >"$tmp/types.yaml" <<YAML
name: types
machines:
  - {name: old, slurm: {feature: gen1}, cycle_time: 1}
  - {name: new, slurm: {feature: gen3}, cycle_time: 1}
layout: 1d
B: 3
kernel: exec
program: $tmp/whereami
n: 240
nb: 16
timeout: $((JOB_TIMEOUT - 20))
YAML
"$HETLAUNCH" sbatch "$tmp/types.yaml" --nodes gen1=1,gen3=2 -o "$tmp/types.sh" 2>"$tmp/types.sbatch-err"
if grep -qx '#SBATCH --constraint=\[gen1\*1&gen3\*2\]' "$tmp/types.sh" && grep -qx '#SBATCH --nodes=3' "$tmp/types.sh"; then ok
else bad "sbatch script: $(cat "$tmp/types.sh" "$tmp/types.sbatch-err")"; fi
mkdir -p "$tmp/sub"
job=$(cd "$tmp/sub" && UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 "$HETLAUNCH" sbatch "$tmp/types.yaml" --nodes gen1=1,gen3=2 --submit 2>"$tmp/submit.err")
if [[ $job =~ ^[0-9]+$ ]]; then ok; else bad "sbatch --submit printed '$job': $(cat "$tmp/submit.err")"; fi
for _ in $(seq 1 $((JOB_TIMEOUT * 5))); do
	[ -z "$(squeue -h -j "$job" -o %T 2>/dev/null)" ] && break
	sleep 0.2
done
d=$(ls -d "$tmp"/sub/runs/types-* 2>/dev/null | head -1)
if [ -n "$d" ] && [ "$(json "$d/report.json" 'd["passed"], d["placement"]')" = "True verified" ]; then ok
else bad "types job $job: $(tail -n 8 "$tmp/sub/types-$job.out" 2>&1)"; fi
if [ "$(sort "$d/hosts.slurm" 2>/dev/null | tr '\n' ' ')" = "n1 n2 n3 " ]; then ok
else bad "types: the plan's hosts are '$(tr '\n' ' ' <"$d/hosts.slurm" 2>/dev/null)', want n1 n2 n3"; fi
got=$(json "$d/report.json" '" ".join(r["node"] for r in d["placement_ranks"])')
want=$(tr '\n' ' ' <"$d/hosts.slurm" 2>/dev/null | sed 's/ $//')
if [ -n "$got" ] && [ "$got" = "$want" ]; then ok; else bad "types: ranks on '$got', the plan says '$want'"; fi
# old (gen1) got n1, new (gen3) n2 and n3: rank k's machine and node agree.
pairs=$(python3 -c 'import json, sys
plan = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2]))
machine = {r["rank"]: r["machine"].split(".")[0] for r in plan["ranks"]}
print(" ".join(sorted({machine[r["rank"]] + ":" + r["node"] for r in rep["placement_ranks"]})))' \
	"$d/plan.json" "$d/report.json" 2>&1)
if [ "$pairs" = "new:n2 new:n3 old:n1" ]; then ok; else bad "types: machine:node pairs '$pairs'"; fi

# --- g. in an allocation: the types as planned, and the refusals ------------------------------
# plan prints which nodes became which type; a node no type matches, or a
# type no node matches, is refused (exit 2) with nothing started.
sed -e 's/slurm: {feature: gen1}/slurm: {partition: old}/' -e 's/slurm: {feature: gen3}/slurm: {partition: new}/' \
	"$tmp/types.yaml" >"$tmp/part.yaml"
cat >"$tmp/gplan.sh" <<SH
#!/usr/bin/env bash
"$HETLAUNCH" plan "$tmp/part.yaml" >"$tmp/gpart.out" 2>&1
"$HETLAUNCH" plan "$tmp/types.yaml" >"$tmp/gplan.out" 2>&1
echo \$? >"$tmp/gplan.rc"
SH
chmod 755 "$tmp/gplan.sh"
sed -e '/name: old/d' "$tmp/types.yaml" >"$tmp/gen3only.yaml"
sed -e 's/^machines:$/machines:\n  - {name: gpu, slurm: {feature: gen9}, cycle_time: 1}/' "$tmp/types.yaml" >"$tmp/gen9.yaml"
batch gen3only "$tmp/gen3only.yaml"
batch gen9 "$tmp/gen9.yaml"
submit gen3only
submit gen9
job=$(sbatch --parsable -N 3 -o "$tmp/gplan.slurm-out" "$tmp/gplan.sh" 2>&1)
finished gen3only
finished gen9
finished gplan
if [ "$(cat "$tmp/gplan.rc" 2>/dev/null)" = 0 ] && grep -qx '  old  feature gen1: 1 node n1' "$tmp/gplan.out" &&
	grep -qx '  new  feature gen3: 2 nodes n\[2-3\]' "$tmp/gplan.out"; then ok
else bad "plan in the allocation: $(tail -n 5 "$tmp/gplan.out" 2>&1)"; fi
# by partition: n1 is in old (and test), n2 and n3 in new (and test)
if grep -qx '  old  partition old: 1 node n1' "$tmp/gpart.out" &&
	grep -qx '  new  partition new: 2 nodes n\[2-3\]' "$tmp/gpart.out"; then ok
else bad "plan by partition in the allocation: $(tail -n 5 "$tmp/gpart.out" 2>&1)"; fi
if [ "$(cat "$tmp/gen3only.rc" 2>/dev/null)" = 2 ] && [ ! -e "$tmp/gen3only" ] &&
	grep -q "gen3only.yaml:3:3: machines: node n1 of Slurm job [0-9]* (features: gen1; partitions: test,old; het_group: -1) matches no slurm: type" "$tmp/gen3only.err"; then ok
else bad "unmatched node: exit $(cat "$tmp/gen3only.rc" 2>/dev/null): $(cat "$tmp/gen3only.err")"; fi
if [ "$(cat "$tmp/gen9.rc" 2>/dev/null)" = 2 ] && [ ! -e "$tmp/gen9" ] &&
	grep -q "gen9.yaml:3:24: machines: gpu (slurm: feature gen9) got no node of Slurm job [0-9]*'s 3" "$tmp/gen9.err"; then ok
else bad "type with no node: exit $(cat "$tmp/gen9.rc" 2>/dev/null): $(cat "$tmp/gen9.err")"; fi

# --- h. a heterogeneous job: het_group types planned, run refused -----------------------------
# Components old (n1) and new (n2, n3): plan sees each node's group; run
# refuses, with the reason measured here (slurm.h), before starting anything.
sed -e 's/slurm: {feature: gen1}/slurm: {het_group: 0}/' -e 's/slurm: {feature: gen3}/slurm: {het_group: 1}/' \
	"$tmp/types.yaml" >"$tmp/het.yaml"
cat >"$tmp/het.sh" <<SH
#!/usr/bin/env bash
"$HETLAUNCH" plan "$tmp/het.yaml" >"$tmp/hetplan.out" 2>&1
"$HETLAUNCH" run "$tmp/het.yaml" --out "$tmp/het" >"$tmp/het.out" 2>"$tmp/het.err"
echo \$? >"$tmp/het.rc"
SH
chmod 755 "$tmp/het.sh"
job=$(sbatch --parsable -o "$tmp/het.slurm-out" -p old -N1 : -p new -N2 "$tmp/het.sh" 2>&1)
if [[ $job =~ ^[0-9]+$ ]]; then ok; else bad "het job not submitted: $job"; fi
if finished het; then
	if grep -qx '  old  het_group 0: 1 node n1' "$tmp/hetplan.out" &&
		grep -qx '  new  het_group 1: 2 nodes n\[2-3\]' "$tmp/hetplan.out"; then ok
	else bad "plan in the het job: $(tail -n 4 "$tmp/hetplan.out")"; fi
	if [ "$(cat "$tmp/het.rc")" = 2 ] && [ ! -e "$tmp/het" ] &&
		grep -q "a heterogeneous Slurm job (SLURM_HET_SIZE=2): srun cannot place" "$tmp/het.err"; then ok
	else bad "run in the het job: exit $(cat "$tmp/het.rc"): $(cat "$tmp/het.err")"; fi
fi

# --- e. tear-down leaves nothing -----------------------------------------------------------------
if "$SL/slurm-down" "$sl" >"$tmp/sdown.out" 2>&1; then ok; else bad "slurm-down: $(cat "$tmp/sdown.out")"; fi
if "$MH/netns-down" "$net" >"$tmp/down.out" 2>&1; then ok; else bad "netns-down: $(cat "$tmp/down.out")"; fi
left=$(pgrep -f -- "-f $sl/slurm.conf|--socket=$sl/munge.socket" || true)
if [ -z "$left" ]; then ok; else bad "daemons left: $(ps -o pid=,args= -p "$left")"; fi
our_procs
if [ ${#ours[@]} -eq 0 ]; then ok
else bad "processes left: $(ps -o pid=,args= -p "$(IFS=,; echo "${ours[*]}")")"; fi
summary
