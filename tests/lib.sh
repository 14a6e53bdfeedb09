# tests/lib.sh -- helpers shared by the end-to-end scripts tests/*_test.sh.
# Sourced, not executed: a script says  . "$(dirname "$0")/lib.sh",  which
# finds it however the script is started (`bash tests/e2e/x_test.sh`, or
# tests/e2e/x_test.sh from the Makefile); multihost_test.sh and slurm_test.sh,
# which cd to the repository root first, say  . "$ROOT/tests/lib.sh".
# It provides:
#   pass, fail          the counters, both 0;
#   ok [WHAT]           one more pass; with WHAT, prints "ok: WHAT";
#   bad WHAT            one more failure; prints "FAIL: WHAT";
#   check WHAT CMD...   ok WHAT if CMD succeeds, bad WHAT if not;
#   json FILE EXPR      prints the Python expression EXPR on the JSON document
#                       d of FILE;
#   make_tmp [TEMPLATE] a scratch directory in $tmp (mktemp -d [TEMPLATE]),
#                       removed on exit;
#   mpi_run NRANKS PROGRAM ARGS...  PROGRAM on NRANKS ranks of mpiexec.hydra
#                       under the runtime preload $PRELOAD, 120 s at most:
#                       output in $tmp/out and $tmp/err, status in $rc;
#   field KEY TEXT      the value of every " KEY=value" in TEXT;
#   patterns_yaml PROGRAM OUTDIR EMULATE  $tmp/patterns.yaml: the exec
#                       program PROGRAM (tests/e2e/mpi/patterns) writing into
#                       OUTDIR, 4 ranks on two machines, emulate: EMULATE;
#   lhpc_yaml NAME LAYOUT KERNEL EXTRA...  $tmp/NAME.yaml: the four lhpc
#                       machines, n 240, nb 16, emulated, then the lines
#                       EXTRA ("B: 6", "tester: stock", "mpi: openmpi", ...).
# Each script keeps its own closing line ("... N passed, M failed": CI reads
# it) and its exit status.  A script whose helper differs defines its own
# after sourcing this file (mw_test.sh's field, predict_test.sh's check,
# openmpi_test.sh's and slurm_test.sh's json).

pass=0
fail=0

ok() {
	pass=$((pass + 1))
	[ $# -eq 0 ] || echo "ok: $*"
}
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

make_tmp() {
	tmp=$(mktemp -d "$@")
	trap 'rm -rf "$tmp"' EXIT
}

mpi_run() {
	local n=$1 prog=$2; shift 2
	LD_PRELOAD=$(realpath "$PRELOAD") timeout 120 mpiexec.hydra -n "$n" "$prog" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# vclock_yaml NAME MACHINES(name:cycle,...) B EMULATE ARGS...: $tmp/NAME.yaml
# running the test program tests/e2e/mpi/virtual_times ($VCLOCK) with ARGS
vclock_yaml() {
	local name=$1 machines=$2 B=$3 emu=$4; shift 4
	{
		echo "name: $name"
		echo "machines:"
		for m in ${machines//,/ }; do echo "  - {name: ${m%%:*}, cycle_time: ${m#*:}}"; done
		echo "B: $B"
		echo "n: 64"
		echo "nb: 16"
		echo "kernel: exec"
		echo "program: $VCLOCK"
		echo "args: [$(IFS=,; echo "$*")]"
		echo "emulate: $emu"
		echo "timeout: 120"
	} >"$tmp/$name.yaml"
}

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

patterns_yaml() {
	cat >"$tmp/patterns.yaml" <<YAML
name: patterns
machines:
  - {name: fast, cycle_time: 1}
  - {name: slow, cycle_time: 2}
B: 4
n: 64
nb: 16
kernel: exec
program: $1
args: [$2]
emulate: $3
timeout: 120
YAML
}

lhpc_yaml() {
	local name=$1 layout=$2 kernel=$3; shift 3
	{
		echo "name: $name"
		echo "machines:"
		echo "  - {name: lhpcb, cycle_time: 100}"
		echo "  - {name: lhpcf, cycle_time: 143}"
		echo "  - {name: lhpci, cycle_time: 353}"
		echo "  - {name: lhpcx, cycle_time: 200}"
		echo "layout: $layout"
		echo "kernel: $kernel"
		echo "n: 240"
		echo "nb: 16"
		echo "emulate: true"
		echo "timeout: 300"
		for x in "$@"; do echo "$x"; done
	} >"$tmp/$name.yaml"
}
