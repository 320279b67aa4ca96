/* What the planner knows of a device; read once when a handle is created. */
#ifndef CUPERM_HOST_DEVICE_INFO_H
#define CUPERM_HOST_DEVICE_INFO_H

typedef struct {
    int ordinal;
    int cc_major, cc_minor;
    int sm_count;
    int l2_bytes;
    int smem_per_block;            /* without opt-in */
    double dram_bytes_per_second;  /* theoretical peak, read + write combined */
    int smem_per_sm;               /* of one SM, all its blocks together (0: unknown; last: the test
                                    * devices written positionally leave it so) */
} cuperm_device_info_t;

#endif
