"""Extension modules for the tests: cuperm._native (the package's own when it has one, else compiled
from python/native/_native.c) and tests/fake_exchange.c, each into a scratch folder (pytest.skip
without a C compiler or Python.h)."""

import importlib.util
import os
import sys

import pytest

NATIVE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "native")


def _compile(scratch, name, **source):
    """Builds an extension module with python/native/build_inplace.py and imports it as `name`."""
    sys.path.insert(0, NATIVE_DIR)
    try:
        import build_inplace
    finally:
        sys.path.remove(NATIVE_DIR)
    try:
        path = build_inplace.build(str(scratch), **source)
    except RuntimeError as e:
        pytest.skip(str(e))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_native(scratch):
    try:
        from cuperm import _native
        return _native
    except ImportError:
        return _compile(scratch, "cuperm._native")


def load_fake_exchange(scratch):
    """tests/fake_exchange.c: a DLPack exchange API for stand-in tensors."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_exchange.c")
    return _compile(scratch, "fake_exchange", source=source, filename="fake_exchange.abi3.so")
