# procs.sh -- sourced by tests/e2e/multihost_test.sh and tests/e2e/slurm_test.sh:
# find and end the processes a namespace test started, and nothing else.
# The caller sets PREFIX (the HLT_MULTIHOST_TAG value it gave its
# processes), tmp (its temporary directory) and inodes (the network
# namespaces' inode numbers, filled as they are made).

# our_procs: sets `ours` to the pids of the processes this run started that
# are still alive: those tagged by HLT_MULTIHOST_TAG, those in one of our
# namespaces, those whose command line names our temporary directory.  Runs
# in this shell (no subshell) and skips it.
our_procs() {
	ours=()
	local p pid kv ino cmd hit
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" = $$ ] && continue
		hit=''
		{
			while IFS= read -r -d '' kv; do
				[ "$kv" = "HLT_MULTIHOST_TAG=$PREFIX" ] && { hit=1; break; }
			done <"$p/environ"
		} 2>/dev/null
		if [ -z "$hit" ] && [ ${#inodes[@]} -gt 0 ]; then
			ino=$(stat -L -c %i "$p/ns/net" 2>/dev/null) || continue
			for i in "${inodes[@]}"; do [ "$ino" = "$i" ] && { hit=1; break; }; done
		fi
		if [ -z "$hit" ]; then
			cmd=$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null) || continue
			case $cmd in *"$tmp"*) hit=1 ;; esac
		fi
		# Only if it is still there: the helpers above have exited.
		[ -n "$hit" ] && [ -d "$p" ] && ours+=("$pid")
	done
}

# kill_ours: TERM, then KILL, what our_procs finds (by pid, nothing else).
kill_ours() {
	local sig
	for sig in TERM KILL; do
		our_procs
		[ ${#ours[@]} -eq 0 ] && return 0
		kill -s "$sig" "${ours[@]}" 2>/dev/null
		sleep 0.5
	done
}
