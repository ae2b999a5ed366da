#!/bin/sh
# report.sh TOOL DATA_DIR WORK_DIR ETA_FILE RAW_FILE — `polybsp report` writes the page predict's
# numbers make: on data/all_to_all.jsonl with data/machine.json (values of
# cost_predict_per_step_agree, computed by hand in tests/cost), the totals, the
# per-superstep cells, the shaded supersteps, the models that agree, five charts (timeline, h, w,
# and the probe's two patterns in machine.json: Exchange and AllToAll, with the
# pattern's line and the BSP line at hand-computed points), and a trace name
# with HTML's special characters escaped in the page.
set -u
tool=$1
data=$2
work=$3
eta=$4
raw=$5
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
has 'BSP, BSP* and EBSP agree within 1 % at every superstep: their lines lie on each other, drawn as nested bands.'
has 'Shaded: supersteps 0, 1, where BSP is furthest from REAL (at least 25 % of its largest gap): 100 % of the summed |REAL &minus; BSP|.'
has '<tr class="worst"><td>0</td>'
has '<tr class="worst"><td>1</td>'
has '<rect class="highlight" data-step="0"'
# The patterns the machine file lacks say why; a negative intercept is explained.
has '<h3>OneToAll</h3>'
has '<p class="absent">Not in the machine file: paper 000 measures this pattern from P = 4'
has '<p class="negative">A negative intercept (the fit'"'"'s L = -1.18e-05 s)'
has 'a&lt;b&amp;c&#39;d.jsonl'
printf '%s' "$page" | grep -qF "a<b&c'd" && fail "the trace name is not escaped"
n=$(printf '%s' "$page" | grep -c '^<svg ')
[ "$n" -eq 5 ] || fail "$n charts, expected 5"
has '<h3>Exchange</h3>'
has '<h3>AllToAll</h3>'
has '>BSP 1e-09 h + 1e-05</text>'
# --portability: the eta table of a hand-written summary (null: n/a).
"$tool" report --machine "$data/machine.json" --portability "$eta" -o "$work/e.html" \
    "$data/all_to_all.jsonl" >/dev/null || fail "--portability: status $?"
page=$(cat "$work/e.html")
has '(2026-11-25T04:45:01Z, engine threads, P = 2, --quick, machine file m&lt;1&gt;.json)'
has '<tr><th>bsp</th><td>2/2</td><td>1/2</td><td>1.25</td><td>1.5</td><td>2.75</td><td>3.125</td></tr>'
has '<tr><th>dbsp</th><td>2/2</td><td>2/2</td><td>1</td><td>1.062</td><td>n/a</td><td>1.5</td></tr>'
# ... and the model it names to trust (on the programs proper) beside the least
# delta over every family.
has '<p>The model to trust: <b>bsp</b>, the least delta over the programs proper (FFT, inner product, irregular relation), which the probe does not run; the least over every family above: dbsp.</p>'
# --probe: the raw samples around the lines (data/raw.json, of machine.json's
# run): Exchange has P = 2's four samples and P = 4's four, of which 0.009 is
# more than 3 times the chart's top (0.001058, the average at 107520 bytes) and
# goes on the top edge; AllToAll P = 4's two; bsp_hpput and the empty superstep
# are not drawn.
"$tool" report --machine "$data/machine.json" --probe "$raw" -o "$work/p.html" \
    "$data/all_to_all.jsonl" >/dev/null || fail "--probe: status $?"
page=$(cat "$work/p.html")
n=$(printf '%s' "$page" | grep -c '<circle class="cloud"')
[ "$n" -eq 9 ] || fail "$n samples drawn, expected 9"
n=$(printf '%s' "$page" | grep -c '<circle class="cloud-over"')
[ "$n" -eq 1 ] || fail "$n samples on the top edge, expected 1"
has '>samples, P = 2</text>'
has '>samples, P = 4 (1 off the top)</text>'
has "$(printf '>fit 9.89e-09 h \342\210\222 1.18e-05</text>')" # L < 0: a minus sign, U+2212
# The default output file, in the working directory.
(cd "$work" && "$tool" report --machine "$data/machine.json" "$data/all_to_all.jsonl" >/dev/null) ||
    fail "default output: status $?"
[ -s "$work/polybsp-report.html" ] || fail "no polybsp-report.html"
# A solo trace (POLYBSP_SOLO=on: "solo":1 in its header) is said to be one; the
# page of the same trace without it says nothing of the kind.
sed '1s/}$/,"solo":1}/' "$data/all_to_all.jsonl" >"$work/solo.jsonl" || exit 1
"$tool" report --machine "$data/machine.json" -o "$work/s.html" "$work/solo.jsonl" >/dev/null ||
    fail "solo: status $?"
page=$(cat "$work/s.html")
has "supersteps; traced solo (POLYBSP_SOLO=on or smpi): one process computed at a time, so REAL is the processes taking turns, not a parallel run's time</td>"
grep -qF "traced solo" "$work/r.html" && fail "a trace without solo is said to be solo"
echo "OK: report"
