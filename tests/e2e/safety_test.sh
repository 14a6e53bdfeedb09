#!/usr/bin/env bash
# safety_test.sh -- what hetlaunch leaves behind and what it starts:
#   * hetlaunch ended by SIGKILL, SIGQUIT or SIGUSR1 in the middle of a job:
#     no rank, proxy or mpiexec survives it, and the /dev/shm segment a
#     SIGKILL leaves is swept by the next run;
#   * --dry-run starts nothing (not even `mpiexec -help`);
#   * a symbolic link planted at log.txt in a reused run directory is not
#     followed; a reused directory is said so, and a dry run there leaves
#     no stale report.json;
#   * a file name with a newline cannot make command.txt run a command;
#   * runs started at once get run directories of their own;
#   * host: "host:port" is refused by run as by hostfile, and a problem too
#     large for the stock tester at n's line and column;
#   * -o writes a device or a FIFO in place and refuses a link to a file;
#   * an emulation faster than this computer is refused before anything is
#     written (run, --dry-run, compare); two runs into one --out: the second
#     is refused; a taken /dev/shm name is passed over, and the name is gone
#     once the ranks attached.
# Real MPICH (mpiexec.hydra) and the preload.  Run from the repository root;
# HETLAUNCH names the binary.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
HETLAUNCH=$(realpath "$HETLAUNCH")
. "$(dirname "$0")/../lib.sh"
make_tmp /tmp/hetlaunch-safety-test.XXXXXX

