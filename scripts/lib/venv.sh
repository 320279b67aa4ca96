# Sourced by the scripts: the project-local Python environment ./.venv that the
# tests use (numpy, pytest; cuobjdump for the architecture check when the CUDA
# toolkit has none). The system Python is left as it is.
CUPERM_VENV=${CUPERM_VENV:-$PWD/.venv}

# Finds a cuobjdump: $CUOBJDUMP, the PATH, /usr/local/cuda/bin.
cuperm_find_cuobjdump() {
  local c
  for c in "${CUOBJDUMP:-}" "$(command -v cuobjdump 2>/dev/null)" /usr/local/cuda/bin/cuobjdump; do
    [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
  done
  return 1
}

# Creates ./.venv if needed and installs what the tests need into it.
cuperm_venv_setup() {
  local venv=$CUPERM_VENV
  if [ ! -x "$venv/bin/python" ]; then
    # Debian's python3 has no ensurepip (so no venv with pip) without python3-venv.
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
      local v
      v=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
      apt_install python3-venv "python$v-venv" || apt_install python3-venv
    fi
    echo "setup: creating the Python environment $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  local want=()
  "$venv/bin/python" -c 'import numpy' 2>/dev/null || want+=(numpy)
  "$venv/bin/python" -c 'import pytest' 2>/dev/null || want+=(pytest)
  # cuobjdump is not in every CUDA toolkit install (pip-installed toolkits lack it).
  if ! cuperm_find_cuobjdump >/dev/null && ! ls "$venv"/lib/python*/site-packages/nvidia/cu*/bin/cuobjdump >/dev/null 2>&1; then
    want+=("nvidia-cuda-cuobjdump==13.*")
  fi
  if [ ${#want[@]} -gt 0 ]; then
    echo "setup: installing ${want[*]} into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "${want[@]}"
  fi
}
