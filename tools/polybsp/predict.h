/* predict — the code behind `polybsp predict` and `polybsp report`.
 *
 * Contract: predict_main(argc, argv, as) reads the options, the machine file and
 * the trace, evaluates the models and writes what `polybsp <as>` writes: as =
 * "predict" (a table, CSV, JSON or HTML; standard output or -o FILE) or "report"
 * (the HTML page, to -o FILE or polybsp-report.html, and one line saying where).
 * Messages start with `polybsp: <as>:`. Returns the command's exit status.
 */
#ifndef POLYBSP_PREDICT_H
#define POLYBSP_PREDICT_H

int predict_main(int argc, char **argv, const char *as);

#endif
