# noted_absent STDOUT — sourced by the probe tests: the fits a probe's STDOUT
# notes as noise-dominated ("g <= 0 ... left out"), named as check_machine's
# ABSENT arguments: "put.exchange", "dbsp.1", "P4". A busy machine may tilt any
# fit, and the probe then leaves it out of the file and says so.
noted_absent() {
    sed -n -e 's/^note  *bsp_\([a-z]*\) \([a-z]*\): g <= 0.*/\1.\2/p' \
        -e 's/^note  *D-BSP level \([0-9]*\): g <= 0.*/dbsp.\1/p' \
        -e 's/^note  *P = \([0-9]*\): g <= 0.*/P\1/p' "$1"
}
