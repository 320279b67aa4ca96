import os
import sys

# JAX grabs most of the GPU's memory on first use unless told not to; the GPU tests share one device.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

# Test the installed package when there is one, else the source tree (with $CUPERM_LIBRARY).
try:
    import cuperm  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
