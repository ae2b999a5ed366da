/* portability_mpi.c — polybsp-portability-mpi: `polybsp portability` on the MPI engine.
 *
 * Contract: `mpiexec -np P polybsp-portability-mpi --machine FILE -p P [options]`
 * runs the suite as `polybsp portability` does on threads (same options and
 * output, engine "mpi"); `polybsp portability --engine mpi` starts it so.
 * bsp_init comes first, so that only rank 0 runs the command and prints: the
 * other ranks wait in bsp_init to serve the suite's sections.
 */
#include "tool.h"

#include <bsp.h>

int main(int argc, char **argv)
{
    bsp_init(portability_spmd, argc, argv);
    return cmd_portability(argc, argv);
}
