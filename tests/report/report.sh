#!/bin/sh
# report.sh TOOL DATA_DIR WORK_DIR — `polybsp report` writes the page predict's
# numbers make: on data/all_to_all.jsonl with data/machine.json (values of
# cost_predict_per_step_agree, computed by hand in tests/cost), the totals, the
# per-superstep cells, the highlighted superstep, three charts, and a trace
# name with HTML's special characters escaped in the page.
set -u
tool=$1
data=$2
work=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
odd="$work/a<b&c'd.jsonl"
cp "$data/all_to_all.jsonl" "$odd" || exit 1
out=$("$tool" report --machine "$data/machine.json" -o "$work/r.html" "$odd") || fail "status $?"
[ "$out" = "polybsp report: $work/r.html" ] || fail "stdout: $out"
page=$(cat "$work/r.html")
has() { printf '%s' "$page" | grep -qF -- "$1" || fail "the page lacks: $1"; }
has '<tr><th>REAL</th><td>0.0052</td><td></td></tr>'
has '<tr><th>BSP</th><td>0.005022</td><td>+3.4 %</td></tr>'
has '<td>0</td><td>normal</td>'
has '<td>0.0021</td><td>0.002011</td><td>+4.2 %</td>'
has 'Highlighted: superstep 0, where BSP is furthest from REAL.'
has 'a&lt;b&amp;c&#39;d.jsonl'
printf '%s' "$page" | grep -qF "a<b&c'd" && fail "the trace name is not escaped"
n=$(printf '%s' "$page" | grep -c '^<svg ')
[ "$n" -eq 3 ] || fail "$n charts, expected 3"
# The default output file, in the working directory.
(cd "$work" && "$tool" report --machine "$data/machine.json" "$data/all_to_all.jsonl" >/dev/null) ||
    fail "default output: status $?"
[ -s "$work/polybsp-report.html" ] || fail "no polybsp-report.html"
echo "OK: report"
