#!/bin/sh
# demo_stop.sh POLYBSP WHEN — stops `polybsp demo --quick` by SIGTERM and checks
# what it leaves (tools/polybsp/demo.c, say_where_and_stop). Its temporary
# directory is made in a fresh TMPDIR. WHEN is
#   early: once step 1 has begun (stdout says so), before any file is in it: the
#          directory is removed and the last line on stderr is
#          "polybsp: demo: stopped";
#   late:  once the probe has written machine.json: the directory stays, and
#          the last line names it: "polybsp: demo: stopped; the files made so
#          far are in DIR".
# Either way the status is the signal's (143).
set -u
tool=$1
when=$2
TMPDIR=$(mktemp -d) || exit 1
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
"$tool" demo --quick >"$TMPDIR/out" 2>"$TMPDIR/err" &
job=$!
i=0
while :; do # up to 60 s for the state to reach
    dir=$(ls -d "$TMPDIR"/polybsp-demo.* 2>/dev/null | head -n 1)
    if [ -n "$dir" ]; then
        [ "$when" = early ] && grep -q "^Step 1" "$TMPDIR/out" && break
        [ -f "$dir/machine.json" ] && break
    fi
    i=$((i + 1))
    if [ "$i" -gt 600 ] || ! kill -0 "$job" 2>/dev/null; then
        echo "demo_stop: the demo never reached the $when state"
        kill "$job" 2>/dev/null
        exit 1
    fi
    sleep 0.1
done
kill -TERM "$job"
wait "$job"
status=$?
[ "$status" -eq 143 ] || { echo "demo_stop: status $status, expected 143"; cat "$TMPDIR/err"; exit 1; }
last=$(tail -n 1 "$TMPDIR/err")
if [ "$when" = early ]; then
    [ "$last" = "polybsp: demo: stopped" ] || { echo "demo_stop: last line '$last'"; exit 1; }
    [ ! -e "$dir" ] || { echo "demo_stop: $dir is still there"; exit 1; }
else
    [ "$last" = "polybsp: demo: stopped; the files made so far are in $dir" ] ||
        { echo "demo_stop: last line '$last'"; exit 1; }
    [ -f "$dir/machine.json" ] || { echo "demo_stop: $dir/machine.json is gone"; exit 1; }
fi
echo "demo_stop: $when: status 143, '$last'"
