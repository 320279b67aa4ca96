// Does a transfer between two GPUs overlap local memory-bound kernels, and does it matter whether
// SMs (NCCL's kernels, peer stores) or copy engines (NCCL's zero-CTA all-to-all, cudaMemcpyPeer)
// move the bytes?  Session 8 found the exchange hides none of the redistribution's local traffic;
// this probe measures the mechanism on plain buffers, outside the library.
//
// One process, both GPUs (ncclCommInitAll), B bytes to the peer per GPU, a local copy kernel of L
// bytes (read L, write L) beside it. Every row: median and best of ITERS timed runs after warm-ups,
// time = the slower GPU's (events on each GPU's main stream, side streams forked and joined).
//
//   nvcc -O3 -std=c++17 -arch=sm_90 ce_overlap_probe.cu -lnccl -o ce_overlap_probe
//   ./ce_overlap_probe [B_MB=512] [L_MB=1024] [ITERS=15]
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define NK(x)                                                                                      \
    do {                                                                                           \
        ncclResult_t r_ = (x);                                                                     \
        if (r_ != ncclSuccess) {                                                                   \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, ncclGetErrorString(r_));     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

__global__ void copy_kernel(const float4* __restrict__ s, float4* __restrict__ d, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = s[i];
}

__global__ void fill_kernel(float* p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (float)((i * 2654435761u + seed) & 0xffffff);
}

enum { G = 2 };
struct Gpu {
    cudaStream_t main, comm, local, aux;
    cudaEvent_t t0, t1, fork, join[3];
    float *sbuf, *rbuf, *zs, *zr; // 2B each: [part for rank 0 | part for rank 1]
    float *ds, *dr;               // 2B each, windows of the default communicator
    float *lsrc, *ldst;           // L each
    float* ubuf;                  // 2B: the pipelines' unpacked output
    ncclWindow_t ws, wr, dws, dwr;
};
static Gpu g[G];
static ncclComm_t comm[G], zcomm[G];
static size_t B, L;
static int sms;

// One timed run: fork side streams off main, enqueue, join, time on each GPU, return the slower.
static float timed(const std::function<void(int)>& enqueue_all)
{
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        CK(cudaEventRecord(g[d].t0, g[d].main));
        CK(cudaEventRecord(g[d].fork, g[d].main));
        CK(cudaStreamWaitEvent(g[d].comm, g[d].fork));
        CK(cudaStreamWaitEvent(g[d].local, g[d].fork));
        CK(cudaStreamWaitEvent(g[d].aux, g[d].fork));
    }
    enqueue_all(0);
    float worst = 0;
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        cudaStream_t side[3] = {g[d].comm, g[d].local, g[d].aux};
        for (int k = 0; k < 3; ++k) {
            CK(cudaEventRecord(g[d].join[k], side[k]));
            CK(cudaStreamWaitEvent(g[d].main, g[d].join[k]));
        }
        CK(cudaEventRecord(g[d].t1, g[d].main));
    }
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        CK(cudaEventSynchronize(g[d].t1));
        float ms;
        CK(cudaEventElapsedTime(&ms, g[d].t0, g[d].t1));
        worst = std::max(worst, ms);
    }
    return worst;
}

static int iters = 15;
static void row(const char* name, const std::function<void(int)>& f, double link_bytes)
{
    for (int w = 0; w < 3; ++w) timed(f);
    std::vector<float> t;
    for (int i = 0; i < iters; ++i) t.push_back(timed(f));
    std::sort(t.begin(), t.end());
    const float med = t[t.size() / 2];
    printf("%-52s median %8.4f ms  best %8.4f ms", name, med, t[0]);
    if (link_bytes > 0) printf("  link %6.1f GB/s each way", link_bytes / (med * 1e-3) / 1e9);
    printf("\n");
    fflush(stdout);
}

