#!/bin/sh
# The host<->device copies of a program as the OpenMP runtime logs them
# (LIBOMPTARGET_INFO=32, the host offload target included), one line per
# source and size: "<count> <host|device> <bytes>" (host: to the device).
#
#   copies.sh PROGRAM [ARGS...]
#   copies.sh --like REFERENCE PROGRAM [ARGS...]
#
# With --like, only what can be compared with REFERENCE (this script's
# output for another build of the program) is printed: every copy back, and
# the copies to the device of the sizes REFERENCE copies. A rewritten
# program also sends its packed firstprivate arguments (the bridge's grid
# and span objects) to the device, which the plugin's build does not.
like=
if [ "$1" = --like ]; then
  like=$2
  shift 2
fi
copies() {
  env LIBOMPTARGET_INFO=32 "$@" 2>&1 >/dev/null |
    sed -n -E 's/.*Copying data from ([a-z]+) to [a-z]+,.*Size=([0-9]+).*/\1 \2/p' |
    sort | uniq -c | awk '{ print $1, $2, $3 }'
}
if [ -n "$like" ]; then
  copies "$@" | awk 'NR == FNR { sizes[$2 " " $3] = 1; next }
                     $2 == "device" || ($2 " " $3) in sizes' "$like" -
else
  copies "$@"
fi
