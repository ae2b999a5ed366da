#!/bin/sh
# browser.sh TOOL EXAMPLE WORK_DIR MACHINE RAW — the page of `polybsp report` in
# a real browser: a traced run of EXAMPLE at P = 2, its report with the machine
# file MACHINE and its probe's samples RAW (fixtures: a real probe on a noisy
# machine may rightly refuse to write a file, and probe.raw tests the real one),
# then headless Chromium (Debian's chromium) loads it: the page's own script
# must have found every one of its charts (the timeline, the two heat maps and
# the probe's Exchange and AllToAll) laid out with something drawn (body
# data-drawn="N of N", --dump-dom), every series of the timeline visible at
# some point (data-hidden=""), and the worst supersteps (from predict
# --per-step) shaded (data-marked); the probe's samples must be in the page, the
# screenshot must be written and hold more than a page of text, and Chromium
# must log no JavaScript error. Exit 77 (skipped) when chromium is not installed.
set -u
tool=$1
example=$2
work=$3
machine=$4
raw=$5
fail() { echo "FAIL: $*"; exit 1; }
browser=$(command -v chromium || command -v chromium-browser) || { echo "SKIP: no chromium"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
POLYBSP_NPROCS=2 POLYBSP_TRACE="$work/t.jsonl" "$example" >"$work/run.out" 2>&1 ||
    fail "the traced run failed: $(cat "$work/run.out")"
# --explain: the fixture machine file is another host's; its parameters
# explain this run (REAL and errors) rather than predict it for that host.
"$tool" report --explain --machine "$machine" --probe "$raw" -o "$work/r.html" "$work/t.jsonl" \
    >/dev/null || fail "report: status $?"
chrome() {
    # As root Chromium needs --no-sandbox; a fresh profile keeps runs apart.
    timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$work/profile" --enable-logging=stderr --v=0 --window-size=1000,1800 "$@"
}
chrome --dump-dom "file://$work/r.html" >"$work/dom.html" 2>"$work/dom.err" || fail "chromium --dump-dom: status $?"
body=$(grep -o '<body[^>]*>' "$work/dom.html")
echo "$body" | grep -Eq ' data-drawn="([5-9]|[1-9][0-9]+) of \1"' ||
    fail "the browser did not draw every chart: $body"
# What a person checks: every model's line can be seen (none lies hidden
# under another), and the supersteps where the first model (BSP) is furthest
# from REAL are shaded: worst first, every one whose |REAL - BSP| is at least a
# quarter of the largest, at most 12 (report_html.c, worst_steps), computed here
# from predict's numbers. A step tied with the first one left out may be either.
echo "$body" | grep -q ' data-hidden=""' || fail "lines hidden in the timeline: $body"
"$tool" predict --explain --machine "$machine" --model bsp --per-step --format csv "$work/t.jsonl" \
    >"$work/steps.csv" || fail "predict: status $?"
marked=" $(echo "$body" | sed -n 's/.* data-marked="\([^"]*\)".*/\1/p') "
worst=$(awk -F, '$1 ~ /^[0-9]+$/ { d = $2 - $3; print (d < 0 ? -d : d), $1 }' "$work/steps.csv" |
    sort -gr | awk '$1 > 0 { d[NR] = $1; s[NR] = $2; n = NR }
        END { k = 0; while (k < n && k < 12 && d[k + 1] >= 0.25 * d[1]) k++
              next_d = (k < n && d[k + 1] >= 0.25 * d[1]) ? d[k + 1] : -1
              for (j = 1; j <= k; j++) if (d[j] > next_d) print s[j] }')
[ -n "$worst" ] || fail "no superstep from predict: $(head -3 "$work/steps.csv")"
for step in $worst; do
    case $marked in *" $step "*) ;; *) fail "superstep $step (among the worst, at least a quarter of the largest gap) not shaded: $body" ;; esac
done
grep -q '<circle class="cloud' "$work/dom.html" || fail "no probe samples in the page"
chrome --screenshot="$work/r.png" "file://$work/r.html" >"$work/shot.out" 2>"$work/shot.err" ||
    fail "chromium --screenshot: status $?"
size=$(wc -c <"$work/r.png" 2>/dev/null || echo 0)
# At 1000x1800 a blank page's PNG is about 9 KB and a page of text alone about
# 16 KB; with the tables, the timeline and the heat maps it is over 150 KB.
[ "$size" -gt 50000 ] || fail "the screenshot is $size bytes: no charts drawn?"
if grep -h 'Uncaught\|CONSOLE.*rror' "$work/dom.err" "$work/shot.err"; then
    fail "JavaScript errors in the page"
fi
echo "OK: report drawn in $browser"