// ---- the pieces (each enqueues on both GPUs) ----
static void send_recv(ncclComm_t* c, float** sb, float** rb, size_t bytes, size_t off)
{
    NK(ncclGroupStart());
    for (int d = 0; d < G; ++d) {
        const int p = 1 - d;
        NK(ncclSend((char*)sb[d] + p * B + off, bytes / 4, ncclFloat, p, c[d], g[d].comm));
        NK(ncclRecv((char*)rb[d] + p * B + off, bytes / 4, ncclFloat, p, c[d], g[d].comm));
    }
    NK(ncclGroupEnd());
}
// All-to-all of `bytes` per peer; the buffers laid out [rank 0 part | rank 1 part] with parts B apart
// when bytes == B, else chunk c of `chunks` laid out as its own [2 x bytes] region.
static void all_to_all(ncclComm_t* c, float** sb, float** rb, size_t bytes, size_t region_off)
{
    NK(ncclGroupStart());
    for (int d = 0; d < G; ++d)
        NK(ncclAlltoAll((char*)sb[d] + region_off, (char*)rb[d] + region_off, bytes / 4, ncclFloat, c[d], g[d].comm));
    NK(ncclGroupEnd());
}
static void local_copy(int d, cudaStream_t s, size_t bytes, int blocks, size_t off = 0)
{
    CK(cudaSetDevice(d));
    copy_kernel<<<blocks, 256, 0, s>>>((const float4*)((char*)g[d].lsrc + off), (float4*)((char*)g[d].ldst + off), bytes / 16);
    CK(cudaGetLastError());
}
static void peer_copy(size_t bytes)
{
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        const int p = 1 - d;
        CK(cudaMemcpyPeerAsync((char*)g[p].rbuf + d * B, p, (char*)g[d].sbuf + p * B, d, bytes, g[d].comm));
    }
}
static void push_stores(size_t bytes, int blocks)
{
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        const int p = 1 - d;
        copy_kernel<<<blocks, 256, 0, g[d].comm>>>((const float4*)((char*)g[d].sbuf + p * B),
                                                   (float4*)((char*)g[p].rbuf + d * B), bytes / 16);
        CK(cudaGetLastError());
    }
}

