#!/bin/sh
# portability.sh TOOL WORK_DIR — `polybsp portability --engine smpi` runs the
# suite on a simulated platform: cluster-16x8 calibrated at P = 2, 4 (quick),
# then the quick suite at P = 4 with that file, as JSON. The output must say
# engine smpi, P = 4, the machine's host cluster-16x8, and give every model of
# the five an eta within and an eta (1) of at least 1 over all 16 families; the
# table's run line must not call P = 4 oversubscribed (the platform has the
# cores, whatever this machine has).
set -u
tool=$1
work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
"$tool" probe --engine smpi --platform cluster-16x8 --quick --quiet --procs 2,4 -o m.json \
    >probe.out 2>&1 || fail "probe: status $?: $(tail -n 3 probe.out)"
"$tool" portability --engine smpi --platform cluster-16x8 -p 4 --machine m.json --quick -q \
    --format json >eta.json 2>err.txt || fail "portability: status $?: $(cat err.txt)"
grep -q '"engine": "smpi",' eta.json || fail "engine: $(grep '"engine"' eta.json)"
grep -q '"procs": 4,' eta.json || fail "procs: $(grep '"procs"' eta.json)"
grep -q '"machine_host": "cluster-16x8",' eta.json || fail "host: $(grep '"machine_host"' eta.json)"
for model in bsp bspstar ebsp dbsp ccm; do
    line=$(grep "^ *\"$model\": {\"families\": 16," eta.json) || fail "$model: no estimate over 16 families"
    echo "$line" | awk -v m="$model" '{
        if (!match($0, /"eta_within": [0-9.e+-]+/)) { print "FAIL: " m ": no eta_within"; exit 1 }
        w = substr($0, RSTART + 14, RLENGTH - 14)
        if (!match($0, /"eta": [0-9.e+-]+/)) { print "FAIL: " m ": no eta"; exit 1 }
        e = substr($0, RSTART + 7, RLENGTH - 7)
        if (w < 1 || e < 1) { print "FAIL: " m ": eta within " w ", eta " e " below 1"; exit 1 } }' ||
        exit 1
done
"$tool" portability --engine smpi --platform cluster-16x8 -p 4 --machine m.json --quick -q \
    --repeats 1 >table.txt 2>err.txt || fail "portability (table): status $?: $(cat err.txt)"
grep -q '^run         P = 4, engine smpi,' table.txt || fail "run line: $(grep '^run' table.txt)"
echo "OK: smpi portability"
