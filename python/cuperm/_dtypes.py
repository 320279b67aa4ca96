"""Element types: how array protocols spell them and how cuperm's C API does.

Each DType knows its cupermDataType_t code and how to pack the alpha/beta
scalars the C API takes by host pointer (float for the 16-bit floats, the
element type itself otherwise). Types the C library has no arithmetic for
(bool, uint16) are still accepted for plain moves (alpha=1, beta=0): they
travel as a same-size integer type, which copies the bits exactly.
"""

import ctypes
import numbers

# cupermDataType_t values (equal to cudaDataType_t's), see include/cuperm.h.
R_16F, R_64F, R_32F, R_8I, C_32F, C_64F = 2, 1, 0, 3, 4, 5
R_8U, R_32I, R_32U, R_16BF, R_16I, R_64I, R_64U = 8, 10, 12, 14, 20, 24, 26


class DType:
    """One element type. `kind` is 'f' (real float), 'c' (complex), 'i' or 'u'."""

    __slots__ = ("name", "itemsize", "kind", "code", "scalar", "move_only")

    def __init__(self, name, itemsize, kind, code, scalar, move_only=False):
        self.name = name
        self.itemsize = itemsize
        self.kind = kind
        self.code = code            # cupermDataType_t the C library is given
        self.scalar = scalar        # ctypes type of alpha and beta
        self.move_only = move_only  # only alpha=1, beta=0 is meaningful

    def __repr__(self):
        return "cuperm.dtype(%r)" % self.name

    def __eq__(self, other):
        return isinstance(other, DType) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def pack_scalar(self, value, what):
        """alpha or beta as the ctypes object cupermExecute expects."""
        if isinstance(value, bool):
            value = int(value)
        if not isinstance(value, numbers.Number):
            raise TypeError("%s must be a number, got %r" % (what, type(value).__name__))
        if self.move_only:
            expected = 1 if what == "alpha" else 0
            if value != expected:
                raise ValueError(
                    "%s is a plain move for dtype %s: cuperm has no arithmetic for it, so "
                    "only alpha=1 and beta=0 are allowed (got %s=%r)" % (what, self.name, what, value))
            value = expected
        if self.kind == "c":
            z = complex(value)
            return self.scalar(z.real, z.imag)
        if isinstance(value, complex) or (
                isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real)):
            if value.imag != 0:
                raise TypeError("%s=%r is complex but dtype %s is real" % (what, value, self.name))
            value = value.real
        if self.kind == "f":
            return self.scalar(float(value))
        # Integer types: the scalar is the element type, so it must be integral and fit.
        if isinstance(value, numbers.Integral):
            ivalue = int(value)
        else:
            fvalue = float(value)
            if not fvalue.is_integer():
                raise ValueError("%s=%r must be an integer for integer dtype %s" % (what, value, self.name))
            ivalue = int(fvalue)
        bits = 8 * ctypes.sizeof(self.scalar)
        lo, hi = (0, 2 ** bits - 1) if self.kind == "u" else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
        if not lo <= ivalue <= hi:
            raise ValueError("%s=%d does not fit dtype %s (range %d..%d)" % (what, ivalue, self.name, lo, hi))
        return self.scalar(ivalue)


class _Complex64(ctypes.Structure):
    _fields_ = [("re", ctypes.c_float), ("im", ctypes.c_float)]


