#!/bin/sh
# trace.sh FFT — `fft --trace` records exactly the supersteps of one transform,
# each local phase with its declared flops (docs/fft.md, "Tracing"):
#   dc, n = 2^10, P = 4: per process 7 supersteps: 2 partitions (divisions), the
#     leaf FFT (ended by a rejoin, 5*256*8 = 10240 flops), 2 partner exchanges
#     (par), 2 combinations (5*512 = 2560 and 5*1024 = 5120 flops).
#   bsp, n = 2^10, P = 2: per process 2 supersteps: the local FFT of length 512
#     and the twiddles (5*512*9 + 6*512 = 26112 flops) with 2 puts of 4096 bytes,
#     then 256 FFTs of length 2 (256 * 5*2*1 = 2560 flops).
set -u
fft=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/fft-trace.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM
fail=0

# count FILE PATTERN WANT WHAT
count() {
  got=$(grep -c -- "$2" "$1")
  if [ "$got" -ne "$3" ]; then
    echo "trace.sh: $4: $got records, expected $3"
    fail=1
  fi
}

(cd "$dir" && env -u POLYBSP_TRACE "$fft" --algo dc -n 2^10 -p 4 --trace >/dev/null) ||
  { echo "trace.sh: fft --algo dc failed"; exit 1; }
t="$dir/polybsp-trace.jsonl"
[ -f "$t" ] || { echo "trace.sh: no polybsp-trace.jsonl"; exit 1; }
count "$t" '"pid":' 28 "dc: all records"
count "$t" '"kind":"partition"' 8 "dc: divisions"
count "$t" '"kind":"rejoin".*"ops":10240,' 4 "dc: leaf FFTs"
count "$t" '"kind":"par"' 8 "dc: partner exchanges"
count "$t" '"ops":2560,' 4 "dc: combinations of level 1"
count "$t" '"kind":"normal".*"ops":5120,' 4 "dc: combinations of level 0"
rm -f "$t"

(cd "$dir" && env -u POLYBSP_TRACE "$fft" --algo bsp -n 2^10 -p 2 --trace >/dev/null) ||
  { echo "trace.sh: fft --algo bsp failed"; exit 1; }
count "$t" '"pid":' 4 "bsp: all records"
count "$t" '"ops":26112,"bytes_out":8192,"msgs_out":2,' 2 "bsp: local FFTs and puts"
count "$t" '"ops":2560,"bytes_out":0,' 2 "bsp: FFTs across the processes"
if [ $fail -ne 0 ]; then cat "$t"; fi
exit $fail
