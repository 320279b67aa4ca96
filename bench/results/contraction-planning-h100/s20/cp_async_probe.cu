// Does compute-sanitizer memcheck honour cp.async's src-size (zero-fill) operand?
// Built: nvcc -arch=sm_90 -O2 -o probe_cpasync cp_async_probe.cu; run: compute-sanitizer --tool memcheck probe_cpasync ALLOC SRC_BYTES
#include <cstdio>
#include <cstdlib>
__global__ void k(const void* src, int srcBytes, float* out)
{
    __shared__ __align__(16) unsigned char s[16];
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(s));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(srcBytes) : "memory");
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    out[0] = s[0] + s[15];
}
int main(int argc, char** argv)
{
    int alloc = atoi(argv[1]), srcBytes = atoi(argv[2]);
    void* p; float* o;
    cudaMalloc(&p, alloc); cudaMalloc(&o, 4);
    cudaMemset(p, 1, alloc);
    k<<<1, 1>>>(p, srcBytes, o);
    cudaError_t e = cudaDeviceSynchronize();
    printf("alloc %d srcBytes %d: %s\n", alloc, srcBytes, cudaGetErrorString(e));
    return e != cudaSuccess;
}
