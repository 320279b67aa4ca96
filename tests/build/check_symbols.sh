#!/usr/bin/env bash
# Every global symbol libcuperm.a defines is the library's own: a C name starting with
# cuperm (the public cupermX API, internal cuperm_x helpers) or a C++ name in namespace
# cuperm. An unprefixed one would collide with a user's symbols when linked statically. The one
# exception, DW.ref.__gxx_personality_v0, is the compiler's own reference to the C++ personality
# routine that every C++ object with exception tables shares (the Hopper GETT kernels have them).
#   check_symbols.sh path/to/libcuperm.a
set -euo pipefail
lib=$1
command -v nm >/dev/null || { echo "SKIPPED: nm not found"; exit 77; }
bad=$(nm -g --defined-only -C "$lib" | awk 'NF >= 3 { $1 = ""; $2 = ""; sub(/^ +/, ""); print }' |
      grep -vE '^cuperm|cuperm::|^DW\.ref\.__gxx_personality_v0$' | sort -u || true)
if [ -n "$bad" ]; then
  echo "unprefixed global symbols in $lib:"
  echo "$bad"
  exit 1
fi
echo "symbols: every global symbol of $(basename "$lib") is prefixed cuperm"
