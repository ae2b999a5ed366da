#!/bin/sh
# expect.sh [--status N] [--stderr LINE] [--stdout-has TEXT]... [--stdout-lacks TEXT]...
#           -- COMMAND [ARGS]
#
# Runs COMMAND and fails (status 1, saying why) unless its exit status is N
# (default 0), its stderr is exactly LINE plus a newline (when --stderr is given),
# and its stdout contains every --stdout-has TEXT and no --stdout-lacks TEXT. Used by the tool's ctest tests.
set -u
status=0
stderr_set=0
stderr_line=
has_file=$(mktemp)
lacks_file=$(mktemp)
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$has_file" "$lacks_file" "$out" "$err"' EXIT
while [ $# -gt 0 ]; do
    case $1 in
    --status) status=$2; shift 2 ;;
    --stderr) stderr_set=1; stderr_line=$2; shift 2 ;;
    --stdout-has) printf '%s\n' "$2" >>"$has_file"; shift 2 ;;
    --stdout-lacks) printf '%s\n' "$2" >>"$lacks_file"; shift 2 ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

"$@" >"$out" 2>"$err"
got=$?
fail=0
if [ "$got" -ne "$status" ]; then
    echo "FAIL: exit status $got, expected $status"
    fail=1
fi
if [ "$stderr_set" = 1 ] && { [ "$(wc -l <"$err")" -ne 1 ] || [ "$(cat "$err")" != "$stderr_line" ]; }; then
    echo "FAIL: stderr is not exactly the line: $stderr_line"
    fail=1
fi
while IFS= read -r text; do
    if ! grep -qF -- "$text" "$out"; then
        echo "FAIL: stdout lacks: $text"
        fail=1
    fi
done <"$has_file"
while IFS= read -r text; do
    if grep -qF -- "$text" "$out"; then
        echo "FAIL: stdout has: $text"
        fail=1
    fi
done <"$lacks_file"
if [ "$fail" = 1 ]; then
    echo "--- command: $*"
    echo "--- stdout:"; cat "$out"
    echo "--- stderr:"; cat "$err"
fi
exit "$fail"
