/* portability_suite — the programs of `polybsp portability`: families of
 * ρ-equivalent BSP programs (each family one problem, its programs different
 * ways to solve it, which compute the same result and check it) and how one of
 * them runs traced.
 *
 * Contract: suite_build lists the families at P processes (docs/models.md has
 * the table); program i is variant suite.variant[i] of family
 * suite.family_of[i], and family f holds the programs start[f] .. start[f+1)-1.
 * suite_run runs program i in an SPMD section of its own on P processes: set
 * up, `loops` executions to warm caches and buffers, then `loops` executions
 * traced between bsp_trace_begin and bsp_trace_end, into polybsp-trace.jsonl
 * of the working directory; a program whose result is wrong stops the run
 * through bsp_abort. bsp_init(portability_spmd, ...) is called by suite_run
 * (on the MPI engine, main calls it first, and only rank 0 calls suite_run:
 * the program is handed to the other ranks at the start of the section).
 */
#ifndef POLYBSP_PORTABILITY_SUITE_H
#define POLYBSP_PORTABILITY_SUITE_H

#include "cost/cost_machine.h"

#include <stddef.h>

typedef enum { FAM_FFT, FAM_BCAST, FAM_PATTERN, FAM_INPROD, FAM_IRREGULAR, NKINDS } family_kind;

enum { MAX_FAMILIES = 32, MAX_PROGRAMS = 128 };

typedef struct family {
    family_kind kind;
    cost_pattern pattern; /* FAM_PATTERN */
    long size;
    int loops; /* executions per traced run, set by the caller */
    char name[48];
    size_t first, n; /* its programs */
} family;

typedef struct suite {
    size_t nfamilies, nprograms;
    family families[MAX_FAMILIES];
    size_t start[MAX_FAMILIES + 1];
    size_t family_of[MAX_PROGRAMS];
    int variant[MAX_PROGRAMS];
} suite;

/* The suite at procs processes (--quick: small sizes); an FFT size that the
 * four-step FFT cannot do at P (P^2 must divide n) is left out. */
void suite_build(suite *s, int quick, int procs);
/* Whether the probe runs kind k's very programs, so that the models'
 * parameters are fitted on their times: 1 for the five patterns (BSP's g and
 * L, BSP*'s, CCM's h-relation functions) and the broadcasts (CCM's broadcast
 * functions); 0 for the FFT, the inner product and the irregular relation,
 * the suite's programs proper, which `polybsp portability` names the model to
 * trust by (docs/models.md, "Which model to trust"). */
int suite_kind_calibrated(family_kind k);
/* "fft", "bcast", "pattern", "inprod", "irregular". */
const char *suite_kind_name(family_kind k);
/* The variant name of program i, e.g. "TWOPHASE". */
const char *suite_variant(const suite *s, size_t i);
/* Runs program i once, traced, as the header says. */
void suite_run(const suite *s, size_t i, int procs, int loops);

#endif
