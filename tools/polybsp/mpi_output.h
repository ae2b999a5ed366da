/* mpi_output — whole lines from the ranks of an Open MPI job.
 *
 * Open MPI's mpiexec passes on each rank's output in the pieces it reads (at
 * most 4 KiB), so a line of one rank can be cut by a piece of another's
 * (BSPedupack's lu lost and spliced lines). With --tag-output every piece
 * carries its rank, `[J,R]<stdout>:` or `<stderr>:`; mpi_output reads
 * mpiexec's stdout and stderr through pipes, puts each rank's pieces back
 * together and writes whole lines, without the tags: a rank's stdout to this
 * process's stdout, or to DIR/R.out with an output directory; its stderr to
 * this process's stderr. mpiexec's own text passes unchanged. A rank's
 * unfinished line (a prompt) is written once the whole job has been quiet for
 * a moment (0.1 s), so that an interactive program still shows it; while
 * output flows it waits, since the launcher's reads split lines too.
 *
 * Use: mpi_output_open before the fork; mpi_output_child in the child, before
 * exec; mpi_output_pump in the parent, which returns once both pipes are
 * closed or the child has ended, and frees everything.
 */
#ifndef POLYBSP_TOOL_MPI_OUTPUT_H
#define POLYBSP_TOOL_MPI_OUTPUT_H

#include <sys/types.h>

typedef struct mpi_output mpi_output;

/* NULL, after one line `polybsp: CMD: ...`, when the pipes or the directory
 * (created if missing; NULL: none) cannot be made. */
mpi_output *mpi_output_open(const char *cmd, const char *dir);
/* In the child: its stdout and stderr become the pipes. */
void mpi_output_child(mpi_output *o);
/* In the parent: passes the job's output on until it ends; child is mpiexec. */
void mpi_output_pump(mpi_output *o, pid_t child);

#endif
