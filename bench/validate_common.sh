# validate_common.sh — sourced by bench/validate.sh and bench/validate_remote.sh:
# the helpers both read traces and predictions with.
#   median               the median of the numbers on stdin ("nan" when none)
#   total KEY            the total KEY of predict's JSON on stdin
#   runs_at PROG P       true when PROG runs at P (matmul needs a perfect square)
#   cpu_sum TRACE [less-copy]
#                        the CPU time the trace records, summed over its
#       supersteps and processes; with less-copy, less each record's copy: the
#       work a trace carries to another machine, since predict leaves the copy
#       out of W (cost_transfer.c; absent on smpi: 0).

median() {
    sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

total() {
    sed -n 's/^  "total": {\(.*\)}.*/\1/p' | tr ',' '\n' | sed -n "s/^ *\"$1\": \\(.*\\)/\\1/p"
}

runs_at() {
    [ "$1" != matmul ] || awk -v p="$2" 'BEGIN {r = int(sqrt(p) + 0.5); exit !(r * r == p)}'
}

cpu_sum() {
    awk -v less="${2:-}" '{ c = 0; k = 0
        if (match($0, /"cpu":[-0-9.e+]*/)) c = substr($0, RSTART + 6, RLENGTH - 6) + 0
        if (less == "less-copy" && match($0, /"copy":[-0-9.e+]*/)) k = substr($0, RSTART + 7, RLENGTH - 7) + 0
        if (c > 0) s += c - (k < 0 ? 0 : k < c ? k : c) }
        END { printf "%.9g\n", s }' "$1"
}
