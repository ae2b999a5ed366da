#!/bin/sh
# trace_file.sh POLYBSP MACHINE BAD_INPUT: what a traced run leaves in POLYBSP_TRACE's place.
#  - a run that crashes (bad_input segv) replaces an older run's complete trace by
#    its own header alone, which predict refuses as having no records;
#  - a symbolic link at the trace's path is refused, its target untouched;
#  - no temporary file is left beside the trace, after success or failure.
set -u
polybsp=$1 machine=$2 bad=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/trace_file.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM
cd "$dir" || exit 1
fail() {
    echo "trace_file.sh: $*"
    exit 1
}

# An older run's trace, complete.
POLYBSP_TRACE=t.jsonl "$bad" get_tag_empty || fail "the traced run failed"
tail -n 1 t.jsonl | grep -qx '{"end":"complete"}' || fail "no complete trace: $(cat t.jsonl)"
# This run dies by a signal before bsp_end.
(POLYBSP_TRACE=t.jsonl "$bad" segv 1 2>/dev/null)
[ "$(wc -l <t.jsonl | tr -d ' ')" = 1 ] || fail "expected the header alone: $(cat t.jsonl)"
grep -q '"format":"polybsp-trace"' t.jsonl || fail "not a trace header: $(cat t.jsonl)"
want="polybsp: predict: t.jsonl:1: no superstep records (expected at least one line per process per superstep after the header)"
got=$("$polybsp" predict --machine "$machine" t.jsonl 2>&1 >/dev/null)
[ "$got" = "$want" ] || fail "predict said: $got"

# A link is neither followed nor replaced.
echo keep >target
ln -s target link.jsonl
got=$(POLYBSP_TRACE=link.jsonl "$bad" get_tag_empty 2>&1)
[ "$got" = "polybsp: bsp_begin: cannot write the trace link.jsonl: not a regular file (a symbolic link)" ] ||
    fail "link: $got"
[ -L link.jsonl ] && [ "$(cat target)" = keep ] || fail "the link or its target changed"

left=$(ls | grep -v -x -e t.jsonl -e target -e link.jsonl)
[ -z "$left" ] || fail "files left behind: $left"
exit 0
