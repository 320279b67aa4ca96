/* The parts of cuperm-dist-test that main (dist_test.c) runs; each returns nonzero on a failure. */
#ifndef CUPERM_TEST_DIST_PARTS_H
#define CUPERM_TEST_DIST_PARTS_H

/* redistribution_cases.c: one random redistribution (smaller with quick), case number id. */
int dt_correctness_case(int id, int quick);
/* error_cases.c: every error-agreement case, the bad descriptor on the first rank, then on the last. */
int dt_error_cases(void);
/* redistribution_bench.c: the redistribution benchmark, gb GB per GPU for the large cases. */
int dt_bench(double gb, int iters);
/* redistribution_bench.c: the held-out suite, count random 6-D redistributions of gb GB per GPU. */
int dt_bench_random(double gb, int iters, int count);
/* redistribution_phases.c: the benchmark's reverse case taken apart, each phase timed alone (2 ranks). */
int dt_phases(double gb, int iters);
/* contraction_cases.c: one random distributed contraction, case number id. */
int dt_contraction_case(int id);
/* contraction_bench.c: the distributed-contraction benchmark. */
int dt_ctr_bench(int iters);

#endif
