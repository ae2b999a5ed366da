#!/bin/sh
# progress.sh MODE WHO TOOL ARGS... — the progress of `polybsp WHO` (progress.h):
#   quiet     (ARGS include --quiet) stderr is empty;
#   lines     stderr is not a terminal: at least one line, every line
#             "polybsp WHO: ..." (percent and phase, or a phase alone);
#   terminal  under script(1), a terminal: the line is rewritten in place
#             ("\r...\033[K") and erased at the end, so the terminal's last
#             progress bytes are "\r\033[K".
# The command must succeed in every mode.
set -u
mode=$1
who=$2
shift 2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fail() {
    echo "FAIL ($mode): $*"
    sed -n 1,20p "$err"
    exit 1
}
case $mode in
quiet | lines)
    "$@" >/dev/null 2>"$err" || fail "exit status $?"
    if [ "$mode" = quiet ]; then
        if [ -s "$err" ]; then fail "stderr is not empty"; fi
    else
        [ -s "$err" ] || fail "no progress line on stderr"
        bad=$(grep -cv "^polybsp $who: " "$err")
        [ "$bad" -eq 0 ] || fail "$bad stderr lines do not start with 'polybsp $who: '"
    fi
    ;;
terminal)
    # script runs the command on a pseudo-terminal; its output is the terminal's.
    cmd=""
    for a in "$@"; do cmd="$cmd '$a'"; done
    script -qec "$cmd 2>&1 >/dev/null" /dev/null >"$err" </dev/null || fail "exit status $?"
    grep -q "$(printf '\rpolybsp %s: ' "$who")" "$err" || fail "no line rewritten in place"
    # script may turn the last newline into \r\n; what precedes it must be the erase.
    printf '\r\033[K' >"$err.want"
    tr -d '\n' <"$err" | sed 's/\r$//' | tail -c 4 | cmp -s - "$err.want" ||
        { rm -f "$err.want"; fail "the progress line is not erased at the end"; }
    rm -f "$err.want"
    ;;
*)
    echo "usage: progress.sh quiet|lines|terminal WHO TOOL ARGS..." >&2
    exit 2
    ;;
esac
exit 0
