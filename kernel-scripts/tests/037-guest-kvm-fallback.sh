#!/usr/bin/env bash
# 037: the guest VM where KVM fails, as users' machines may have it fail: a cached "kvm" probe that
# no longer holds (qemu -accel kvm exits at once: /dev/kvm gone, or taken by another hypervisor)
# is not trusted: guest.sh prints qemu's own error, probes again, and runs under TCG saying so;
# guest.txt records the accelerator, why not KVM, the vCPUs and qemu's CPU model; the failed
# probe is cached for this host boot only, and the next run says it is using it. Here qemu is a
# wrapper that fails -accel kvm the way qemu does without KVM and runs the real qemu otherwise,
# and the probe's /dev/kvm a file of the test's (LAB_KVM_DEV), so that qemu's failure is what the
# probe meets whether this host has /dev/kvm or not (KVM itself cannot be tested on this
# project's machines: every kernel hangs under it, and some have no /dev/kvm at all). Also
# guest.sh vcpus: the host's cores, at most one a 64 MiB above 512 MiB, LAB_GUEST_VCPUS forcing.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
G=$KS_DIR/guest/guest.sh
cache=$LAB_STATE/guest/kvm-probe
saved=$(mktemp)
had_cache=0
if [ -f "$cache" ]; then had_cache=1 && cp "$cache" "$saved"; fi
# the probe's cache is the lab's own (the guest image is shared): put it back as it was
_test_cleanup() {
	if [ "$had_cache" = 1 ]; then cp "$saved" "$cache"; else rm -f "$cache"; fi
	rm -f "$saved"
}
_test_begin_guest

echo "vcpus, 1536 MiB: $("$G" vcpus 1536 | awk -v n="$(nproc)" '{ print ($1 == (n < 16 ? n : 16)) ? "the host cores, at most 16" : $1 }')"
echo "vcpus, 600 MiB: $("$G" vcpus 600)"
echo "vcpus, NEED 1: $("$G" vcpus 1536 1)"
echo "vcpus, LAB_GUEST_VCPUS=3: $(LAB_GUEST_VCPUS=3 "$G" vcpus 1536)"

bin=$LAB_STATE/bin
mkdir -p "$bin"
cat >"$bin/qemu-system-x86_64" <<EOF
#!/usr/bin/env bash
# a qemu without KVM: -accel kvm fails at once, as qemu does; anything else is the real qemu
for a in "\$@"; do
	if [ "\$a" = kvm ]; then echo "Could not access KVM kernel module: No such file or directory" >&2; echo "qemu-system-x86_64: failed to initialize kvm: No such file or directory" >&2; exit 1; fi
done
exec $(command -v qemu-system-x86_64) "\$@"
EOF
chmod +x "$bin/qemu-system-x86_64"
# shellcheck disable=SC2016 # the guest's $OUT
printf '#!/bin/sh\necho ran >"$OUT/ran"\n' >"$LAB_STATE/script.sh"

# the image first (a rebuild clears the probe's cache, which this test writes next)
"$G" build >"$LAB_STATE/build.log" 2>&1 || { cat "$LAB_STATE/build.log" >&2; exit 1; }
echo kvm >"$cache"
: >"$LAB_STATE/kvm"
export LAB_KVM_DEV=$LAB_STATE/kvm
rc=0
PATH=$bin:$PATH "$G" run "$LAB_STATE/script.sh" "$LAB_STATE/out1" >"$LAB_STATE/run1.log" 2>&1 || rc=$?
echo "a cached kvm that fails: exit $rc"
said() { if grep -q "$1" "$2"; then echo yes; else echo no; fi; }
echo "qemu's own error printed: $(said 'failed to initialize kvm' "$LAB_STATE/run1.log")"
echo "probed again: $(said 'probing KVM again' "$LAB_STATE/run1.log")"
echo "fell back to TCG, saying why: $(said 'falling back to TCG (emulation): qemu -accel kvm exited: qemu-system-x86_64: failed to initialize kvm' "$LAB_STATE/run1.log")"
echo "the script ran: $([ -f "$LAB_STATE/out1/ran" ] && echo yes || echo no)"
for k in env vcpus qemu_cpu tcg_why; do
	v=$(sed -n "s/^$k: //p" "$LAB_STATE/out1/guest.txt")
	case $k in
	vcpus) [ "$v" = "$("$G" vcpus)" ] && v="as guest.sh vcpus says" ;;
	tcg_why) v=${v%%:*} ;;
	esac
	echo "guest.txt $k: $v"
done
echo "the cache: $(cut -d' ' -f1 "$cache"), this boot's: $([ "$(cut -d' ' -f2 "$cache")" = "$(cat /proc/sys/kernel/random/boot_id)" ] && echo yes || echo no)"

rc=0
PATH=$bin:$PATH "$G" run "$LAB_STATE/script.sh" "$LAB_STATE/out2" >"$LAB_STATE/run2.log" 2>&1 || rc=$?
echo "the next run: exit $rc, says it uses this boot's failed probe: $(said 'TCG: KVM failed its probe in this host boot' "$LAB_STATE/run2.log"), probed again: $(said 'probing KVM again' "$LAB_STATE/run2.log")"
