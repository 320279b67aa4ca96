/* cuperm._native: the replay half of cuperm._fast as one native call per cuperm call.
 *
 * Same tables, keys, entries and guards as the pure-Python replay in _fast.py (the fallback when this
 * module is absent or CUPERM_NO_NATIVE is set); _fast.py says what an entry holds and why each guard
 * exists. What goes is the interpreter's share of a repeated call: building the key tuple, unpacking
 * the entry, and the ctypes call (the C function is called through its address when the entry holds
 * the bound ctypes function; any other callable, e.g. a test's recorder, is called with the same ints).
 * PyTorch is called through the functions _fast bound (bind()), so both paths see the same torch.
 * Where the tensor type has DLPack's C exchange API (PyTorch >= 2.10), a tensor's description, data
 * pointer and the current stream come from it in C; the guards (autograd, lazy bits, the current
 * device) and the result's allocation stay PyTorch's own calls: the exchange API's allocator would
 * hand back a tensor that record_stream() ignores.
 *
 * Limited API (abi3) for CPython >= 3.9: one build serves every CPython 3, like the rest of the wheel.
 * This file knows no CUDA: it calls libcuperm through the addresses bind() hands it, so that it works
 * with whichever libcuperm the package loaded ($CUPERM_LIBRARY, the wheel's, a test's stub).
 */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdint.h>

#include "dlpack_exchange.h"

typedef int (*execute_fn)(void*, const void*, const void*, const void*, void*, void*);
typedef int (*contract_fn)(void*, const void*, const void*, const void*, const void*, const void*, void*, void*,
                           size_t, void*);

/* An entry's leading fields, common to every table (_fast.py: ENTRY_*). */
enum { E_RUN, E_PLAN, E_ALPHA, E_BETA, E_DEVICE };
enum { T_PROTO = 5 };                                                 /* transpose, new result */
enum { I_SPANS = 5 };                                                 /* transpose into out= */
/* einsum; einsum into out=. workspace() reads the torch.empty arguments after the *_NBYTES field. */
enum { C_PROTO = 5, C_NBYTES, C_WS_ARGS, C_WS_KWARGS };
enum { J_SPANS = 5, J_NBYTES, J_WS_ARGS, J_WS_KWARGS };

/* What bind() was given; strong references, replaced by the next bind(). */
static PyObject *empty, *empty_like, *empty_like_kwargs, *get_device, *raw_stream, *grad_enabled, *check,
    *execute_obj, *contract_obj, *capturing, *workspaces, *new_workspace, *exchange_capsule;
static execute_fn execute_c;
static contract_fn contract_c;
/* The tensors' exchange API, or NULL (then every tensor is read through its Python attributes), and
 * what it has taught: DLPack dtype (code | bits << 8 | lanes << 16) -> the framework's dtype object,
 * learnt from the first tensor of each dtype (read both ways), so that keys hold the same dtype
 * objects as the Python replay's and either replay serves any entry. */
static const dl_exchange_api* exchange;
static PyObject* dl_dtypes;

static PyObject *s_shape, *s_stride, *s_dtype, *s_get_device, *s_requires_grad, *s_is_conj, *s_is_neg,
    *s_data_ptr;

static void replace(PyObject** slot, PyObject* value)
{
    PyObject* old = *slot;
    Py_XINCREF(value);
    *slot = value;
    Py_XDECREF(old);
}

