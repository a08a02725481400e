# shellcheck shell=bash
# common/fleet.sh: an Ansible inventory of hosts that are this machine, for ./lab fleet's tests
# (045, 046). Sourced by common/rc.sh; changes nothing by itself.

# _fleet_hosts: FLEET_DIR (a folder any user may enter), a user of the test's own (FLEET_USER, not
# root: each pairing is the JVM side only), a key made for the test and an sshd of the test's own
# on a private loopback port; FLEET_DIR/inventory holds host-a and host-b (each its own lab_dir,
# and its JVMs their own java.io.tmpdir: on one machine JMH's lock in /tmp would let one pairing
# run at a time) and gone (a closed port). Undone by _fleet_cleanup.
_fleet_hosts() {
	local port
	FLEET_DIR=$(mktemp -d /tmp/lab-fleet.XXXXXX)
	chmod 755 "$FLEET_DIR"
	FLEET_USER=labfleet$$
	useradd --system --home-dir "$FLEET_DIR/home" --shell /bin/bash "$FLEET_USER"
	usermod -p '*' "$FLEET_USER" # no password, and not locked: sshd without PAM refuses a locked account
	mkdir -p "$FLEET_DIR/home" "$FLEET_DIR/host-a" "$FLEET_DIR/host-b" "$FLEET_DIR/keys" "$FLEET_DIR/tmp-a" \
		"$FLEET_DIR/tmp-b"
	ssh-keygen -q -t ed25519 -N '' -f "$FLEET_DIR/key"
	ssh-keygen -q -t ed25519 -N '' -f "$FLEET_DIR/hostkey"
	cp "$FLEET_DIR/key.pub" "$FLEET_DIR/keys/$FLEET_USER"
	chown -R "$FLEET_USER" "$FLEET_DIR/home" "$FLEET_DIR/host-a" "$FLEET_DIR/host-b" "$FLEET_DIR/tmp-a" \
		"$FLEET_DIR/tmp-b"
	port=$((20000 + RANDOM % 10000))
	cat >"$FLEET_DIR/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $FLEET_DIR/hostkey
PidFile $FLEET_DIR/sshd.pid
AuthorizedKeysFile $FLEET_DIR/keys/%u
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AllowUsers $FLEET_USER
CONF
	mkdir -p /run/sshd
	/usr/sbin/sshd -f "$FLEET_DIR/sshd_config" -E "$FLEET_DIR/sshd.log"
	cat >"$FLEET_DIR/inventory" <<INV
host-a lab_dir=$FLEET_DIR/host-a lab_env="{'JAVA_TOOL_OPTIONS': '-Djava.io.tmpdir=$FLEET_DIR/tmp-a'}"
host-b lab_dir=$FLEET_DIR/host-b lab_env="{'JAVA_TOOL_OPTIONS': '-Djava.io.tmpdir=$FLEET_DIR/tmp-b'}"
gone lab_dir=$FLEET_DIR/gone ansible_port=1

[all:vars]
ansible_host=127.0.0.1
ansible_port=$port
ansible_user=$FLEET_USER
ansible_ssh_private_key_file=$FLEET_DIR/key
ansible_python_interpreter=/usr/bin/python3
ansible_ssh_common_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR'
INV
}

# _fleet_have: skips a test without what _fleet_hosts needs
_fleet_have() {
	_have_root
	_have_cmd ansible-playbook ssh ssh-keygen useradd userdel
	[ -x /usr/sbin/sshd ] || _skip "no /usr/sbin/sshd (openssh-server)"
}

# _fleet_run_procs ID: how many processes carry LAB_FLEET_RUN=ID (a fleet run's, on any host here)
_fleet_run_procs() {
	(grep -lsa "LAB_FLEET_RUN=$1" /proc/[0-9]*/environ || true) | wc -l
}

# _fleet_cleanup: the sshd, the user's processes, the user and FLEET_DIR gone
_fleet_cleanup() {
	[ -n "${FLEET_DIR:-}" ] || return 0
	if [ -f "$FLEET_DIR/sshd.pid" ]; then kill "$(cat "$FLEET_DIR/sshd.pid")" 2>/dev/null || true; fi
	pkill -KILL -u "$FLEET_USER" 2>/dev/null || true
	userdel "$FLEET_USER" 2>/dev/null || true
	rm -rf "$FLEET_DIR"
}
