# shellcheck shell=bash
# common/fleet.sh: an Ansible inventory of hosts that look like distinct machines, for ./lab
# fleet's tests (045, 046; _fleet_inventory_dir, _fleet_same_machine_inventory, _fleet_forget_host
# and _fleet_kill_host for its tests of an inventory directory, one machine named twice, an unknown
# host key and a host that dies). Sourced by common/rc.sh; changes nothing by itself.
#
# Each host is an sshd of its own on its own loopback address (127.0.0.2, 127.0.0.3, ...; one port
# P for all) with its own host key, started in mount, PID and UTS namespaces of its own: there
# /etc/machine-id is a file of the host's (a random id), the hostname is the host's name and the
# test user's home is the host's, and everything an ssh session into it starts (Ansible's modules,
# async jobs, JVMs) is in its PID namespace, so that killing the namespace's init (the sshd) is the
# machine dying (_fleet_kill_host). The hosts share this machine's file system otherwise: each host
# has its own lab_dir and java.io.tmpdir (JMH's lock in /tmp would let one pairing run at a time).
# Host keys are checked: FLEET_DIR/known_hosts has each host's ([127.0.0.N]:P).
#
# FLEET_DIR/hosts/NAME (root's) holds a host's own: address, sshd_config, hostkey, machine-id,
# home, init.pid (its init's pid as this machine's /proc numbers it), pidns (readlink
# /proc/PID/ns/pid), sshd.log, console.log.

# set by _fleet_hosts alone: _fleet_cleanup removes what they name
FLEET_DIR=
FLEET_USER=
FLEET_PORT=

