// What the barrier object holds (lsa_barrier.h), for the kernels that sync on its barriers.
#pragma once

#include <nccl_device.h>

struct cuperm_dist_lsa_barrier {
    ncclDevComm dev;
    int ctas; // barriers 1 .. ctas: one per CTA of the moves kernel
};
