/* DLPack's C exchange API (DLPack >= 1.2), as far as cuperm._native uses it.
 *
 * PyTorch >= 2.10 puts a table of these functions on torch.Tensor as the capsule
 * `__dlpack_c_exchange_api__` ("dlpack_exchange_api"). Declared here from DLPack's ABI, so that the
 * module builds without any framework's or DLPack's headers; the tests' stand-in provider
 * (python/tests/fake_exchange.c) includes it too. Only the non-owning export and the stream query are
 * typed: one C call gives a tensor's shape, strides, dtype, device and data pointer.
 */
#ifndef CUPERM_PY_DLPACK_EXCHANGE_H
#define CUPERM_PY_DLPACK_EXCHANGE_H

#include <stdint.h>

typedef struct {
    int32_t device_type, device_id;
} dl_device;
typedef struct {
    uint8_t code, bits;
    uint16_t lanes;
} dl_dtype;
typedef struct {
    void* data;
    dl_device device;
    int32_t ndim;
    dl_dtype dtype;
    int64_t *shape, *strides; /* strides in elements; NULL means compact row-major */
    uint64_t byte_offset;
} dl_tensor;
typedef struct {
    uint32_t major, minor;
} dl_version;
typedef struct dl_api_header {
    dl_version version;
    struct dl_api_header* prev_api;
} dl_api_header;
typedef struct {
    dl_api_header header;
    void *managed_tensor_allocator, *managed_tensor_from_py_object_no_sync, *managed_tensor_to_py_object_no_sync;
    /* Fills *out, valid until control returns to Python; 0, or non-zero with a Python error set. */
    int (*dltensor_from_py_object_no_sync)(void* py_object, dl_tensor* out);
    /* The framework's current stream on that device (may be NULL); 0, or non-zero with an error set. */
    int (*current_work_stream)(int32_t device_type, int32_t device_id, void** out_stream);
} dl_exchange_api;

#define DL_EXCHANGE_CAPSULE "dlpack_exchange_api"
enum { DL_CPU = 1, DL_CUDA = 2 };

#endif
