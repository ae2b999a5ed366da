/* report.c — `polybsp report --machine FILE TRACE`: one HTML page with the
 * traced run against every model, per superstep (predict.h does the work,
 * report_html.c draws it; docs/report.md). */
#include "predict.h"
#include "tool.h"

const char *const cmd_report_help[] = {
    "usage: polybsp report --machine FILE [-o FILE.html] [--model MODEL]...\n"
    "                      [--probe FILE] [--portability FILE] [--work measured|whole|ops]\n"
    "                      [--dbsp-label traffic|group] [--ccm-plain bsp|patterns]\n"
    "                      [--faults kind|fresh|after-read|none] TRACE\n"
    "\n"
    "Writes one self-contained HTML page (no network needed to open it) about a\n"
    "traced run: what was used, REAL against each model in total and per superstep\n"
    "(a timeline with the supersteps of the largest errors shaded), the numbers\n"
    "per superstep, and heat maps of the traffic h and the work w of every process\n"
    "in every superstep, and the probe's measurements with its fitted lines. The\n"
    "numbers are those of `polybsp predict --per-step`.\n"
    "\n"
    "options:\n"
    "  --machine FILE     the machine file written by `polybsp probe` (required)\n"
    "  -o, --output FILE  where the page goes (default polybsp-report.html)\n"
    "  --model MODEL      bsp, bspstar, ebsp, dbsp, ccm or all (the default),\n"
    "                     as for `polybsp predict`\n"
    "  --probe FILE       draw every sample of the probe run that wrote the machine\n"
    "                     file around its lines (from `polybsp probe --raw FILE`)\n"
    "  --portability FILE add the eta table of a `polybsp portability --format json`\n"
    "                     run: which model ranks programs as this machine does\n"
    "  --work WORK        measured (default), whole or ops, as for `polybsp predict`\n"
    "  --dbsp-label LABEL group (default) or traffic, as for `polybsp predict`\n"
    "  --ccm-plain PLAIN  patterns (default) or bsp, as for `polybsp predict`\n"
    "  --faults CHARGE    kind (default), fresh, after-read or none, as for `polybsp\n"
    "                     predict`\n"
    "  -h, --help         show this help\n"
    "\n"
    "Prints 'polybsp report: FILE' when written. docs/report.md explains the page.\n"
    "Bad usage or input exits with status 2.\n",
    NULL};

int cmd_report(int argc, char **argv) { return predict_main(argc, argv, "report"); }
