#!/bin/sh
# flood.sh TRACE: TRACE's header, then its first record again and again without
# end, each padded with an unknown member of 100 kB: a stream that never ends.
set -u
pad=$(head -c 100000 /dev/zero | tr '\0' x)
head -n 1 "$1"
yes "$(sed -n 2p "$1" | sed 's/}$//'),\"pad\":\"$pad\"}"
