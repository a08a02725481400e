# shellcheck shell=bash
# common/bridge.sh: the lab's bridge from the tests' side: a job file, a run whose exit status and
# reason are printed, and a checksum to show a device untouched. Source after rc.sh and
# _test_begin (the bridge then reads the test's own registry, through _lab_jvm_init).

# _bridge_init: LAB_BRIDGE for this test's registry, and a scratch folder BR_DIR under LAB_STATE.
_bridge_init() {
	_lab_jvm_init
	BR_DIR=$LAB_STATE/bridge
	mkdir -p "$BR_DIR"
}

# _bridge_job NAME RW [KEY=VALUE...]: write $BR_DIR/NAME.fio, a 4k O_DIRECT psync job over the
# first MiB, plus the given lines; print its path.
_bridge_job() {
	local name=$1 rw=$2 f=$BR_DIR/$1.fio
	shift 2
	{
		printf '[%s]\nrw=%s\nbs=4k\nsize=1m\ndirect=1\nioengine=psync\n' "$name" "$rw"
		printf '%s\n' "$@"
	} >"$f"
	echo "$f"
}

# _bridge_job_engines NAME RW: write $BR_DIR/NAME.fio, one job per engine the bridge runs (psync,
# sync, pvsync, io_uring, libaio), each a 4k O_DIRECT RW job over the first MiB at iodepth 4
# (the synchronous ones capped at 1); print its path. A refusal of the file refuses every engine.
_bridge_job_engines() {
	local name=$1 rw=$2 f=$BR_DIR/$1.fio e
	printf '[global]\nrw=%s\nbs=4k\nsize=1m\ndirect=1\niodepth=4\n' "$rw" >"$f"
	for e in psync sync pvsync io_uring libaio; do
		printf '[%s-%s]\nioengine=%s\n' "$name" "$e" "$e" >>"$f"
	done
	echo "$f"
}

# _bridge_try WHAT JOB DEV [ARGS...]: run the bridge; print "WHAT: exit N", and for a refusal
# (exit 2) whether the JSON output was written after all, and which rule refused: "not the
# lab's" (the registry) or "held: USE" (the O_EXCL open, USE what it names). DEV is printed as
# <dev>. The run's stderr is kept in $BR_DIR/WHAT.err.
_bridge_try() {
	local what=$1 job=$2 dev=$3 rc=0 out err why
	shift 3
	out=$BR_DIR/out.json err=$BR_DIR/${what// /-}.err
	rm -f "$out"
	"${LAB_BRIDGE[@]}" run "$job" --filename "$dev" --output "$out" "$@" >/dev/null 2>"$err" || rc=$?
	echo "$what: exit $rc"
	[ "$rc" -eq 2 ] || return 0
	sed -i "s|$dev|<dev>|g" "$err"
	if [ -e "$out" ]; then echo "$what: output written"; fi
	if grep -q 'the lab did not make it\|the lab makes only\|not the lab.s' "$err"; then
		echo "$what: refused, not the lab's"
	elif why=$(sed -n 's/.*holds it exclusively (open with O_EXCL: EBUSY): \(.*\)\. Nothing was written.*/\1/p' "$err") &&
		[ -n "$why" ]; then
		echo "$what: refused, held: $why"
	else
		echo "$what: refused: $(cat "$err")"
	fi
}

# _sum DEV: sha256 of every byte of DEV (a device or a file).
_sum() {
	sha256sum <"$1" | cut -d' ' -f1
}
