"""Stand-ins for CUDA arrays, so argument handling can be tested without a GPU."""

from cuperm import _layout


class FakeCudaArray:
    """Exposes only __cuda_array_interface__ (like a Numba device array), pointing nowhere real."""

    def __init__(self, shape, typestr="<f4", ptr=0x7f0000000000, strides=None, readonly=False,
                 byte_strides=None, mask=None, stream=None):
        itemsize = int(typestr[2:])
        if byte_strides is None and strides is not None:
            byte_strides = tuple(s * itemsize for s in strides)
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": typestr, "data": (ptr, readonly),
            "strides": byte_strides, "version": 3, "mask": mask, "stream": stream}
        self.shape = tuple(shape)
        self.nbytes_span = _layout.byte_span(shape, strides or _layout.contiguous_strides(shape), itemsize)


class FakeDLPackArray:
    """A DLPack producer claiming to be on CUDA device 0 but exporting a NumPy (host) capsule."""

    def __init__(self, array):
        self.array = array
        self.streams_asked = []

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None, max_version=None):
        self.streams_asked.append(stream)
        return self.array.__dlpack__()
