/* Layout factor weights of the contraction GEMM model (gemm_cost.c), per precision; features in
 * cuperm_ctr_gemm_features() order. Each row is one fit of tools/bench/contraction_gemm_fit.py
 * (rms of log(measured / model) in the sample):
 *   f16: gemm-sweep.csv.gz + gemm-sweep-deep.csv.gz, with the batch term at 2 ns per k step
 *        (CUPERM_SM90_GEMM_BATCH_K_SECONDS): 2452 GEMMs, base 0.583, with the factor 0.451
 *        (bench/results/contraction/model-refit-h100/candidates/gemm_fit-batch-term-sweep-deep.h;
 *        adopted after the H100 measurement in bench/results/contraction/batch-term-h100/)
 *   f32: gemm-sweep.csv, no batch term: 2300 GEMMs, base 0.524, with the factor 0.221 (the
 *        sweep + deep candidate's fp32 row and 10 ns term measured mixed there: not adopted)
 * The last two weights (misaligned leading dimensions or batch strides, and that x octaves of GFLOP
 * above one) come from tools/model/ctr_candidates.py --fit ... --only 17,18 on the GEMMs of every
 * candidate plan of TCCG48, random contractions (seed 1) and short-k (seed 1), f16 on an H200
 * (bench/results/contraction/gemm-padding-h200/): rms log error 0.746 -> 0.328 there, and 1.008 ->
 * 0.333 on the held-out random contractions of seed 2; fp32 has no such data yet (0).
 * Regenerate a row with the scripts; do not edit the numbers by hand.
 */
#ifndef CUPERM_CTR_GEMM_FIT_H
#define CUPERM_CTR_GEMM_FIT_H

/* [0]: 16-bit inputs on tensor cores, [1]: strict fp32. */
static const double cuperm_ctr_gemm_fit_weights[2][19] = {
    {0.12170, 0.06129, -0.02697, -0.01194, 0.04756, -0.02074, 0.14278, -0.03358, 0.01054, -0.02579, 0.02834, -0.02445, 0.12519, 0.05840, -0.03906, 0.00621, 0.02214, 0.61531, 0.12016}, /* f16 */
    {0.44614, 0.04267, -0.03512, -0.00652, -0.02774, -0.04637, 0.03691, -0.01681, 0.01582, -0.01647, 0.02084, -0.00188, 0.06058, 0.12219, -0.02527, 0.01446, -0.02727, 0.00000, 0.00000}, /* f32 */
};

#endif