static PyObject* native_bind(PyObject* self, PyObject* args)
{
    PyObject *e, *el, *elk, *gd, *rs, *ge, *ck, *ex, *ct, *cap, *ws, *nw, *xc = Py_None;
    unsigned long long ex_addr, ct_addr;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOO!OOOOOKOKOO!O|O", &e, &el, &PyDict_Type, &elk, &gd, &rs, &ge, &ck, &ex, &ex_addr,
                          &ct, &ct_addr, &cap, &PyDict_Type, &ws, &nw, &xc))
        return NULL;
    const dl_exchange_api* api = NULL;
    if (xc != Py_None) { /* anything but a usable DLPack >= 1.2 table: the attributes serve */
        api = PyCapsule_IsValid(xc, DL_EXCHANGE_CAPSULE) ? PyCapsule_GetPointer(xc, DL_EXCHANGE_CAPSULE) : NULL;
        if (api && (api->header.version.major != 1 || api->header.version.minor < 2 ||
                    !api->dltensor_from_py_object_no_sync))
            api = NULL;
    }
    PyObject* learnt = PyDict_New();
    if (!learnt) return NULL;
    replace(&dl_dtypes, learnt);
    Py_DECREF(learnt);
    replace(&exchange_capsule, api ? xc : NULL); /* keeps the table alive */
    exchange = api;
    replace(&empty, e);
    replace(&empty_like, el);
    replace(&empty_like_kwargs, elk);
    replace(&get_device, gd);
    replace(&raw_stream, rs);
    replace(&grad_enabled, ge);
    replace(&check, ck);
    replace(&execute_obj, ex);
    replace(&contract_obj, ct);
    replace(&capturing, cap);
    replace(&workspaces, ws);
    replace(&new_workspace, nw);
    execute_c = (execute_fn)(uintptr_t)ex_addr;
    contract_c = (contract_fn)(uintptr_t)ct_addr;
    Py_RETURN_NONE;
}

static PyObject* method0(PyObject* obj, PyObject* name) { return PyObject_CallMethodObjArgs(obj, name, NULL); }

/* An exported tensor's first element's address, as data_ptr() says it (new reference). */
static PyObject* dl_address(const dl_tensor* dl) { return PyLong_FromVoidPtr((char*)dl->data + dl->byte_offset); }

static PyObject* int64s(const int64_t* v, int32_t n)
{
    PyObject* tuple = PyTuple_New(n);
    for (int32_t k = 0; tuple && k < n; ++k) {
        PyObject* item = PyLong_FromLongLong(v[k]);
        if (!item) Py_CLEAR(tuple);
        else PyTuple_SetItem(tuple, k, item);
    }
    return tuple;
}

/* Through the exchange API: t's (shape, stride(), dtype, get_device()) in parts (new references) and
 * its data pointer in *ptr. 1 when done; 0 when the attributes must tell (no API, a dtype or device
 * it cannot express, a dtype not learnt yet: then *code is its DLPack code, to learn, or NULL); -1 on
 * error. Shapes come back as tuples: a torch.Size key (a tuple subclass) equals and hashes the same. */
static int exchange_parts(PyObject* t, PyObject** parts, PyObject** ptr, PyObject** code)
{
    dl_tensor dl;
    if (!exchange) return 0;
    if (exchange->dltensor_from_py_object_no_sync(t, &dl)) {
        PyErr_Clear(); /* e.g. a dtype DLPack has no code for: the attributes say it */
        return 0;
    }
    if ((dl.device.device_type != DL_CUDA && dl.device.device_type != DL_CPU) || !dl.strides) return 0;
    *code = PyLong_FromLong((long)dl.dtype.code | (long)dl.dtype.bits << 8 | (long)dl.dtype.lanes << 16);
    if (!*code) return -1;
    PyObject* dtype = PyDict_GetItemWithError(dl_dtypes, *code); /* borrowed */
    if (!dtype) return PyErr_Occurred() ? -1 : 0;
    Py_CLEAR(*code);
    parts[0] = int64s(dl.shape, dl.ndim);
    parts[1] = parts[0] ? int64s(dl.strides, dl.ndim) : NULL;
    parts[2] = dtype, Py_INCREF(dtype);
    parts[3] = PyLong_FromLong(dl.device.device_type == DL_CUDA ? dl.device.device_id : -1);
    *ptr = dl_address(&dl);
    return parts[1] && parts[3] && *ptr ? 1 : -1;
}

/* Appends a tensor's (shape, stride(), dtype, get_device()) to key at i..i+3 and sets *ptr to its
 * data_ptr() (a new reference); -1 on error. */
