# medians.awk — the median over rounds of every figure, shared by the bench
# drivers (bench/run.sh, bench/coll/run.sh, bench/fft/run_fft.sh).
# Input: one line per figure and round, the figure's name in field `key`, its
# value in field `value` and, when `unit` is not 0, its unit in field `unit`.
# Output, one line per figure: NAME MEDIAN MIN MAX UNIT (UNIT "-" without one),
# the median of an even count being the mean of the two middle values.
# Usage: awk -v key=2 -v value=3 -v unit=4 -f medians.awk FILE
{
    v[$key] = v[$key] " " $value
    u[$key] = unit ? $unit : "-"
}
END {
    for (k in v) {
        n = split(substr(v[k], 2), a, " ")
        for (i = 2; i <= n; i++) {
            x = a[i]
            for (j = i - 1; j > 0 && a[j] + 0 > x + 0; j--)
                a[j + 1] = a[j]
            a[j + 1] = x
        }
        m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        print k, m, a[1], a[n], u[k]
    }
}