# Our processes: working directory under $tmp (the run directories).
ours() {
	local p cwd
	for p in /proc/[0-9]*; do
		cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
		case $cwd in "$tmp"/*) echo "${p#/proc/} $(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" ;; esac
	done
}

sleep_yaml() {  # NAME SECONDS
	cat >"$tmp/$1.yaml" <<YAML
name: $1
machines: [{name: a, cycle_time: 1}, {name: b, cycle_time: 2}]
B: 3
kernel: exec
program: /bin/sleep
args: ["$2"]
timeout: 120
emulate: true
YAML
}

# --- hetlaunch dies in the middle of a job ------------------------------------
for sig in KILL QUIT USR1; do
	sleep_yaml "sig$sig" 60
	"$HETLAUNCH" run "$tmp/sig$sig.yaml" --quiet --out "$tmp/run-sig$sig" >/dev/null 2>"$tmp/err-sig$sig" &
	pid=$!
	# wait until the ranks (sleep 60) run
	for i in $(seq 100); do
		[ "$(ours | grep -c '/bin/sleep 60')" -ge 3 ] && break
		sleep 0.1
	done
	sleep 4   # past start-up, when mpiexec still writes (a dead reader would end it)
	ranks=$(ours | grep -c '/bin/sleep 60')
	seg=$(ls /dev/shm | grep "^hetlaunch-$pid-" | head -1)
	kill -$sig $pid
	wait $pid 2>/dev/null
	for i in $(seq 50); do   # mpiexec's SIGTERM handling: a few seconds at most
		[ -z "$(ours)" ] && break
		sleep 0.2
	done
	left=$(ours)
	if [ "$ranks" -ge 3 ] && [ -z "$left" ]; then
		ok "SIG$sig of hetlaunch: its $ranks ranks, proxy and mpiexec are gone"
	else
		bad "SIG$sig of hetlaunch ($ranks ranks seen): left:"; echo "$left"; cat "$tmp/err-sig$sig"
	fi
	if [ $sig = KILL ]; then
		killed_seg=$seg
	else
		check "SIG$sig: the segment ${seg:-?} is removed" test -n "$seg" -a ! -e "/dev/shm/$seg"
	fi
done
# The SIGKILLed hetlaunch could not remove its segment: the next run does.
sleep_yaml short 0.1
"$HETLAUNCH" run "$tmp/short.yaml" --quiet --out "$tmp/run-short" >/dev/null 2>&1
check "after SIGKILL: the next run swept the stale segment ${killed_seg:-?}" \
	test -n "$killed_seg" -a ! -e "/dev/shm/$killed_seg"

# hetlaunch stopped (SIGSTOP) past timeout: while its job ended: not a timeout.
cat >"$tmp/stop.yaml" <<YAML
name: stop
machines: [{name: a, host: localhost, cycle_time: 1}]
kernel: exec
program: /bin/sleep
args: ["1"]
timeout: 3
emulate: false
YAML
"$HETLAUNCH" run "$tmp/stop.yaml" --quiet --out "$tmp/run-stop" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 0.3
kill -STOP $pid
sleep 10
kill -CONT $pid
wait $pid
rc=$?
check "stopped past timeout: while the job ended: exit 0, not timed out" \
	test $rc -eq 0 -a "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["job"]["timed_out"])' "$tmp/run-stop/report.json" 2>/dev/null)" = False

# --- a dry run starts nothing -------------------------------------------------
cat >"$tmp/mark-mpiexec" <<SH
#!/bin/sh
touch "$tmp/mpiexec-ran"
echo "  -rankmap  rank to node mapping"
SH
chmod +x "$tmp/mark-mpiexec"
cat >"$tmp/dry.yaml" <<YAML
machines:
  - {name: fast, host: node1.example, cycle_time: 1}
  - {name: slow, host: node2.example, cycle_time: 2}
mpiexec: $tmp/mark-mpiexec
YAML
"$HETLAUNCH" run "$tmp/dry.yaml" --dry-run --out "$tmp/run-dry" >/dev/null 2>&1
rc=$?
check "--dry-run: exit 0 and the configured mpiexec never ran" test $rc -eq 0 -a ! -e "$tmp/mpiexec-ran"

# Ctrl-C while Hydra is asked for -rankmap: no segment is left (it is made
# after the question), and the question (a slow `mpiexec -help`) goes too.
cat >"$tmp/slow-mpiexec" <<SH
#!/bin/sh
[ "\$1" = -help ] && exec sleep 30
exit 0
SH
chmod +x "$tmp/slow-mpiexec"
cat >"$tmp/probe.yaml" <<YAML
machines: [{name: a, host: localhost, cycle_time: 1}]
mpiexec: $tmp/slow-mpiexec
YAML
mkdir -p "$tmp/pcwd"   # its working directory: ours() sees what it started
(cd "$tmp/pcwd" && exec "$HETLAUNCH" run ../probe.yaml --quiet --out "$tmp/run-probe" >/dev/null 2>&1) &
pid=$!
sleep 2
kill -INT $pid
wait $pid 2>/dev/null
sleep 0.5
check "Ctrl-C during the -rankmap question: no segment left" \
	test -z "$(ls /dev/shm | grep "^hetlaunch-$pid-")"
check "Ctrl-C during the -rankmap question: no slow mpiexec -help left" \
	test -z "$(ours)"

# --- run directories ------------------------------------------------------------
echo secret >"$tmp/victim"
mkdir -p "$tmp/run-link"
ln -s "$tmp/victim" "$tmp/run-link/log.txt"
sleep_yaml link 0
"$HETLAUNCH" run "$tmp/link.yaml" --quiet --out "$tmp/run-link" >/dev/null 2>"$tmp/err"
check "a link planted at log.txt is not followed" test "$(cat "$tmp/victim")" = secret
check "log.txt is a file of its own now" test -f "$tmp/run-link/log.txt" -a ! -L "$tmp/run-link/log.txt"
check "a reused run directory is said so" grep -q "reusing the run directory" "$tmp/err"
"$HETLAUNCH" run "$tmp/link.yaml" --dry-run --out "$tmp/run-link" >/dev/null 2>&1
check "a dry run in a reused directory leaves no stale report.json or log.txt" \
	test ! -e "$tmp/run-link/report.json" -a ! -e "$tmp/run-link/log.txt"

# A file name with a newline and a command in it (the default run name), and
# an --out directory named so: `sh command.txt` runs the (fake) mpiexec only.
mkdir -p "$tmp/inj" "$tmp/fakebin"
printf '#!/bin/sh\nexit 0\n' >"$tmp/fakebin/mpiexec.hydra"
chmod +x "$tmp/fakebin/mpiexec.hydra"
name=$'x\ntouch INJECTED\n.yaml'
cp "$tmp/dry.yaml" "$tmp/inj/$name"
sed -i '/^mpiexec/d' "$tmp/inj/$name"
(cd "$tmp/inj" && "$HETLAUNCH" run "$name" --dry-run >/dev/null 2>&1)
(cd "$tmp/inj" && "$HETLAUNCH" run "$name" --dry-run --out $'o\ntouch INJECTED2\n' >/dev/null 2>&1)
cmds=("$tmp"/inj/runs/*/command.txt "$tmp"/inj/o*/command.txt)
if [ ${#cmds[@]} -eq 2 ] && [ -f "${cmds[0]}" ] && [ -f "${cmds[1]}" ]; then
	for cmd in "${cmds[@]}"; do
		(cd "$tmp/inj" && PATH=$tmp/fakebin:/usr/bin:/bin /bin/sh "$cmd" >/dev/null 2>&1)
	done
	check "command.txt of a file or directory named with a newline runs no injected command" \
		test -z "$(find "$tmp/inj" -name 'INJECTED*')"
	check "the default run directory's name has no newline" test "$(ls "$tmp/inj/runs" | wc -l)" -eq 1
else
	bad "no command.txt for the file or directory named with a newline"
fi

# Runs started in the same second: each its own directory.
mkdir -p "$tmp/same"
cp "$tmp/dry.yaml" "$tmp/same/same.yaml"
sed -i '/^mpiexec/d' "$tmp/same/same.yaml"
(cd "$tmp/same" && for i in 1 2 3 4 5 6; do "$HETLAUNCH" run same.yaml --dry-run >/dev/null 2>&1 & done; wait)
check "6 dry runs at once: 6 run directories" test "$(ls "$tmp/same/runs" | wc -l)" -eq 6

# host:port is refused by hostfile, and so by run (before anything is written).
cat >"$tmp/port.yaml" <<'YAML'
machines:
  - {name: a, host: "localhost:100", cycle_time: 1}
YAML
"$HETLAUNCH" run "$tmp/port.yaml" --dry-run --out "$tmp/run-port" >/dev/null 2>"$tmp/err"
rc=$?
check "run with host: \"localhost:100\": exit 2, nothing written" test $rc -eq 2 -a ! -e "$tmp/run-port"

# A problem too large for the stock tester's array: exit 2 at n's line.
printf 'machines:\n  - {name: a, cycle_time: 1}\n  - {name: b, cycle_time: 2}\ntester: stock\nn: 100000\n' \
	>"$tmp/mem.yaml"
"$HETLAUNCH" run "$tmp/mem.yaml" --dry-run --out "$tmp/run-mem" >/dev/null 2>"$tmp/err"
rc=$?
check "n too large for the stock tester: exit 2 at n's line and column, nothing written" \
	test $rc -eq 2 -a ! -e "$tmp/run-mem" -a -n "$(grep -F "$tmp/mem.yaml:5:4: n = 100000" "$tmp/err")"

# A job that prints nothing, with its output echoed (no --quiet): exit 0,
# the wall time reported (VARIANT=san once found memchr on the empty log).
printf '#!/bin/sh\nexit 0\n' >"$tmp/silent-mpiexec"
chmod +x "$tmp/silent-mpiexec"
printf 'machines:\n  - {name: a, host: localhost, cycle_time: 1}\nkernel: exec\nprogram: /bin/true\nmpiexec: %s\n' \
	"$tmp/silent-mpiexec" >"$tmp/silent.yaml"
"$HETLAUNCH" run "$tmp/silent.yaml" --out "$tmp/run-silent" >/dev/null 2>"$tmp/err"
rc=$?
check "a job that prints nothing, echoed: exit 0, its wall time reported" \
	test $rc -eq 0 -a -n "$(grep -F "the job's wall time" "$tmp/err")"

# --- -o names the user's output: a device is written, a link is not replaced --
printf 'machines:\n  - {name: a, cycle_time: 1}\n  - {name: b, cycle_time: 2}\n' >"$tmp/o.yaml"
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	"$HETLAUNCH" hostfile "$tmp/o.yaml" -o "$tmp/null" 2>"$tmp/err"
	rc=$?
	check "hostfile -o a device node (/dev/null's): exit 0, still the device" test $rc -eq 0 -a -c "$tmp/null"
else
	echo "SKIP: mknod not permitted here: hostfile -o a device node"
fi
echo keep >"$tmp/o-victim"
ln -s "$tmp/o-victim" "$tmp/o-link"
"$HETLAUNCH" hostfile "$tmp/o.yaml" -o "$tmp/o-link" 2>"$tmp/err"
rc=$?
check "hostfile -o a link to a file: exit 2, the link and its file untouched" \
	test $rc -eq 2 -a -L "$tmp/o-link" -a "$(cat "$tmp/o-victim")" = keep
mkfifo "$tmp/o-fifo"
ln -s "$tmp/o-fifo" "$tmp/o-fifo-link"
timeout 10 cat "$tmp/o-fifo" >"$tmp/o-read" &
timeout 10 "$HETLAUNCH" hostfile "$tmp/o.yaml" -o "$tmp/o-fifo-link" 2>"$tmp/err"
rc=$?
wait
check "hostfile -o a link to a FIFO (/dev/stdout on a pipe): written through, the link kept" \
	test $rc -eq 0 -a -L "$tmp/o-fifo-link" -a -p "$tmp/o-fifo" -a "$(wc -l <"$tmp/o-read")" -eq 2

# --- refusals before anything is written ----------------------------------------
# A speed faster than this computer: exit 2 in a run, a dry run and compare,
# and a reused --out keeps the earlier run's files.
sleep_yaml toofast 0
printf 'emulate: {mflops: 1000000}\n' >>"$tmp/toofast.yaml"
sed -i '/^emulate: true$/d' "$tmp/toofast.yaml"
mkdir -p "$tmp/run-toofast"
for f in report.json log.txt command.txt; do echo earlier >"$tmp/run-toofast/$f"; done
"$HETLAUNCH" run "$tmp/toofast.yaml" --quiet --out "$tmp/run-toofast" >/dev/null 2>"$tmp/err"
rc=$?
check "emulate faster than this computer: exit 2, the reused directory as it was" \
	test $rc -eq 2 -a "$(cat "$tmp/run-toofast/report.json" "$tmp/run-toofast/log.txt")" = $'earlier\nearlier' \
	-a ! -e "$tmp/run-toofast/plan.json"
for cmd in "run --dry-run" compare; do
	"$HETLAUNCH" $cmd "$tmp/toofast.yaml" --quiet --out "$tmp/run-toofast2" >/dev/null 2>"$tmp/err"
	rc=$?
	check "emulate faster than this computer: $cmd: exit 2, said, nothing written" \
		test $rc -eq 2 -a ! -e "$tmp/run-toofast2" -a -n "$(grep 'cannot emulate it' "$tmp/err")"
done

# Two runs into one --out at once: the second is refused, naming the first.
sleep_yaml held 3
"$HETLAUNCH" run "$tmp/held.yaml" --quiet --out "$tmp/run-held" >/dev/null 2>&1 &
pid=$!
for i in $(seq 100); do [ -e "$tmp/run-held/command.txt" ] && break; sleep 0.1; done
sleep_yaml second 0
"$HETLAUNCH" run "$tmp/second.yaml" --quiet --out "$tmp/run-held" >/dev/null 2>"$tmp/err"
rc=$?
wait $pid
rc1=$?
check "two runs into one --out: the second exits 2 naming the first's PID; the first's files stay its own" \
	test $rc -eq 2 -a $rc1 -eq 0 -a -n "$(grep -F "$tmp/run-held: another hetlaunch (PID $pid)" "$tmp/err")" \
	-a -n "$(grep -F held.yaml "$tmp/run-held/plan.json")"

# A /dev/shm name taken before the run (by another user, or our own leftover
# once the PID comes round again): the run takes another one.
sleep_yaml taken 0.1
sh -c 'touch "/dev/shm/hetlaunch-$$-0"; chown nobody "/dev/shm/hetlaunch-$$-0" 2>/dev/null
       echo $$ >"$1"; exec "$2" run "$3" --quiet --out "$4"' sh "$tmp/taken.pid" "$HETLAUNCH" \
	"$tmp/taken.yaml" "$tmp/run-taken" >/dev/null 2>"$tmp/err"
rc=$?
tpid=$(cat "$tmp/taken.pid")
check "a taken /dev/shm name: the run takes another (exit 0) and leaves that one alone" \
	test $rc -eq 0 -a -e "/dev/shm/hetlaunch-$tpid-0"
rm -f "/dev/shm/hetlaunch-$tpid-0"

# Once every rank attached, the name is gone: a SIGKILL leaves nothing.
cat >"$tmp/attach.yaml" <<YAML
name: attach
machines: [{name: a, cycle_time: 1}, {name: b, cycle_time: 2}]
B: 2
kernel: exec
program: $(dirname "$HETLAUNCH")/../lib/hetlaunch/hl-probe
args: ["300", "100000"]
timeout: 120
emulate: true
YAML
"$HETLAUNCH" run "$tmp/attach.yaml" --quiet --out "$tmp/run-attach" >/dev/null 2>&1 &
pid=$!
sleep 4
kill -KILL $pid
wait $pid 2>/dev/null
check "SIGKILL once the ranks attached: no /dev/shm name of it left, before any sweep" \
	test -z "$(ls /dev/shm | grep "^hetlaunch-$pid-")"
for i in $(seq 50); do [ -z "$(ours)" ] && break; sleep 0.2; done
# --- the job's end, whatever its launcher does with its output -----------------
# fake_mpiexec NAME BODY: $tmp/NAME, an mpiexec: that answers -help at once
# (the -rankmap question) and otherwise runs BODY (sh); exec_yaml NAME
# MPIEXEC [LINES...]: $tmp/NAME.yaml, /bin/true on one local machine.
fake_mpiexec() {
	printf '#!/bin/sh\n[ "$1" = -help ] && exit 0\n%s\n' "$2" >"$tmp/$1"
	chmod +x "$tmp/$1"
}
exec_yaml() {
	local name=$1 mpiexec=$2; shift 2
	{
		echo "name: $name"
		echo "machines: [{name: a, host: localhost, cycle_time: 1}, {name: b, host: localhost, cycle_time: 2}]"
		echo "kernel: exec"
		echo "program: /bin/true"
		echo "mpiexec: $tmp/$mpiexec"
		echo "emulate: false"
		for x in "$@"; do echo "$x"; done
	} >"$tmp/$name.yaml"
}
# A launcher that sends its output elsewhere: the pipe ends at once, the job
# does not; timeout: and the signals still end it.
fake_mpiexec closed 'exec >/dev/null 2>&1; exec sleep 20'
exec_yaml closed closed "timeout: 2"
t0=$(date +%s)
timeout 30 "$HETLAUNCH" run "$tmp/closed.yaml" --quiet --out "$tmp/run-closed" >/dev/null 2>"$tmp/err"
rc=$? t=$(( $(date +%s) - t0 ))
check "launcher closed its output: timeout: 2 ends the job (exit $rc after ${t}s)" \
	test $rc -eq 1 -a $t -lt 10 -a "$(json "$tmp/run-closed/report.json" 'd["job"]["timed_out"]')" = True
exec_yaml closed-term closed "timeout: 120"
for sig in TERM INT; do
	"$HETLAUNCH" run "$tmp/closed-term.yaml" --quiet --out "$tmp/run-closed-$sig" >/dev/null 2>"$tmp/err-$sig" &
	pid=$!
	sleep 1.5
	t0=$(date +%s)
	kill -$sig $pid
	timeout 30 tail --pid=$pid -f /dev/null
	wait $pid
	rc=$? t=$(( $(date +%s) - t0 ))
	check "launcher closed its output: SIG$sig ends the job (exit $rc after ${t}s)" \
		test $rc -eq 1 -a $t -lt 8 -a -n "$(grep 'ending the job' "$tmp/err-$sig")"
done
# A kernel that expects result lines: a launcher that printed none is no pass.
fake_mpiexec silent2 'exit 0'
exec_yaml noresult silent2
sed -i 's/^kernel: exec/kernel: lu/; /^program:/d' "$tmp/noresult.yaml"
"$HETLAUNCH" run "$tmp/noresult.yaml" --quiet --out "$tmp/run-noresult" >/dev/null 2>"$tmp/err"
rc=$?
check "kernel lu, no result line: exit 1, not passed" \
	test $rc -eq 1 -a "$(json "$tmp/run-noresult/report.json" 'd["passed"]')" = False

# nohup: an inherited SIGHUP ignore is kept (the job and hetlaunch go on).
fake_mpiexec slow2 'sleep 2'
exec_yaml nohup slow2
nohup "$HETLAUNCH" run "$tmp/nohup.yaml" --quiet --out "$tmp/run-nohup" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 0.7
kill -HUP $pid
wait $pid
rc=$?
check "nohup hetlaunch run, then SIGHUP: the run goes on, exit 0" \
	test $rc -eq 0 -a -z "$(grep 'hung up' "$tmp/err")"

# One signal during compare's baseline ends compare: no second job.
fake_mpiexec cmpslow 'echo "hetlaunch-rank rank=0 compute=1 wait=0"; sleep 30'
exec_yaml cmpsig cmpslow
"$HETLAUNCH" compare "$tmp/cmpsig.yaml" --quiet --out "$tmp/run-cmpsig" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT $pid
timeout 30 tail --pid=$pid -f /dev/null
wait $pid
rc=$?
check "SIGINT during compare's baseline: exit 1, the second job never started" \
	test $rc -eq 1 -a -z "$(grep '2/2' "$tmp/err")" -a ! -e "$tmp/run-cmpsig/hetero" \
	     -a ! -e "$tmp/run-cmpsig/balance.png"

# compare's gnuplot: a time limit, and SIGTERM ends it with hetlaunch.
fake_mpiexec cmpfast 'echo "hetlaunch-rank rank=0 compute=1 wait=0"'
exec_yaml cmpgnu cmpfast
mkdir -p "$tmp/gnubin"
printf '#!/bin/sh\necho $$ >"%s/gnuplot.pid"\ntrap "" TERM\nexec sleep 60\n' "$tmp" >"$tmp/gnubin/gnuplot"
chmod +x "$tmp/gnubin/gnuplot"
t0=$(date +%s)
PATH=$tmp/gnubin:$PATH timeout 60 "$HETLAUNCH" compare "$tmp/cmpgnu.yaml" --quiet --out "$tmp/run-gnu" \
	>/dev/null 2>"$tmp/err"
rc=$? t=$(( $(date +%s) - t0 ))
gpid=$(cat "$tmp/gnuplot.pid" 2>/dev/null)
check "a gnuplot that hangs is ended at its time limit (after ${t}s), no balance.png" \
	test $t -lt 30 -a -n "$gpid" -a ! -e "$tmp/run-gnu/balance.png" -a \
	     -n "$(grep 'no balance.png' "$tmp/err")"
check "... and it is gone" test -n "$gpid" -a ! -e "/proc/$gpid"
rm -f "$tmp/gnuplot.pid"
PATH=$tmp/gnubin:$PATH "$HETLAUNCH" compare "$tmp/cmpgnu.yaml" --quiet --out "$tmp/run-gnu2" \
	>/dev/null 2>"$tmp/err" &
pid=$!
for i in $(seq 100); do [ -s "$tmp/gnuplot.pid" ] && break; sleep 0.1; done
kill -TERM $pid
wait $pid
sleep 0.3
gpid=$(cat "$tmp/gnuplot.pid" 2>/dev/null)
check "SIGTERM during gnuplot: gnuplot is gone, no temporary PNG left" \
	test -n "$gpid" -a ! -e "/proc/$gpid" -a -z "$(find "$tmp/run-gnu2" -maxdepth 1 -name '.*png')"

# A descendant in a session of its own that ignores SIGTERM: ended with the job.
fake_mpiexec stray "setsid sh -c 'trap \"\" TERM; echo \$\$ >$tmp/stray.pid; exec sleep 60' </dev/null >/dev/null 2>&1 &
sleep 30"
exec_yaml stray stray "timeout: 2"
timeout 60 "$HETLAUNCH" run "$tmp/stray.yaml" --quiet --out "$tmp/run-stray" >/dev/null 2>"$tmp/err"
sleep 0.3
spid=$(cat "$tmp/stray.pid" 2>/dev/null)
check "a setsid'd child that ignores SIGTERM does not outlive the timeout" \
	test -n "$spid" -a ! -e "/proc/$spid"
[ -n "$spid" ] && kill -KILL "$spid" 2>/dev/null

# A huge output: echoed as it comes (no rescanning of a line without a
# newline), a bounded part kept in memory, all of it in log.txt, and a
# result line at its end still read.
fake_mpiexec big 'head -c 67108864 /dev/zero | tr "\0" x; echo
echo "hetlaunch-result n=10 nb=2 P=1 Q=1 time=0.5 passed=1"'
exec_yaml big big
# The time bound is on processor time (hetlaunch's and the fake job's),
# not wall: at load 40 the wall was 71 s; a rescan of the line at each
# read would take far beyond 20 s of processor.
/usr/bin/time -f "%e %M %U %S" -o "$tmp/time-big" timeout 300 "$HETLAUNCH" run "$tmp/big.yaml" \
	--out "$tmp/run-big" >/dev/null 2>"$tmp/err"
rc=$?
read -r wall kb usr sys <"$tmp/time-big"
cpu=$(awk -v u="${usr:-99}" -v s="${sys:-99}" 'BEGIN { printf "%d", u + s }')
check "64 MiB on one line, echoed: exit $rc, ${wall}s of wall, ${usr}+${sys}s of processor (< 20), peak RSS ${kb} KiB (< 48 MiB)" \
	test $rc -eq 0 -a "${kb:-999999}" -lt 49152 -a "$cpu" -lt 20
check "... log.txt has all of it, the result line at its end is read" \
	test "$(stat -c %s "$tmp/run-big/log.txt")" -eq $((67108864 + 1 + 53)) -a \
	     "$(json "$tmp/run-big/report.json" 'd["results"][0]["time"]')" = 0.5

# log.txt on a full disk (a 64 KiB tmpfs in a mount namespace of our own):
# said, and the run fails.
fake_mpiexec fill 'head -c 300000 /dev/zero | tr "\0" "y"; echo'
exec_yaml fill fill
if unshare -r -m true 2>/dev/null; then
	unshare -r -m sh -c 'mkdir -p "$1/full" && mount -t tmpfs -o size=64k none "$1/full" &&
		"$2" run "$1/fill.yaml" --quiet --out "$1/full/run" >/dev/null 2>"$1/err-full"
		echo $? >"$1/rc-full"' sh "$tmp" "$HETLAUNCH"
	check "log.txt on a full disk: said, exit 1" \
		test "$(cat "$tmp/rc-full")" = 1 -a -n "$(grep 'log.txt: No space left on device' "$tmp/err-full")"
else
	echo "skip: log.txt on a full disk (no mount namespace here)"
fi

echo "safety tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
