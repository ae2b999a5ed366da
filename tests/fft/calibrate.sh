#!/bin/sh
# calibrate.sh FFT — `fft --calibrate` prints the three constants and writes them
# as JSON (docs/fft.md): every constant a positive number. Exit 0 when it does.
set -u
fft=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/fft-calibrate.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM

if ! "$fft" --calibrate -n 2^12 --constants "$dir/c.json" >"$dir/out" 2>&1; then
  echo "calibrate.sh: fft --calibrate failed:"; cat "$dir/out"; exit 1
fi
fail=0
for c in D F V; do
  grep -Eq "^calibrate: $c = [0-9]\.[0-9]+e[-+][0-9]+ seconds per " "$dir/out" ||
    { echo "calibrate.sh: no line for $c"; fail=1; }
  # A positive number: a non-zero leading digit in %e notation.
  grep -Eq "^  \"$c\": [1-9]\.[0-9]+e[-+][0-9]+,\$" "$dir/c.json" ||
    { echo "calibrate.sh: no positive \"$c\" in the JSON file"; fail=1; }
done
grep -q '"format": "polybsp-fft-constants"' "$dir/c.json" ||
  { echo "calibrate.sh: the JSON file lacks its format"; fail=1; }
# Sizes 2^6 .. 2^12: seven samples.
[ "$(grep -c '{"m": ' "$dir/c.json")" -eq 7 ] || { echo "calibrate.sh: expected 7 samples"; fail=1; }
if [ $fail -ne 0 ]; then cat "$dir/out" "$dir/c.json"; fi
exit $fail