static int put_tensor(PyObject* key, Py_ssize_t i, PyObject* t, PyObject** ptr)
{
    PyObject *parts[4] = {NULL}, *code = NULL;
    int done = exchange_parts(t, parts, ptr, &code);
    if (!done) {
        parts[0] = PyObject_GetAttr(t, s_shape);
        if (parts[0]) parts[1] = method0(t, s_stride);
        if (parts[1]) parts[2] = PyObject_GetAttr(t, s_dtype);
        if (parts[2]) parts[3] = method0(t, s_get_device);
        if (parts[3]) *ptr = method0(t, s_data_ptr);
        done = *ptr ? 1 : -1;
        if (done > 0 && code && PyDict_SetItem(dl_dtypes, code, parts[2])) done = -1; /* learnt */
    }
    Py_XDECREF(code);
    if (done < 0) {
        for (int k = 0; k < 4; ++k) Py_XDECREF(parts[k]);
        Py_CLEAR(*ptr);
        return -1;
    }
    for (int k = 0; k < 4; ++k) PyTuple_SetItem(key, i + k, parts[k]); /* steals */
    return 0;
}

/* t.data_ptr() (new reference): through the exchange API where it can. */
static PyObject* data_ptr(PyObject* t)
{
    dl_tensor dl;
    if (exchange) {
        if (!exchange->dltensor_from_py_object_no_sync(t, &dl)) return dl_address(&dl);
        PyErr_Clear();
    }
    return method0(t, s_data_ptr);
}

/* key[i] = value (a new reference to it). */
static void put(PyObject* key, Py_ssize_t i, PyObject* value)
{
    Py_INCREF(value);
    PyTuple_SetItem(key, i, value);
}

/* axes as the key holds them: a list becomes a tuple (as _fast does). New reference. */
static PyObject* axes_key(PyObject* axes)
{
    if (PyList_CheckExact(axes)) return PyList_AsTuple(axes);
    Py_INCREF(axes);
    return axes;
}

/* The entry for key (borrowed), or NULL: with no error set for a miss or for an error the Python path
 * also answers with "general path" (one of the classes in `quiet`), else with the error set. Consumes key. */
static PyObject* lookup(PyObject* table, PyObject* key, PyObject* const* quiet)
{
    PyObject* hit = key ? PyDict_GetItemWithError(table, key) : NULL;
    Py_XDECREF(key);
    if (hit && PyTuple_Check(hit)) return hit;
    if (PyErr_Occurred()) {
        for (; *quiet; ++quiet)
            if (PyErr_ExceptionMatches(*quiet)) {
                PyErr_Clear();
                break;
            }
    }
    return NULL;
}

/* 1 when t is a conjugate or negative view whose memory does not hold its values; -1 on error. */
static int lazy_bits(PyObject* t)
{
    PyObject* r = method0(t, s_is_conj);
    int on = r ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    if (on) return on;
    r = method0(t, s_is_neg);
    on = r ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    return on;
}

static int requires_grad(PyObject* t)
{
    PyObject* r = PyObject_GetAttr(t, s_requires_grad);
    int on = r ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    return on;
}

static int call_is_true(PyObject* fn)
{
    PyObject* r = PyObject_CallObject(fn, NULL);
    int on = r ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    return on;
}

/* 1 when the current device is not the entry's (the general path switches devices); -1 on error. */
static int other_device(PyObject* entry)
{
    PyObject* current = PyObject_CallObject(get_device, NULL);
    if (!current) return -1;
    int differs = PyObject_RichCompareBool(current, PyTuple_GetItem(entry, E_DEVICE), Py_NE);
    Py_DECREF(current);
    return differs;
}

