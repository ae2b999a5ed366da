# traced_run.sh — sourced by the cost tests that check what a traced run wrote
# (self_traffic.sh, regs_field.sh, from_bytes.sh). Sets $trace, a temporary
# file removed at exit. traced_run NAME COMMAND... runs COMMAND with
# POLYBSP_TRACE=$trace and its output discarded; a failed run fails the test.
# fail MESSAGE then prints "NAME: MESSAGE" and the trace, and fails it.
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT
traced_run() {
    traced_name=$1
    shift
    POLYBSP_TRACE=$trace "$@" >/dev/null || { echo "$traced_name: the run failed" >&2; exit 1; }
}
fail() {
    echo "$traced_name: $1" >&2
    cat "$trace" >&2
    exit 1
}