class _Complex128(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


_ALL = [
    DType("float16", 2, "f", R_16F, ctypes.c_float),
    DType("bfloat16", 2, "f", R_16BF, ctypes.c_float),
    DType("float32", 4, "f", R_32F, ctypes.c_float),
    DType("float64", 8, "f", R_64F, ctypes.c_double),
    DType("complex64", 8, "c", C_32F, _Complex64),
    DType("complex128", 16, "c", C_64F, _Complex128),
    DType("int8", 1, "i", R_8I, ctypes.c_int8),
    DType("uint8", 1, "u", R_8U, ctypes.c_uint8),
    DType("int16", 2, "i", R_16I, ctypes.c_int16),
    DType("int32", 4, "i", R_32I, ctypes.c_int32),
    DType("uint32", 4, "u", R_32U, ctypes.c_uint32),
    DType("int64", 8, "i", R_64I, ctypes.c_int64),
    DType("uint64", 8, "u", R_64U, ctypes.c_uint64),
    # Moved as same-size integers: bit-exact copies, no arithmetic.
    DType("bool", 1, "u", R_8U, ctypes.c_uint8, move_only=True),
    DType("uint16", 2, "i", R_16I, ctypes.c_int16, move_only=True),
]
BY_NAME = {d.name: d for d in _ALL}

# DLPack type codes (dlpack.h: kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool).
_DL_INT, _DL_UINT, _DL_FLOAT, _DL_BFLOAT, _DL_COMPLEX, _DL_BOOL = 0, 1, 2, 4, 5, 6
_DLPACK = {
    (_DL_FLOAT, 16): "float16", (_DL_FLOAT, 32): "float32", (_DL_FLOAT, 64): "float64",
    (_DL_BFLOAT, 16): "bfloat16",
    (_DL_COMPLEX, 64): "complex64", (_DL_COMPLEX, 128): "complex128",
    (_DL_INT, 8): "int8", (_DL_INT, 16): "int16", (_DL_INT, 32): "int32", (_DL_INT, 64): "int64",
    (_DL_UINT, 8): "uint8", (_DL_UINT, 16): "uint16", (_DL_UINT, 32): "uint32",
    (_DL_UINT, 64): "uint64",
    (_DL_BOOL, 8): "bool",
}

# __cuda_array_interface__ typestr kind letters, as in NumPy's array interface.
_TYPESTR_KIND = {"f": "float", "c": "complex", "i": "int", "u": "uint", "b": "bool"}


def from_dlpack(code, bits, lanes):
    """The DType of a DLPack DLDataType, or ValueError naming what is unsupported."""
    if lanes != 1:
        raise ValueError("DLPack dtype with %d lanes is not supported (only scalar elements)" % lanes)
    name = _DLPACK.get((code, bits))
    if name is None:
        raise ValueError("DLPack dtype (code=%d, bits=%d) is not supported by cuperm" % (code, bits))
    return BY_NAME[name]


def from_typestr(typestr):
    """The DType of an array-interface typestr such as '<f4' or '|b1'."""
    if not isinstance(typestr, str) or len(typestr) < 3:
        raise ValueError("malformed typestr %r in __cuda_array_interface__" % (typestr,))
    order, letter, size = typestr[0], typestr[1], typestr[2:]
    if order == ">":
        raise ValueError("big-endian typestr %r is not supported" % typestr)
    if order not in "<|=" or letter not in _TYPESTR_KIND or not size.isdigit():
        raise ValueError("typestr %r is not a supported element type" % typestr)
    nbytes = int(size)
    name = "bool" if letter == "b" and nbytes == 1 else "%s%d" % (_TYPESTR_KIND[letter], 8 * nbytes)
    if name not in BY_NAME:
        raise ValueError("typestr %r (%s) is not supported by cuperm" % (typestr, name))
    return BY_NAME[name]


def normalize(dtype):
    """A DType from a name ('float32'), a NumPy/CuPy dtype or scalar type, or a torch dtype."""
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, str):
        name = dtype
    elif hasattr(dtype, "itemsize") and hasattr(dtype, "name") and not isinstance(dtype, type):
        name = dtype.name                      # numpy.dtype, cupy uses numpy dtypes
    elif isinstance(dtype, type) and hasattr(dtype, "__name__"):
        name = dtype.__name__                  # numpy.float32, the class
    else:
        name = str(dtype)                      # torch.float32 prints as 'torch.float32'
    name = name.rsplit(".", 1)[-1]
    name = "bool" if name == "bool_" else name  # NumPy 1.x spells its bool class bool_
    if name not in BY_NAME:
        raise TypeError("dtype %r is not supported by cuperm; supported: %s"
                        % (dtype, ", ".join(sorted(BY_NAME))))
    return BY_NAME[name]