/* The entry's device's current stream, as raw_stream(device) (PyTorch's getCurrentCUDAStream either way). */
static PyObject* stream_of(PyObject* entry)
{
    PyObject* device = PyTuple_GetItem(entry, E_DEVICE);
    if (exchange && exchange->current_work_stream) {
        const long id = PyLong_AsLong(device);
        void* stream = NULL;
        if (id == -1 && PyErr_Occurred()) return NULL;
        if (!exchange->current_work_stream(DL_CUDA, (int32_t)id, &stream)) return PyLong_FromVoidPtr(stream);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "cuperm._native: the current stream query failed");
        return NULL;
    }
    return PyObject_CallFunctionObjArgs(raw_stream, device, NULL);
}

/* Raises the C library's error for a failed status (through _lib.check); 0, or -1 with it set. */
static int report(int status)
{
    if (!status) return 0;
    PyObject* s = PyLong_FromLong(status);
    PyObject* r = s ? PyObject_CallFunctionObjArgs(check, s, NULL) : NULL;
    Py_XDECREF(s);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* Calls a non-ctypes run (a test's recorder) with the ints ctypes would have been given. */
static int run_python(PyObject* run, PyObject* const* args, Py_ssize_t n, int* status)
{
    PyObject* tuple = PyTuple_New(n);
    if (!tuple) return -1;
    for (Py_ssize_t i = 0; i < n; ++i) put(tuple, i, args[i]);
    PyObject* r = PyObject_CallObject(run, tuple);
    Py_DECREF(tuple);
    if (!r) return -1;
    *status = (int)PyLong_AsLong(r);
    Py_DECREF(r);
    return *status == -1 && PyErr_Occurred() ? -1 : 0;
}

/* As ctypes converts an int for a c_void_p / c_size_t parameter. */
static int to_ptrs(PyObject* const* args, Py_ssize_t n, void** out)
{
    for (Py_ssize_t i = 0; i < n; ++i) {
        out[i] = PyLong_AsVoidPtr(args[i]);
        if (!out[i] && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* cupermExecute(plan, alpha, in, beta, out, stream); args: six ints. */
static int run_execute(PyObject* run, PyObject* const* args, int* status)
{
    void* p[6];
    if (run != execute_obj || !execute_c) return run_python(run, args, 6, status);
    if (to_ptrs(args, 6, p)) return -1;
    Py_BEGIN_ALLOW_THREADS /* as ctypes does: other threads run during the launch */
    *status = execute_c(p[0], p[1], p[2], p[3], p[4], p[5]);
    Py_END_ALLOW_THREADS
    return 0;
}

/* cupermContract(plan, alpha, A, B, beta, C, D, workspace, bytes, stream); args: ten ints. */
static int run_contract(PyObject* run, PyObject* const* args, int* status)
{
    void* p[10];
    if (run != contract_obj || !contract_c) return run_python(run, args, 10, status);
    if (to_ptrs(args, 10, p)) return -1;
    size_t bytes = PyLong_AsSize_t(args[8]);
    if (bytes == (size_t)-1 && PyErr_Occurred()) return -1;
    Py_BEGIN_ALLOW_THREADS
    *status = contract_c(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], bytes, p[9]);
    Py_END_ALLOW_THREADS
    return 0;
}

/* A new row-major result shaped as the entry's prototype (entry[at]); _fast._new_result. */
static PyObject* new_result(PyObject* entry, Py_ssize_t at)
{
    PyObject* args = PyTuple_Pack(1, PyTuple_GetItem(entry, at));
    PyObject* r = args ? PyObject_Call(empty_like, args, empty_like_kwargs) : NULL;
    Py_XDECREF(args);
    return r;
}

static PyObject* allocate(PyObject* entry, Py_ssize_t args_at)
{
    return PyObject_Call(empty, PyTuple_GetItem(entry, args_at), PyTuple_GetItem(entry, args_at + 1));
}

/* The workspace of einsum entry `entry` (nbytes > 0, at entry[at], its torch.empty arguments after it)
 * for work queued on `stream`: *keep gets what holds it (a strong reference), *ptr its address (new
 * reference); -1 on error. The same decisions as _fast.workspace: a new tensor per call while the current
 * stream captures a graph, else the stream's cached one when big enough, else _fast._new_workspace's. */
static int workspace(PyObject* entry, Py_ssize_t at, PyObject* stream, PyObject** keep, PyObject** ptr)
{
    int capture = call_is_true(capturing);
    if (capture) {
        *keep = capture > 0 ? allocate(entry, at + 1) : NULL;
        *ptr = *keep ? method0(*keep, s_data_ptr) : NULL;
        return *ptr ? 0 : -1;
    }
    PyObject* nbytes = PyTuple_GetItem(entry, at);
    PyObject* key = PyTuple_Pack(2, PyTuple_GetItem(entry, E_DEVICE), stream);
    PyObject* hit = key ? PyDict_GetItemWithError(workspaces, key) : NULL; /* borrowed */
    int fits = hit && PyTuple_Check(hit) && PyTuple_Size(hit) == 3 ?
                   PyObject_RichCompareBool(PyTuple_GetItem(hit, 0), nbytes, Py_GE) : 0;
    if (fits > 0)
        Py_INCREF(hit); /* kept across the call: another thread may replace it meanwhile */
    else if (!fits && key && !PyErr_Occurred())
        hit = PyObject_CallFunctionObjArgs(new_workspace, key, nbytes, PyTuple_GetItem(entry, at + 1),
                                           PyTuple_GetItem(entry, at + 2), NULL);
    else
        hit = NULL;
    Py_XDECREF(key);
    if (hit && (!PyTuple_Check(hit) || PyTuple_Size(hit) != 3)) {
        PyErr_SetString(PyExc_TypeError, "cuperm._native: a workspace entry must be (bytes, pointer, tensor)");
        Py_CLEAR(hit);
    }
    if (!hit) return -1;
    *keep = hit;
    *ptr = PyTuple_GetItem(hit, 1);
    Py_INCREF(*ptr);
    return 0;
}

#define DECREF_ALL(arr, n)                                                                                         \
    do {                                                                                                           \
        for (int k_ = 0; k_ < (n); ++k_) Py_XDECREF((arr)[k_]);                                                    \
    } while (0)

/* transpose(table, x, axes, alpha): a new tensor, or None for the general path (_fast.transpose). */
static PyObject* native_transpose(PyObject* self, PyObject* args)
{
    PyObject *table, *x, *axes, *alpha;
    (void)self;
    if (!PyArg_UnpackTuple(args, "transpose", 4, 4, &table, &x, &axes, &alpha)) return NULL;
    PyObject* const quiet[] = {PyExc_TypeError, NULL};
    PyObject* key = PyTuple_New(6);
    PyObject* a[6] = {NULL};
    PyObject* ax = key ? axes_key(axes) : NULL;
    if (ax) PyTuple_SetItem(key, 4, ax);
    if (!ax || put_tensor(key, 0, x, &a[2])) Py_CLEAR(key);
    else put(key, 5, alpha);
    PyObject* hit = lookup(table, key, quiet);
    if (!hit) {
        Py_XDECREF(a[2]);
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    Py_INCREF(hit); /* the table may change under the calls below */
    int no = requires_grad(x);
    if (no > 0) no = call_is_true(grad_enabled);
    if (!no) no = lazy_bits(x);
    if (!no) no = other_device(hit);
    if (no) {
        Py_DECREF(a[2]);
        Py_DECREF(hit);
        if (no < 0) return NULL;
        Py_RETURN_NONE;
    }
    PyObject* out = new_result(hit, T_PROTO);
    int status = 0, failed = !out;
    if (!failed) {
        a[0] = PyTuple_GetItem(hit, E_PLAN), a[1] = PyTuple_GetItem(hit, E_ALPHA), a[3] = PyTuple_GetItem(hit, E_BETA);
        Py_INCREF(a[0]), Py_INCREF(a[1]), Py_INCREF(a[3]);
        failed = !(a[4] = data_ptr(out)) || !(a[5] = stream_of(hit)) ||
                 run_execute(PyTuple_GetItem(hit, E_RUN), a, &status) || report(status);
    }
    DECREF_ALL(a, 6);
    Py_DECREF(hit);
    if (failed) Py_CLEAR(out);
    return out;
}

static int as_ll(PyObject* v, long long* out)
{
    *out = PyLong_AsLongLong(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* 1 when [xp + x_lo, xp + x_hi) and [op + o_lo, op + o_hi) overlap (spans: (x_lo, x_hi, o_lo, o_hi)). */
static int overlapping(PyObject* spans, PyObject* xp, PyObject* op)
{
    long long s[4], x, o;
    if (!PyTuple_Check(spans) || PyTuple_Size(spans) != 4) {
        PyErr_SetString(PyExc_TypeError, "cuperm._native: a transpose-into entry's spans must be 4 ints");
        return -1;
    }
    for (int i = 0; i < 4; ++i)
        if (as_ll(PyTuple_GetItem(spans, i), &s[i])) return -1;
    if (as_ll(xp, &x) || as_ll(op, &o)) return -1;
    return x + s[0] < o + s[3] && o + s[2] < x + s[1];
}

/* transpose_into(table, x, axes, alpha, beta, out): out, or None (_fast.transpose_into). */
static PyObject* native_transpose_into(PyObject* self, PyObject* args)
{
    PyObject *table, *x, *axes, *alpha, *beta, *out;
    (void)self;
    if (!PyArg_UnpackTuple(args, "transpose_into", 6, 6, &table, &x, &axes, &alpha, &beta, &out)) return NULL;
    PyObject* const quiet[] = {PyExc_TypeError, PyExc_AttributeError, NULL};
    PyObject* key = PyTuple_New(11);
    PyObject* a[6] = {NULL};
    PyObject* ax = key ? axes_key(axes) : NULL;
    if (ax) PyTuple_SetItem(key, 4, ax);
    if (!ax || put_tensor(key, 0, x, &a[2]) || put_tensor(key, 7, out, &a[4])) Py_CLEAR(key);
    else put(key, 5, alpha), put(key, 6, beta);
    PyObject* hit = lookup(table, key, quiet);
    if (!hit) {
        DECREF_ALL(a, 6);
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    Py_INCREF(hit);
    int no = requires_grad(x);
    if (no > 0) no = call_is_true(grad_enabled);
    if (!no) no = lazy_bits(x);
    if (!no) no = lazy_bits(out);
    if (!no) no = other_device(hit);
    if (!no) no = overlapping(PyTuple_GetItem(hit, I_SPANS), a[2], a[4]); /* overlap: the general path says so */
    int status = 0, failed = no < 0;
    if (!no) {
        a[0] = PyTuple_GetItem(hit, E_PLAN), a[1] = PyTuple_GetItem(hit, E_ALPHA), a[3] = PyTuple_GetItem(hit, E_BETA);
        Py_INCREF(a[0]), Py_INCREF(a[1]), Py_INCREF(a[3]);
        failed = !(a[5] = stream_of(hit)) || run_execute(PyTuple_GetItem(hit, E_RUN), a, &status) || report(status);
    }
    DECREF_ALL(a, 6);
    Py_DECREF(hit);
    if (failed) return NULL;
    if (no) Py_RETURN_NONE;
    Py_INCREF(out);
    return out;
}

/* The guards of an einsum replay on operands A and B: 1 (the general path takes the call) when
 * autograd would record it (unless internal: the custom op's own calls, whose formula covers
 * gradients), a lazy conjugate/negative bit is set or the current device is not the entry's;
 * 0 to replay; -1 with an error set. */
static int einsum_guards(PyObject* internal, PyObject* A, PyObject* B, PyObject* hit)
{
    int no = PyObject_IsTrue(internal);
    if (!no) {
        no = requires_grad(A);
        if (!no) no = requires_grad(B);
        if (no > 0) no = call_is_true(grad_enabled);
    } else if (no > 0) {
        no = 0;
    }
    if (!no) no = lazy_bits(A);
    if (!no) no = lazy_bits(B);
    if (!no) no = other_device(hit);
    return no;
}

/* cupermContract for entry hit with a[2], a[3] and a[6] (A, B, D pointers) set: fills the plan,
 * scalars, C = D, the workspace (its size at entry[nbytes_at]; *w holds it) and the stream, then
 * calls it. 0, or -1 with an error set (a failed status raised as _lib.check raises it). */
static int contract_entry(PyObject* hit, Py_ssize_t nbytes_at, PyObject** a, PyObject** w)
{
    a[0] = PyTuple_GetItem(hit, E_PLAN), a[1] = PyTuple_GetItem(hit, E_ALPHA), a[4] = PyTuple_GetItem(hit, E_BETA);
    a[8] = PyTuple_GetItem(hit, nbytes_at);
    Py_INCREF(a[0]), Py_INCREF(a[1]), Py_INCREF(a[4]), Py_INCREF(a[8]);
    a[5] = a[6], Py_INCREF(a[5]); /* C = D (read only when beta != 0) */
    const int nbytes = PyObject_IsTrue(a[8]);
    if (nbytes < 0 || !(a[9] = stream_of(hit))) return -1;
    if (nbytes) { /* uncached (capture): reused by PyTorch only after the work queued on this stream */
        if (workspace(hit, nbytes_at, a[9], w, &a[7])) return -1;
    } else if (!(a[7] = PyLong_FromLong(0))) {
        return -1;
    }
    int status = 0;
    return run_contract(PyTuple_GetItem(hit, E_RUN), a, &status) || report(status) ? -1 : 0;
}

/* einsum(table, subscripts, a, b, alpha, compute_code, internal): a new tensor, or None (_fast.einsum). */
static PyObject* native_einsum(PyObject* self, PyObject* args)
{
    PyObject *table, *subscripts, *A, *B, *alpha, *code, *internal;
    (void)self;
    if (!PyArg_UnpackTuple(args, "einsum", 7, 7, &table, &subscripts, &A, &B, &alpha, &code, &internal))
        return NULL;
    PyObject* const quiet[] = {PyExc_TypeError, PyExc_ValueError, PyExc_AttributeError, NULL};
    PyObject* key = PyTuple_New(12);
    PyObject* a[10] = {NULL};
    if (key && (put_tensor(key, 1, A, &a[2]) || put_tensor(key, 5, B, &a[3]))) Py_CLEAR(key);
    if (key) put(key, 0, subscripts), put(key, 9, alpha), put(key, 10, code), put(key, 11, internal);
    PyObject* hit = lookup(table, key, quiet);
    if (!hit) {
        DECREF_ALL(a, 10);
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    Py_INCREF(hit);
    const int no = einsum_guards(internal, A, B, hit);
    if (no) {
        DECREF_ALL(a, 10);
        Py_DECREF(hit);
        if (no < 0) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *d = new_result(hit, C_PROTO), *w = NULL;
    int failed = !d || !(a[6] = data_ptr(d)) || contract_entry(hit, C_NBYTES, a, &w);
    DECREF_ALL(a, 10);
    Py_XDECREF(w);
    Py_DECREF(hit);
    if (failed) Py_CLEAR(d);
    return d;
}

/* spans (6 ints: a_lo, a_hi, b_lo, b_hi, out_lo, out_hi) against pointers ap, bp, dp: 1 when out
 * overlaps a or b, 0 when not, -1 on error. */
static int overlapping3(PyObject* spans, PyObject* ap, PyObject* bp, PyObject* dp)
{
    long long s[6], a, b, d;
    if (!PyTuple_Check(spans) || PyTuple_Size(spans) != 6) {
        PyErr_SetString(PyExc_TypeError, "cuperm._native: an einsum-into entry's spans must be 6 ints");
        return -1;
    }
    for (int i = 0; i < 6; ++i)
        if (as_ll(PyTuple_GetItem(spans, i), &s[i])) return -1;
    if (as_ll(ap, &a) || as_ll(bp, &b) || as_ll(dp, &d)) return -1;
    return (a + s[0] < d + s[5] && d + s[4] < a + s[1]) || (b + s[2] < d + s[5] && d + s[4] < b + s[3]);
}

/* einsum_into(table, subscripts, a, b, out, alpha, beta, compute_code, internal): out, or None
 * (_fast.einsum_into). */
static PyObject* native_einsum_into(PyObject* self, PyObject* args)
{
    PyObject *table, *subscripts, *A, *B, *D, *alpha, *beta, *code, *internal;
    (void)self;
    if (!PyArg_UnpackTuple(args, "einsum_into", 9, 9, &table, &subscripts, &A, &B, &D, &alpha, &beta, &code,
                           &internal))
        return NULL;
    PyObject* const quiet[] = {PyExc_TypeError, PyExc_ValueError, PyExc_AttributeError, NULL};
    PyObject* key = PyTuple_New(17);
    PyObject *w = NULL, *a[10] = {NULL};
    if (key && (put_tensor(key, 1, A, &a[2]) || put_tensor(key, 5, B, &a[3]) || put_tensor(key, 9, D, &a[6])))
        Py_CLEAR(key);
    if (key)
        put(key, 0, subscripts), put(key, 13, alpha), put(key, 14, beta), put(key, 15, code), put(key, 16, internal);
    PyObject* hit = lookup(table, key, quiet);
    if (!hit) {
        DECREF_ALL(a, 10);
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    Py_INCREF(hit);
    int no = einsum_guards(internal, A, B, hit);
    if (!no) no = requires_grad(D);
    if (!no) no = lazy_bits(D);
    if (!no) no = overlapping3(PyTuple_GetItem(hit, J_SPANS), a[2], a[3], a[6]); /* the general path says so */
    const int failed = no < 0 || (!no && contract_entry(hit, J_NBYTES, a, &w));
    DECREF_ALL(a, 10);
    Py_XDECREF(w);
    Py_DECREF(hit);
    if (failed) return NULL;
    if (no) Py_RETURN_NONE;
    Py_INCREF(D);
    return D;
}

static PyMethodDef methods[] = {
    {"bind", native_bind, METH_VARARGS,
     "bind(empty, empty_like, empty_like_kwargs, get_device, raw_stream, grad_enabled, check, execute, "
     "execute_address, contract, contract_address, capturing, workspaces, new_workspace[, exchange]): the "
     "functions every replay calls, the workspace cache and the tensor type's DLPack exchange API capsule or "
     "None (see cuperm._fast._bind)."},
    {"transpose", native_transpose, METH_VARARGS, "transpose(table, x, axes, alpha) -> tensor or None"},
    {"transpose_into", native_transpose_into, METH_VARARGS,
     "transpose_into(table, x, axes, alpha, beta, out) -> out or None"},
    {"einsum", native_einsum, METH_VARARGS,
     "einsum(table, subscripts, a, b, alpha, compute_code, internal) -> tensor or None"},
    {"einsum_into", native_einsum_into, METH_VARARGS,
     "einsum_into(table, subscripts, a, b, out, alpha, beta, compute_code, internal) -> out or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cuperm._native",
    "Native replay of cuperm's per-call fast paths (see cuperm._fast).", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void)
{
    struct {
        PyObject** slot;
        const char* name;
    } names[] = {{&s_shape, "shape"},     {&s_stride, "stride"},   {&s_dtype, "dtype"},
                 {&s_get_device, "get_device"}, {&s_requires_grad, "requires_grad"},
                 {&s_is_conj, "is_conj"}, {&s_is_neg, "is_neg"}, {&s_data_ptr, "data_ptr"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (!*names[i].slot && !(*names[i].slot = PyUnicode_InternFromString(names[i].name))) return NULL;
    return PyModule_Create(&module);
}
