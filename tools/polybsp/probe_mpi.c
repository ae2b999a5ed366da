/* probe_mpi.c — polybsp-probe-mpi: `polybsp probe` on the MPI engine.
 *
 * Contract: `mpiexec -np N polybsp-probe-mpi [probe options]` calibrates the MPI
 * job as `polybsp probe` calibrates threads (same options, tables and machine
 * file, whose engine reads "mpi"); `polybsp probe --engine mpi` starts it so.
 * bsp_init comes first, so that only rank 0 reads the options and prints: the
 * other ranks wait in bsp_init to serve the probe's sections.
 */
#include "tool.h"

#include "probe/probe_measure.h"

#include <bsp.h>

int main(int argc, char **argv)
{
    bsp_init(probe_spmd, argc, argv);
    return cmd_probe(argc, argv);
}
