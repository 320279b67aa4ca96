#!/usr/bin/env bash
# The carried GPU test programs alone (build-carry/bin/test_*, scripts/lib/make-carry.sh), each with its log
# in $OUT: a quick check of a library built here. Run (carry build-carry): scripts/gpu-carried-tests.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/carried.sh
cuperm_carried_begin "$PWD/gpu-carried-logs"
cuperm_carried_tests
