/* mpie — shared pieces of the MPI engine (engine/engine.h is its contract).
 *
 * mpie_blame: when a check finds misuse, every member knows whether it is the
 * culprit; the lowest culprit reports (one line, then MPI_Abort) and the others
 * wait to be stopped, so the run prints what the threads engine prints.
 */
#ifndef POLYBSP_MPIE_H
#define POLYBSP_MPIE_H

#include "core/core.h"

void mpie_blame(const core_ctx *c, int guilty, const char *call, const char *detail);
void mpie_check(int err, const char *what);
void mpie_keep(core_ctx *c, char *buf);
/* Makes comm the group's communicator and learns every member's run pid. */
void mpie_group_attach(core_group *g, MPI_Comm comm, int run_pid);

#endif