# _fleet_hosts [NAME...]: FLEET_DIR (a folder any user may enter), a user of the test's own
# (FLEET_USER, not root: each pairing is the JVM side only), a client key, and a host per NAME
# (default host-a host-b), the i-th at 127.0.0.(i+1), all on one free random port FLEET_PORT;
# FLEET_DIR/inventory holds them and gone (an address where nothing listens: connection refused).
# Returns once every sshd listens. Undone by _fleet_cleanup.
_fleet_hosts() {
	local names=("$@") name i
	[ $# -gt 0 ] || names=(host-a host-b)
	FLEET_DIR=$(mktemp -d /tmp/lab-fleet.XXXXXX)
	chmod 755 "$FLEET_DIR"
	FLEET_USER=labfleet$$
	useradd --system --no-create-home --home-dir "$FLEET_DIR/home" --shell /bin/bash "$FLEET_USER"
	usermod -p '*' "$FLEET_USER" # no password, and not locked: sshd without PAM refuses a locked account
	install -d -m 755 "$FLEET_DIR/keys" "$FLEET_DIR/hosts"
	install -d -m 755 -o "$FLEET_USER" "$FLEET_DIR/home"
	ssh-keygen -q -t ed25519 -N '' -C "lab-fleet client" -f "$FLEET_DIR/key"
	cp "$FLEET_DIR/key.pub" "$FLEET_DIR/keys/$FLEET_USER"
	chmod 644 "$FLEET_DIR/keys/$FLEET_USER"
	FLEET_PORT=$(_fleet_free_port)
	: >"$FLEET_DIR/known_hosts"
	chmod 644 "$FLEET_DIR/known_hosts"
	mkdir -p /run/sshd # sshd's privilege separation directory
	printf '%s\n' "${names[@]}" >"$FLEET_DIR/names"
	for i in "${!names[@]}"; do
		_fleet_host_start "${names[i]}" "127.0.0.$((i + 2))"
	done
	for name in "${names[@]}"; do
		_fleet_host_wait "$name"
	done
	{
		_fleet_host_lines
		echo
		echo "[all:vars]"
		_fleet_conn_vars "%s=%s\n"
	} >"$FLEET_DIR/inventory"
}

# _fleet_free_port: a random port in 20000-29999 that nothing listens on, on any address
_fleet_free_port() {
	local p _
	for _ in $(seq 100); do
		p=$((20000 + RANDOM % 10000))
		if [ -z "$(ss -Htln "sport = :$p")" ]; then
			echo "$p"
			return 0
		fi
	done
	echo "lab-fleet: no free port in 20000-29999" >&2
	return 1
}

# _fleet_host_start NAME ADDR: host NAME's folder, lab_dir, tmpdir, host key (its known_hosts
# line), machine-id and home, and its sshd started as the init of new mount, PID and UTS
# namespaces, listening on ADDR:FLEET_PORT
_fleet_host_start() {
	local name=$1 addr=$2 h=$FLEET_DIR/hosts/$1 boot u init _
	install -d -m 755 "$h"
	install -d -m 755 -o "$FLEET_USER" "$h/home" "$FLEET_DIR/$name" "$FLEET_DIR/tmp-$name"
	echo "$addr" >"$h/address"
	tr -d '-' </proc/sys/kernel/random/uuid >"$h/machine-id"
	chmod 444 "$h/machine-id"
	ssh-keygen -q -t ed25519 -N '' -C "$name" -f "$h/hostkey"
	echo "[$addr]:$FLEET_PORT $(cut -d' ' -f1,2 "$h/hostkey.pub")" >>"$FLEET_DIR/known_hosts"
	cat >"$h/sshd_config" <<CONF
Port $FLEET_PORT
ListenAddress $addr
HostKey $h/hostkey
PidFile $h/sshd.pid
AuthorizedKeysFile $FLEET_DIR/keys/%u
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
PrintLastLog no
Subsystem sftp internal-sftp
AllowUsers $FLEET_USER
CONF
	# the namespace's init is sh, then (exec) the sshd: its own session, the host's machine-id,
	# hostname and home; --kill-child: should unshare die, the host dies with it. env -i: nothing
	# of the test's environment in the host.
	# shellcheck disable=SC2016 # expanded by the host's sh
	boot='mount --bind "$1/machine-id" /etc/machine-id && mount --bind "$1/home" "$2" && hostname "$3" && exec setsid /usr/sbin/sshd -D -f "$1/sshd_config" -E "$1/sshd.log"'
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		unshare --mount --uts --pid --fork --mount-proc --propagation private --kill-child \
		/bin/sh -c "$boot" sh "$h" "$FLEET_DIR/home" "$name" </dev/null >"$h/console.log" 2>&1 &
	u=$!
	for _ in $(seq 100); do
		init=$(pgrep -P "$u" || true)
		[ -z "$init" ] || break
		sleep 0.02
	done
	if [ -z "$init" ]; then
		echo "lab-fleet: $name: unshare made no namespace: $(cat "$h/console.log")" >&2
		return 1
	fi
	echo "$init" >"$h/init.pid"
	readlink "/proc/$init/ns/pid" >"$h/pidns"
}

# _fleet_host_wait NAME: wait (5 s at most) until host NAME's sshd listens; else say why and fail
_fleet_host_wait() {
	local h=$FLEET_DIR/hosts/$1 addr _
	addr=$(cat "$h/address")
	for _ in $(seq 250); do
		[ -z "$(ss -Htln "src $addr and sport = :$FLEET_PORT")" ] || return 0
		[ "$(_fleet_host_procs "$1")" -gt 0 ] || break
		sleep 0.02
	done
	echo "lab-fleet: $1: no sshd listening on $addr:$FLEET_PORT: $(cat "$h/console.log" "$h/sshd.log" 2>/dev/null)" >&2
	return 1
}

# _fleet_host_lines [NAME...]: the inventory's host lines for NAMEs (default: every host and gone),
# each with its address, lab_dir and lab_env; gone at the address after the last host
_fleet_host_lines() {
	local names=("$@") name n
	if [ $# -eq 0 ]; then
		mapfile -t names <"$FLEET_DIR/names"
		n=${#names[@]}
	fi
	for name in "${names[@]}"; do
		echo "$name ansible_host=$(cat "$FLEET_DIR/hosts/$name/address") lab_dir=$FLEET_DIR/$name" \
			"lab_env=\"{'JAVA_TOOL_OPTIONS': '-Djava.io.tmpdir=$FLEET_DIR/tmp-$name'}\""
	done
	if [ $# -eq 0 ]; then echo "gone ansible_host=127.0.0.$((n + 2)) lab_dir=$FLEET_DIR/gone"; fi
}

# _fleet_conn_vars FORMAT: the connection variables every host shares (port, user, key, python,
# ssh's arguments: host keys checked against FLEET_DIR/known_hosts), each printed with FORMAT
# (name, value): "%s=%s\n" for INI, "%s: %s\n" for YAML
_fleet_conn_vars() {
	# shellcheck disable=SC2059 # the format is the caller's
	printf "$1" ansible_port "$FLEET_PORT" ansible_user "$FLEET_USER" \
		ansible_ssh_private_key_file "$FLEET_DIR/key" ansible_python_interpreter /usr/bin/python3 \
		ansible_ssh_common_args "'-o UserKnownHostsFile=$FLEET_DIR/known_hosts -o LogLevel=ERROR'"
}

# _fleet_inventory_dir DIR: FLEET_DIR/inventory as an inventory directory: DIR/hosts (INI, the
# hosts and their own variables) and DIR/group_vars/all.yml (YAML, the connection variables)
_fleet_inventory_dir() {
	mkdir -p "$1/group_vars"
	_fleet_host_lines >"$1/hosts"
	{
		echo "---"
		_fleet_conn_vars "%s: %s\n"
	} >"$1/group_vars/all.yml"
}

# _fleet_same_machine_inventory FILE: an inventory in FILE naming the first host (127.0.0.2) twice,
# twin-a and twin-b, each its own lab_dir and tmpdir
_fleet_same_machine_inventory() {
	local first t
	first=$(head -n 1 "$FLEET_DIR/names")
	install -d -m 755 -o "$FLEET_USER" "$FLEET_DIR/twin-a" "$FLEET_DIR/twin-b" "$FLEET_DIR/tmp-twin-a" \
		"$FLEET_DIR/tmp-twin-b"
	{
		for t in twin-a twin-b; do
			_fleet_host_lines "$first" | sed "s|^$first |$t |; s|$FLEET_DIR/$first |$FLEET_DIR/$t |; s|tmp-$first'|tmp-$t'|"
		done
		echo
		echo "[all:vars]"
		_fleet_conn_vars "%s=%s\n"
	} >"$1"
}

# _fleet_forget_host NAME: host NAME's key out of FLEET_DIR/known_hosts (ssh then refuses the
# host: "Host key verification failed."), and this user's Ansible ssh master connection to it
# ended (~/.ansible/cp, ControlPersist), which would otherwise go on without checking
_fleet_forget_host() {
	local addr cp
	addr=$(cat "$FLEET_DIR/hosts/$1/address")
	# ssh-keygen -R: also the hashed lines that ssh adds where host key checking is off
	# (HashKnownHosts, Debian's default)
	ssh-keygen -q -R "[$addr]:$FLEET_PORT" -f "$FLEET_DIR/known_hosts" >/dev/null 2>&1
	rm -f "$FLEET_DIR/known_hosts.old"
	chmod 644 "$FLEET_DIR/known_hosts"
	# Ansible's ControlPath: ~/.ansible/cp/ and the first 10 hex digits of sha1("HOST-PORT-USER")
	cp=$HOME/.ansible/cp/$(printf '%s' "$addr-$FLEET_PORT-$FLEET_USER" | sha1sum | cut -c1-10)
	if [ -S "$cp" ]; then ssh -o ControlPath="$cp" -O exit "$addr" >/dev/null 2>&1 || true; fi
}

# _fleet_host_procs NAME: how many processes run in host NAME's PID namespace (0: it is dead)
_fleet_host_procs() {
	local ns
	ns=$(cat "$FLEET_DIR/hosts/$1/pidns" 2>/dev/null) || {
		echo 0
		return 0
	}
	{ readlink /proc/[0-9]*/ns/pid 2>/dev/null || true; } | grep -cxF "$ns" || true
}

# _fleet_kill_host NAME: host NAME dies as a machine does: its namespace's init killed, which kills
# every process in it (its sshd, sessions, async jobs, JVMs), so that its address refuses
# connections; returns once none is left (5 s at most)
_fleet_kill_host() {
	local h=$FLEET_DIR/hosts/$1 init _
	init=$(cat "$h/init.pid" 2>/dev/null) || return 0
	# the pid is still the host's init only while it is in the host's namespace
	if [ "$(readlink "/proc/$init/ns/pid" 2>/dev/null)" = "$(cat "$h/pidns")" ]; then
		kill -KILL "$init" 2>/dev/null || true
	fi
	for _ in $(seq 250); do
		[ "$(_fleet_host_procs "$1")" -gt 0 ] || break
		sleep 0.02
	done
	rm -f "$h/init.pid"
}

# _fleet_have: skips a test without what _fleet_hosts needs
_fleet_have() {
	_have_root
	_have_cmd ansible-playbook ssh ssh-keygen useradd userdel unshare setsid ss pgrep sha1sum
	[ -x /usr/sbin/sshd ] || _skip "no /usr/sbin/sshd (openssh-server)"
	unshare --mount --uts --pid --fork --mount-proc --propagation private true 2>/dev/null ||
		_skip "unshare cannot make mount, PID and UTS namespaces here"
}

# _fleet_run_procs ID: how many processes carry LAB_FLEET_RUN=ID (a fleet run's, on any host here:
# this namespace's /proc sees every host's)
_fleet_run_procs() {
	(grep -lsa "LAB_FLEET_RUN=$1" /proc/[0-9]*/environ || true) | wc -l
}

# _fleet_cleanup: every host killed, the user's processes, the user and FLEET_DIR gone; idempotent,
# safe in a trap
_fleet_cleanup() {
	local h
	case ${FLEET_DIR:-} in /tmp/lab-fleet.*) ;; *) return 0 ;; esac
	for h in "$FLEET_DIR"/hosts/*/; do
		[ -f "$h/init.pid" ] || continue
		h=${h%/}
		_fleet_kill_host "${h##*/}"
	done
	if [ -n "${FLEET_USER:-}" ] && getent passwd "$FLEET_USER" >/dev/null; then
		pkill -KILL -u "$FLEET_USER" 2>/dev/null || true
		userdel "$FLEET_USER" 2>/dev/null || true
	fi
	rm -rf "$FLEET_DIR"
}

# _fleet_host_run_procs NAME ID: how many of host NAME's processes carry LAB_FLEET_RUN=ID
_fleet_host_run_procs() {
	local ns p n=0
	ns=$(cat "$FLEET_DIR/hosts/$1/pidns" 2>/dev/null) || {
		echo 0
		return 0
	}
	for p in $(grep -lsa "LAB_FLEET_RUN=$2" /proc/[0-9]*/environ || true); do
		p=${p#/proc/}
		[ "$(readlink "/proc/${p%/environ}/ns/pid" 2>/dev/null)" = "$ns" ] && n=$((n + 1))
	done
	echo "$n"
}
