#!/bin/sh
# write_fails.sh POLYBSP FAULT DATA MODE — files that cannot be written: each
# case must print exactly its one line, end with its status, and leave no
# temporary file and no old file changed (core_file.h, tool.h). DATA is
# tests/cost/data (a machine file and a trace); FAULT is tests/fault/fault
# (`fault none 1 S`: S supersteps, no fault). MODE is
#   limit: a file size limit (ulimit -f, SIGXFSZ at its default) on a traced
#          run under `polybsp run`, on the probe (its trace of CCM samples, in
#          TMPDIR) and on `report -o`;
#   links: a symbolic link at -o of report, predict and portability is refused
#          and its target kept; -o /dev/full refused; a full standard output
#          (/dev/full) is a line and status 1;
#   full:  a full disk: a 16 KiB tmpfs in a mount namespace of the test's own
#          (unshare -rm; status 77, ctest's SKIP, where that is not permitted),
#          on which report -o and predict -o fail and keep the old file.
set -u
polybsp=$1 fault=$2 data=$3 mode=$4
machine=$data/machine.json trace=$data/bcast.jsonl
dir=$(mktemp -d "${TMPDIR:-/tmp}/write_fails.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM
cd "$dir" || exit 1
fail() {
    echo "write_fails.sh $mode: $*"
    exit 1
}
# expect STATUS LINE CMD...: CMD's stderr is exactly LINE, its status STATUS.
expect() {
    want_status=$1 want_line=$2
    shift 2
    "$@" >out 2>err
    got=$?
    [ "$got" = "$want_status" ] || fail "$*: status $got, expected $want_status; stderr: $(cat err)"
    [ "$(cat err)" = "$want_line" ] && [ "$(wc -l <err)" = 1 ] ||
        fail "$*: stderr '$(cat err)', expected '$want_line'"
}
# only NAMES...: the directory holds exactly these (no temporary left).
only() {
    left=$(ls -A | grep -v -x -e out -e err $(for n in "$@"; do printf ' -e %s' "$n"; done))
    [ -z "$left" ] || fail "left behind: $left"
}

case $mode in
limit)
    # 3000 supersteps of 4 processes: about 3.5 MB of trace, over 1 MiB.
    expect 1 "polybsp: process 0, superstep 3001: bsp_end: cannot write the trace t.jsonl: File too large" \
        sh -c 'ulimit -f 1024; POLYBSP_TRACE=t.jsonl exec "$0" run "$1" none 1 3000' "$polybsp" "$fault"
    only t.jsonl
    mkdir tmp
    TMPDIR=$dir/tmp sh -c 'ulimit -f 100; exec "$0" probe --quick --quiet -o m.json' "$polybsp" \
        >out 2>err
    got=$?
    [ "$got" = 1 ] || fail "probe: status $got, expected 1; stderr: $(cat err)"
    grep -qx "polybsp: process 0, superstep [0-9]*: bsp_end: cannot write the trace $dir/tmp/polybsp-probe-ccm-[A-Za-z0-9]*: File too large" err &&
        [ "$(wc -l <err)" = 1 ] || fail "probe: stderr '$(cat err)'"
    [ -z "$(ls -A tmp)" ] || fail "probe left in TMPDIR: $(ls -A tmp)"
    rmdir tmp
    only t.jsonl
    expect 1 "polybsp: report: cannot write 'r.html': File too large" \
        sh -c 'ulimit -f 8; exec "$0" report --machine "$1" -o r.html "$2"' "$polybsp" "$machine" "$trace"
    only t.jsonl
    ;;
links)
    echo keep >target
    ln -s target link
    for cmd in report predict portability; do
        input=$trace
        [ $cmd = portability ] && input=--quick
        expect 2 "polybsp: $cmd: cannot write 'link': not a regular file (a symbolic link)" \
            "$polybsp" $cmd --machine "$machine" -o link "$input"
        [ -L link ] && [ "$(cat target)" = keep ] || fail "$cmd: the link or its target changed"
    done
    expect 2 "polybsp: predict: cannot write '/dev/full': not a regular file (a character device)" \
        "$polybsp" predict --machine "$machine" -o /dev/full "$trace"
    expect 1 "polybsp: predict: cannot write standard output: No space left on device" \
        sh -c 'exec "$0" predict --machine "$1" "$2" >/dev/full' "$polybsp" "$machine" "$trace"
    expect 1 "polybsp: report: cannot write standard output: No space left on device" \
        sh -c 'exec "$0" report --machine "$1" -o r.html "$2" >/dev/full' "$polybsp" "$machine" "$trace"
    only target link r.html
    ;;
full)
    unshare -rm true 2>/dev/null || { echo "SKIP: no mount namespace (unshare -rm)"; exit 77; }
    mkdir disk
    # In the namespace: a disk of 16 KiB holding an old file in 4 of its 4 KiB
    # pages: the new one cannot fit beside it, the old one must stay whole.
    unshare -rm sh -c '
        mount -t tmpfs -o size=16k tmpfs disk || exit 77
        head -c 12289 /dev/zero | tr "\0" o >disk/r.html
        cp disk/r.html old.html
        "$0" report --machine "$1" -o disk/r.html "$2" >out 2>err
        echo $? >status
        cmp -s disk/r.html old.html || echo changed >>status
        "$0" predict --machine "$1" --per-step --format csv -o disk/r.html "$2" >out 2>>err
        echo $? >>status
        cmp -s disk/r.html old.html || echo changed >>status
        ls -A disk >left
    ' "$polybsp" "$machine" "$trace"
    [ $? = 77 ] && { echo "SKIP: no tmpfs in the namespace"; exit 77; }
    [ "$(cat status)" = "$(printf '1\n1')" ] || fail "statuses $(cat status), expected 1 and 1, the old file kept; stderr: $(cat err)"
    [ "$(cat err)" = "$(printf "%s\n%s" "polybsp: report: cannot write 'disk/r.html': No space left on device" \
        "polybsp: predict: cannot write 'disk/r.html': No space left on device")" ] ||
        fail "stderr: $(cat err)"
    [ "$(cat left)" = r.html ] || fail "left on the disk: $(cat left)"
    ;;
*) fail "unknown mode" ;;
esac
exit 0
