"""cuperm._native for the tests: the package's own when it has one, else compiled from
python/native/_native.c into a scratch folder (pytest.skip without a C compiler or Python.h)."""

import importlib.util
import os
import sys

import pytest

NATIVE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "native")


def load_native(scratch):
    try:
        from cuperm import _native
        return _native
    except ImportError:
        pass
    sys.path.insert(0, NATIVE_DIR)
    try:
        import build_inplace
    finally:
        sys.path.remove(NATIVE_DIR)
    try:
        path = build_inplace.build(str(scratch))
    except RuntimeError as e:
        pytest.skip(str(e))
    spec = importlib.util.spec_from_file_location("cuperm._native", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_fake_exchange(scratch):
    """tests/fake_exchange.c compiled into scratch: a DLPack exchange API for stand-in tensors."""
    sys.path.insert(0, NATIVE_DIR)
    try:
        import build_inplace
    finally:
        sys.path.remove(NATIVE_DIR)
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_exchange.c")
    try:
        path = build_inplace.build(str(scratch), source=source, filename="fake_exchange.abi3.so")
    except RuntimeError as e:
        pytest.skip(str(e))
    spec = importlib.util.spec_from_file_location("fake_exchange", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