int main(int argc, char** argv)
{
    B = (size_t)(argc > 1 ? atof(argv[1]) : 512) << 20;
    L = (size_t)(argc > 2 ? atof(argv[2]) : 1024) << 20;
    if (argc > 3) iters = atoi(argv[3]);
    int ndev = 0;
    CK(cudaGetDeviceCount(&ndev));
    if (ndev < 2) { printf("SKIPPED: needs 2 GPUs, found %d\n", ndev); return 0; }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    sms = prop.multiProcessorCount;
    int ver;
    NK(ncclGetVersion(&ver));
    printf("GPU %s x2, %d SMs; NCCL %d; B = %zu MiB to the peer per GPU, local copy L = %zu MiB\n", prop.name, sms,
           ver, B >> 20, L >> 20);

    int devs[G] = {0, 1};
    NK(ncclCommInitAll(comm, G, devs));
    ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
    cfg.CTAPolicy = NCCL_CTA_POLICY_ZERO;
    NK(ncclGroupStart());
    for (int d = 0; d < G; ++d) NK(ncclCommSplit(comm[d], 0, d, &zcomm[d], &cfg));
    NK(ncclGroupEnd());

    int lo, hi;
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
        CK(cudaStreamCreateWithFlags(&g[d].main, cudaStreamNonBlocking));
        CK(cudaStreamCreateWithPriority(&g[d].comm, cudaStreamNonBlocking, hi));
        CK(cudaStreamCreateWithFlags(&g[d].local, cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&g[d].aux, cudaStreamNonBlocking));
        CK(cudaEventCreate(&g[d].t0));
        CK(cudaEventCreate(&g[d].t1));
        CK(cudaEventCreateWithFlags(&g[d].fork, cudaEventDisableTiming));
        for (int k = 0; k < 3; ++k) CK(cudaEventCreateWithFlags(&g[d].join[k], cudaEventDisableTiming));
        CK(cudaMalloc(&g[d].sbuf, 2 * B));
        CK(cudaMalloc(&g[d].rbuf, 2 * B));
        CK(cudaMalloc(&g[d].lsrc, L));
        CK(cudaMalloc(&g[d].ldst, L));
        CK(cudaMalloc(&g[d].ubuf, 2 * B));
        NK(ncclMemAlloc((void**)&g[d].zs, 2 * B));
        NK(ncclMemAlloc((void**)&g[d].zr, 2 * B));
        NK(ncclMemAlloc((void**)&g[d].ds, 2 * B));
        NK(ncclMemAlloc((void**)&g[d].dr, 2 * B));
        fill_kernel<<<1024, 256>>>(g[d].ds, 2 * B / 4, 9 + d);
        fill_kernel<<<1024, 256>>>(g[d].sbuf, 2 * B / 4, 1 + d);
        fill_kernel<<<1024, 256>>>(g[d].zs, 2 * B / 4, 3 + d);
        fill_kernel<<<1024, 256>>>(g[d].lsrc, L / 4, 5 + d);
        CK(cudaDeviceSynchronize());
        const int p = 1 - d;
        int can = 0;
        CK(cudaDeviceCanAccessPeer(&can, d, p));
        if (can) CK(cudaDeviceEnablePeerAccess(p, 0));
    }
    NK(ncclGroupStart());
    for (int d = 0; d < G; ++d) {
        NK(ncclCommWindowRegister(zcomm[d], g[d].zs, 2 * B, &g[d].ws, NCCL_WIN_COLL_SYMMETRIC));
        NK(ncclCommWindowRegister(zcomm[d], g[d].zr, 2 * B, &g[d].wr, NCCL_WIN_COLL_SYMMETRIC));
        NK(ncclCommWindowRegister(comm[d], g[d].ds, 2 * B, &g[d].dws, NCCL_WIN_COLL_SYMMETRIC));
        NK(ncclCommWindowRegister(comm[d], g[d].dr, 2 * B, &g[d].dwr, NCCL_WIN_COLL_SYMMETRIC));
    }
    NK(ncclGroupEnd());
    printf("zero-CTA windows: %s\n", g[0].ws && g[0].wr && g[1].ws && g[1].wr ? "registered" : "NULL (no symmetric memory)");

    float* sb[G] = {g[0].sbuf, g[1].sbuf};
    float* rb[G] = {g[0].rbuf, g[1].rbuf};
    float* zsb[G] = {g[0].zs, g[1].zs};
    float* zrb[G] = {g[0].zr, g[1].zr};
    float* dsb[G] = {g[0].ds, g[1].ds};
    float* drb[G] = {g[0].dr, g[1].dr};
    const int full = sms * 4, capped = 2 * sms;

    auto local_full = [&](int) { for (int d = 0; d < G; ++d) local_copy(d, g[d].local, L, full); };
    row("local copy alone (full grid)", local_full, 0);
    row("local copy alone (1 block an SM)", [&](int) { for (int d = 0; d < G; ++d) local_copy(d, g[d].local, L, sms); }, 0);
    row("local copy alone (16 blocks)", [&](int) { for (int d = 0; d < G; ++d) local_copy(d, g[d].local, L, 16); }, 0);

    row("send/recv (default comm)", [&](int) { send_recv(comm, sb, rb, B, 0); }, B);
    row("send/recv (zero-CTA comm, windows)", [&](int) { send_recv(zcomm, zsb, zrb, B, 0); }, B);
    row("send/recv (default comm, windows)", [&](int) { send_recv(comm, dsb, drb, B, 0); }, B);
    row("all-to-all (default comm, incl. self part)", [&](int) { all_to_all(comm, sb, rb, B, 0); }, B);
    row("all-to-all (zero-CTA comm, windows)", [&](int) { all_to_all(zcomm, zsb, zrb, B, 0); }, B);
    row("cudaMemcpyPeerAsync", [&](int) { peer_copy(B); }, B);
    row("peer stores, 2 blocks an SM", [&](int) { push_stores(B, capped); }, B);

    row("send/recv + local copy", [&](int) { send_recv(comm, sb, rb, B, 0); local_full(0); }, B);
    row("send/recv + local copy (1 block an SM)", [&](int) {
        send_recv(comm, sb, rb, B, 0);
        for (int d = 0; d < G; ++d) local_copy(d, g[d].local, L, sms);
    }, B);
    row("zero-CTA send/recv + local copy", [&](int) { send_recv(zcomm, zsb, zrb, B, 0); local_full(0); }, B);
    row("send/recv (default comm, windows) + local copy", [&](int) { send_recv(comm, dsb, drb, B, 0); local_full(0); }, B);
    row("zero-CTA all-to-all + local copy", [&](int) { all_to_all(zcomm, zsb, zrb, B, 0); local_full(0); }, B);
    row("cudaMemcpyPeerAsync + local copy", [&](int) { peer_copy(B); local_full(0); }, B);
    row("peer stores + local copy", [&](int) { push_stores(B, capped); local_full(0); }, B);

    // The pipelines' events: chunk c packed, chunk c moved, on each GPU.
    static cudaEvent_t packed[G][16], moved[G][16];
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        for (int c = 0; c < 16; ++c) {
            CK(cudaEventCreateWithFlags(&packed[d][c], cudaEventDisableTiming));
            CK(cudaEventCreateWithFlags(&moved[d][c], cudaEventDisableTiming));
        }
    }
    // A redistribution's pipeline on plain copies: chunk c packed (local copy into the send window),
    // exchanged by the zero-CTA all-to-all, unpacked (local copy out of the receive window), with a
    // local piece of L/2 beside it. Pack and unpack each move 2 x B per GPU (both parts).
    for (int chunks : {1, 4, 8, 16}) {
        char name[96];
        snprintf(name, sizeof name, "pipeline: pack, zero-CTA a2a, unpack, %d chunks", chunks);
        const size_t cb = B / chunks; // per peer per chunk
        row(name, [&, chunks, cb](int) {
            for (int d = 0; d < G; ++d) local_copy(d, g[d].main, L / 2, full, 0); // the local piece
            for (int c = 0; c < chunks; ++c) {
                for (int d = 0; d < G; ++d) {
                    CK(cudaSetDevice(d));
                    copy_kernel<<<full, 256, 0, g[d].local>>>((const float4*)((char*)g[d].lsrc + 2 * c * cb),
                                                             (float4*)((char*)g[d].zs + 2 * c * cb), 2 * cb / 16);
                    CK(cudaEventRecord(packed[d][c], g[d].local));
                    CK(cudaStreamWaitEvent(g[d].comm, packed[d][c]));
                }
                all_to_all(zcomm, zsb, zrb, cb, 2 * c * cb);
                for (int d = 0; d < G; ++d) {
                    CK(cudaSetDevice(d));
                    CK(cudaEventRecord(moved[d][c], g[d].comm));
                    CK(cudaStreamWaitEvent(g[d].aux, moved[d][c]));
                    copy_kernel<<<full, 256, 0, g[d].aux>>>((const float4*)((char*)g[d].zr + 2 * c * cb),
                                                           (float4*)((char*)g[d].ubuf + 2 * c * cb), 2 * cb / 16);
                }
            }
        }, B);
    }
    for (int chunks : {1, 4, 8}) {
        char name[96];
        snprintf(name, sizeof name, "pipeline: pack, send/recv (default), unpack, %d chunks", chunks);
        const size_t cb = B / chunks;
        row(name, [&, chunks, cb](int) {
            for (int d = 0; d < G; ++d) local_copy(d, g[d].main, L / 2, full, 0);
            for (int c = 0; c < chunks; ++c) {
                for (int d = 0; d < G; ++d) {
                    CK(cudaSetDevice(d));
                    copy_kernel<<<full, 256, 0, g[d].local>>>((const float4*)((char*)g[d].lsrc + c * cb),
                                                             (float4*)((char*)g[d].sbuf + (1 - d) * B + c * cb), cb / 16);
                    CK(cudaEventRecord(packed[d][c], g[d].local));
                    CK(cudaStreamWaitEvent(g[d].comm, packed[d][c]));
                }
                send_recv(comm, sb, rb, cb, c * cb);
                for (int d = 0; d < G; ++d) {
                    CK(cudaSetDevice(d));
                    CK(cudaEventRecord(moved[d][c], g[d].comm));
                    CK(cudaStreamWaitEvent(g[d].aux, moved[d][c]));
                    copy_kernel<<<full, 256, 0, g[d].aux>>>((const float4*)((char*)g[d].rbuf + (1 - d) * B + c * cb),
                                                           (float4*)((char*)g[d].ubuf + c * cb), cb / 16);
                }
            }
        }, B);
    }

    // Correctness of the zero-CTA all-to-all: rank d's part for p must land in p's part from d.
    all_to_all(zcomm, zsb, zrb, B, 0);
    for (int d = 0; d < G; ++d) { CK(cudaSetDevice(d)); CK(cudaStreamSynchronize(g[d].comm)); }
    std::vector<float> a(B / 4), b(B / 4);
    int bad = 0;
    for (int d = 0; d < G; ++d) {
        const int p = 1 - d;
        CK(cudaSetDevice(d));
        CK(cudaMemcpy(a.data(), (char*)g[d].zs + p * B, B, cudaMemcpyDeviceToHost));
        CK(cudaSetDevice(p));
        CK(cudaMemcpy(b.data(), (char*)g[p].zr + d * B, B, cudaMemcpyDeviceToHost));
        bad += a != b;
    }
    printf("zero-CTA all-to-all result: %s\n", bad ? "WRONG" : "ok");

    NK(ncclGroupStart());
    for (int d = 0; d < G; ++d) {
        NK(ncclCommWindowDeregister(zcomm[d], g[d].ws));
        NK(ncclCommWindowDeregister(zcomm[d], g[d].wr));
        NK(ncclCommWindowDeregister(comm[d], g[d].dws));
        NK(ncclCommWindowDeregister(comm[d], g[d].dwr));
    }
    NK(ncclGroupEnd());
    for (int d = 0; d < G; ++d) {
        NK(ncclCommDestroy(zcomm[d]));
        NK(ncclCommDestroy(comm[d]));
    }
    return 0;
}
