/* mapped_kernel.h — two loops that call into the C libraries (mapped_kernel.c),
 * for bench_mapped: where a program's code is mapped changes what such calls
 * cost (docs/performance.md, "Where the program is mapped").
 *
 * mapped_fmax_chain: the largest |a[i] - b[i]| over n values, one fmax call each.
 * mapped_sort: a[0..n) sorted ascending by qsort with a comparator of this file. */
#ifndef POLYBSP_BENCH_MAPPED_KERNEL_H
#define POLYBSP_BENCH_MAPPED_KERNEL_H

double mapped_fmax_chain(const double *a, const double *b, long n);
void mapped_sort(double *a, long n);

#endif
