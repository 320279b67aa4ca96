#!/usr/bin/env python3
"""Compiles cuperm._native (python/native/_native.c) with the C compiler, without CMake.

For a source checkout (the wheel builds it through python/CMakeLists.txt): by default into
python/cuperm/, where `import cuperm` from python/ finds it. The tests call build() into a scratch
folder. One C file against the limited API: about a second; the result serves every CPython >= 3.9.

    python3 python/native/build_inplace.py [--out DIR] [--cc CC]
"""

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "_native.c")
FILENAME = "_native.abi3.so"  # importlib's EXTENSION_SUFFIXES accept .abi3.so on Linux


def python_include():
    """The folder holding Python.h, or None (e.g. Debian's python3 without python3-dev)."""
    d = sysconfig.get_paths().get("include")
    return d if d and os.path.exists(os.path.join(d, "Python.h")) else None


def build(out_dir, cc=None, source=SOURCE, filename=FILENAME):
    """Builds the module (or another extension module from `source`, e.g. a test's) into out_dir;
    returns its path. RuntimeError says what is missing."""
    cc = shutil.which(cc or os.environ.get("CC", "cc"))
    include = python_include()
    if cc is None or include is None:
        raise RuntimeError("building cuperm._native needs a C compiler and Python's headers (Python.h): %s"
                           % ("no C compiler" if cc is None else "no Python.h under %s" % sysconfig.get_paths()["include"]))
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, filename)
    subprocess.check_call([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                           "-fvisibility=hidden", "-I", include, "-I", HERE, "-o", target, source])
    return target


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(HERE, os.pardir, "cuperm"))
    p.add_argument("--cc")
    args = p.parse_args()
    print(build(os.path.abspath(args.out), args.cc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
