/*
 * Whether this CPU runs the kernels' AVX2 + FMA paths (the blurs and the bilateral sums); asked
 * at run time, since one build serves machines with and without them.
 */
#ifndef DR_CPU_FEATURES_H
#define DR_CPU_FEATURES_H

static inline int dr_has_avx2_fma(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

#endif
