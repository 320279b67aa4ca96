/* Lets one definition compile as host C and as CUDA device code. */
#ifndef CUPERM_COMMON_HD_H
#define CUPERM_COMMON_HD_H

#if defined(__CUDACC__)
#  define CUPERM_HD __host__ __device__ __forceinline__
#else
#  define CUPERM_HD static inline
#endif

#endif
