#!/bin/sh
# memory_cgroup.sh HELLO — the memory check of bsp_begin (threads engine)
# against a cgroup's limit: in a memory cgroup of 1 GiB made for the test,
#  - P = 30000 (48 KiB each: 1.4 GiB) is refused with one line naming the
#    cgroup's limit and the largest P that fits, status 1;
#  - P = 8192 runs to its end (it took 2.0 GB before the descriptors of the
#    out buffers were paid only when written, and was killed without a line).
# Making a cgroup needs root and a writable cgroup file system (v2, or v1's
# memory hierarchy): status 77, ctest's SKIP, otherwise.
set -u
hello=$1
name=polybsp-test-$$
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    dir=/sys/fs/cgroup/$name limit=memory.max
    grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
        echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
else
    dir=/sys/fs/cgroup/memory/$name limit=memory.limit_in_bytes
fi
mkdir "$dir" 2>/dev/null && echo $((1 << 30)) >"$dir/$limit" 2>/dev/null || {
    rmdir "$dir" 2>/dev/null
    echo "SKIP: cannot make a memory cgroup ($dir)"
    exit 77
}
out=$(mktemp) || exit 1
trap 'rm -f "$out"; rmdir "$dir" 2>/dev/null' EXIT
# In the cgroup: a shell that moves itself there, then the runs.
sh -c 'echo $$ >"$0/cgroup.procs" || exit 77
    POLYBSP_NPROCS=30000 "$1" >/dev/null 2>"$2.err"; echo $? >"$2"
    POLYBSP_NPROCS=8192 "$1" >"$2.out" 2>&1; echo $? >>"$2"' "$dir" "$hello" "$out"
[ $? = 77 ] && { echo "SKIP: cannot enter the cgroup"; exit 77; }
fail=0
line=$(cat "$out.err")
case $line in
"polybsp: bsp_begin: 30000 processes need about 1.4 GiB (48 KiB each), more than the "*" GiB this program may still use (the cgroup's limit): at most "*" processes here") ;;
*) echo "FAIL: P = 30000 said: $line"; fail=1 ;;
esac
[ "$(wc -l <"$out.err")" = 1 ] || { echo "FAIL: not one line"; fail=1; }
[ "$(sed -n 1p "$out")" = 1 ] || { echo "FAIL: P = 30000 status $(sed -n 1p "$out")"; fail=1; }
[ "$(sed -n 2p "$out")" = 0 ] || { echo "FAIL: P = 8192 status $(sed -n 2p "$out"): $(tail -n 3 "$out.out")"; fail=1; }
[ "$(grep -c '^Hello from process' "$out.out")" = 8192 ] || { echo "FAIL: P = 8192 did not greet 8192 times"; fail=1; }
rm -f "$out.err" "$out.out"
exit $fail
