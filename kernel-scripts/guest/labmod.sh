#!/bin/sh
# shellcheck shell=sh
# labmod NAME [param=value...]: insmod a module shipped in the lab initramfs.
# /init already loaded its dependencies (see /lib/modules/lab/order).
m=$1
shift
exec insmod "/lib/modules/lab/$m.ko" "$@"
