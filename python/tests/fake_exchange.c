/* fake_exchange: a DLPack C exchange API (python/native/dlpack_exchange.h) for test_fast_path.py's
 * stand-in torch.Tensor, so that cuperm._native's exchange path runs on a CPU.
 *
 * As PyTorch's does from its TensorImpl, the export reads what the stand-in says of itself: shape,
 * stride(), dtype.dl (DLPack's (code, bits)), get_device() and data_ptr(). A dtype without `dl` fails
 * with an error set, as PyTorch's fails for a dtype DLPack cannot express. The stream query asks the
 * callable given to capsule(). exports() counts the successful exports, so a test can tell that the
 * replay used this table instead of the attributes.
 */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "dlpack_exchange.h"

enum { MAX_DIMS = 16, SLOTS = 8 };

/* The export is non-owning: shapes and strides live in a ring, valid for the few tensors one call reads. */
static int64_t extents[SLOTS][2][MAX_DIMS];
static int next_slot;
static long exports;
static PyObject* stream_source;
static dl_exchange_api table;

static int read_ints(PyObject* seq, int64_t* out, Py_ssize_t* n)
{
    PyObject* tuple = PySequence_Tuple(seq);
    if (!tuple) return -1;
    *n = PyTuple_Size(tuple);
    int failed = *n > MAX_DIMS;
    for (Py_ssize_t k = 0; !failed && k < *n; ++k) {
        out[k] = PyLong_AsLongLong(PyTuple_GetItem(tuple, k));
        failed = out[k] == -1 && PyErr_Occurred();
    }
    Py_DECREF(tuple);
    if (failed && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fake_exchange: too many dimensions");
    return failed ? -1 : 0;
}

static PyObject* call0(PyObject* t, const char* name)
{
    PyObject* fn = PyObject_GetAttrString(t, name);
    PyObject* r = fn ? PyObject_CallObject(fn, NULL) : NULL;
    Py_XDECREF(fn);
    return r;
}

static int dltensor_from_py(void* py_object, dl_tensor* out)
{
    PyObject* t = py_object;
    int64_t* shape = extents[next_slot][0];
    int64_t* strides = extents[next_slot][1];
    PyObject *dtype = PyObject_GetAttrString(t, "dtype"), *dl = dtype ? PyObject_GetAttrString(dtype, "dl") : NULL;
    PyObject *sh = dl ? PyObject_GetAttrString(t, "shape") : NULL, *st = sh ? call0(t, "stride") : NULL;
    PyObject *dev = st ? call0(t, "get_device") : NULL, *ptr = dev ? call0(t, "data_ptr") : NULL;
    Py_ssize_t n = 0, m = 0;
    int code = 0, bits = 0, failed = !ptr || !PyArg_ParseTuple(dl, "ii", &code, &bits) || read_ints(sh, shape, &n) ||
                                      read_ints(st, strides, &m);
    if (!failed) {
        const long device = PyLong_AsLong(dev);
        out->data = PyLong_AsVoidPtr(ptr);
        failed = PyErr_Occurred() != NULL || n != m;
        out->device.device_type = device < 0 ? DL_CPU : DL_CUDA;
        out->device.device_id = device < 0 ? 0 : (int32_t)device;
        out->ndim = (int32_t)n;
        out->dtype.code = (uint8_t)code, out->dtype.bits = (uint8_t)bits, out->dtype.lanes = 1;
        out->shape = shape, out->strides = strides, out->byte_offset = 0;
    }
    Py_XDECREF(dtype), Py_XDECREF(dl), Py_XDECREF(sh), Py_XDECREF(st), Py_XDECREF(dev), Py_XDECREF(ptr);
    if (failed) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "fake_exchange: not a tensor it can export");
        return -1;
    }
    next_slot = (next_slot + 1) % SLOTS;
    ++exports;
    return 0;
}

static int current_work_stream(int32_t device_type, int32_t device_id, void** out)
{
    PyObject* r = device_type == DL_CUDA ? PyObject_CallFunction(stream_source, "i", (int)device_id) : NULL;
    if (!r) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fake_exchange: not a CUDA device");
        return -1;
    }
    *out = PyLong_AsVoidPtr(r);
    Py_DECREF(r);
    return PyErr_Occurred() ? -1 : 0;
}

/* capsule(stream_source, minor=3): the table as PyTorch hands it out, claiming DLPack 1.<minor>. */
static PyObject* fake_capsule(PyObject* self, PyObject* args)
{
    PyObject* source;
    unsigned int minor = 3;
    (void)self;
    if (!PyArg_ParseTuple(args, "O|I", &source, &minor)) return NULL;
    Py_XDECREF(stream_source);
    Py_INCREF(source);
    stream_source = source;
    table.header.version.major = 1, table.header.version.minor = minor;
    table.dltensor_from_py_object_no_sync = dltensor_from_py;
    table.current_work_stream = current_work_stream;
    return PyCapsule_New(&table, DL_EXCHANGE_CAPSULE, NULL);
}

static PyObject* fake_exports(PyObject* self, PyObject* args)
{
    (void)self, (void)args;
    return PyLong_FromLong(exports);
}

static PyMethodDef methods[] = {
    {"capsule", fake_capsule, METH_VARARGS, "capsule(stream_source, minor=3) -> the exchange API's capsule"},
    {"exports", fake_exports, METH_NOARGS, "exports() -> how many tensors were exported"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "fake_exchange", "A DLPack exchange API for stand-in tensors.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_fake_exchange(void) { return PyModule_Create(&module); }
