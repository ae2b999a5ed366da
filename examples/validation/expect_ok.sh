#!/bin/sh
# expect_ok.sh LINE PROGRAM [ARGS...] — run a validation program and check that
# it exits 0 and that its stdout is exactly the one line LINE (other engines'
# launchers may add lines of their own on stderr, which are not looked at).
set -u
want=$1
shift
out=$("$@")
status=$?
if [ "$status" -ne 0 ] || [ "$out" != "$want" ]; then
    echo "expect_ok: exit status $status, stdout:"
    printf '%s\n' "$out" | sed -e 's/^/  | /'
    echo "expect_ok: expected status 0 and exactly: $want"
    exit 1
fi
exit 0
