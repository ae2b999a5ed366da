#!/bin/sh
# expect_error.sh — run a program and check its exit status and its stderr.
#
# Usage: expect_error.sh STATUS LINE PROGRAM [ARGS...]
#   STATUS  the exit status the program must return, or a signal name such as
#           SEGV by which it must die.
#   LINE    the one line stderr must hold, compared exactly; "" means stderr
#           must be empty. Two placeholders match what a test cannot know in
#           advance: ADDR (an address printed with %p), ANYPID (a process
#           number, where any process may be the one to report), ANYNUM (a
#           number that depends on the machine, such as its memory) and
#           MEMBOUND (which bound on memory decided: "available memory" or
#           "the cgroup's limit", core_mem.h).
# Exit status 0 when both match; 1 with a diagnostic otherwise.
# With EXPECT_ERROR_MPI=1 (programs started by mpirun), only polybsp's own lines
# count, each once: mpirun adds banners of its own, and an error found before
# the ranks split (a call before bsp_begin) is printed by every rank.
set -u

want_status=$1
want_line=$2
shift 2

err=$(mktemp "${TMPDIR:-/tmp}/expect_error.XXXXXX") || exit 1
trap 'rm -f "$err"' EXIT HUP INT TERM

# In a subshell: a shell reports a child's death by a signal on its own stderr,
# which must not land in the file under test.
("$@" 2>"$err")
status=$?
if [ "${EXPECT_ERROR_MPI:-0}" = 1 ]; then
  grep '^polybsp:' "$err" | awk '!seen[$0]++' >"$err.mpi"
  mv "$err.mpi" "$err"
fi

fail=0
case $want_status in
  [0-9]*)
    if [ "$status" -ne "$want_status" ]; then
      echo "expect_error: exit status $status, expected $want_status"
      fail=1
    fi ;;
  *)
    if [ "$status" -le 128 ] || [ "$(kill -l "$status")" != "$want_status" ]; then
      echo "expect_error: exit status $status, expected death by SIG$want_status"
      fail=1
    fi ;;
esac

if [ -z "$want_line" ]; then
  if [ -s "$err" ]; then
    echo "expect_error: stderr should be empty"
    fail=1
  fi
else
  # Escape every ERE metacharacter of LINE, then open up the placeholders.
  re=$(printf '%s\n' "$want_line" |
    sed -e 's/[][\\.*^$+?(){}|]/\\&/g' \
        -e 's/ADDR/(0x[0-9a-fA-F]+|\\(nil\\))/g' \
        -e 's/ANYPID/[0-9]+/g' \
        -e 's/ANYNUM/[0-9]+(\\.[0-9]+)?/g' \
        -e "s/MEMBOUND/(available memory|the cgroup's limit)/g")
  lines=$(wc -l <"$err" | tr -d " ")
  if [ "$lines" -ne 1 ] || ! grep -Eqx -- "$re" "$err"; then
    echo "expect_error: stderr should be exactly this one line:"
    printf '  %s\n' "$want_line"
    fail=1
  fi
fi

if [ "$fail" -ne 0 ]; then
  echo "expect_error: stderr was:"
  sed -e 's/^/  | /' "$err"
fi
exit "$fail"
