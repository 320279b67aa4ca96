# For scripts that run a library built elsewhere for sm_90 and carried to the device machine in
# build-carry/ (lib/libcuperm.so.0, bin/cuperm-bench). Source from the repository root.
export LD_LIBRARY_PATH="$PWD/build-carry/lib:${LD_LIBRARY_PATH:-}"
bench=build-carry/bin/cuperm-bench

# cuperm_logs_begin DEFAULT_LOGS: $logs ($OUT, else DEFAULT_LOGS) made, the GPU's name and driver in
# $logs/gpu.txt (for scripts that run no cmocka test)
cuperm_logs_begin() {
  logs="${OUT:-$1}"
  mkdir -p "$logs"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
}

# cuperm_carried_begin DEFAULT_LOGS: cuperm_logs_begin, and cmocka found (carried in build-carry/lib, or
# the carried .deps debs)
cuperm_carried_begin() {
  if [ ! -f build-carry/lib/libcmocka.so.0 ]; then # make-carry.sh copies this machine's, when it has one
    source scripts/lib/deps.sh
    cuperm_find_cmocka
  fi
  cuperm_logs_begin "$1"
}

# cuperm_sample_cases FILE EVERY SUITE ARGS...: every EVERY-th case of the suite (case-file lines) into FILE
cuperm_sample_cases() {
  local file=$1 every=$2; shift 2
  "$bench" "$@" --list | grep -v '^#' | awk -v k="$every" '(NR - 1) % k == 0' >"$file"
}

# cuperm_carried_tests: each GPU test program in build-carry/bin, its log in $logs and a line printed
cuperm_carried_tests() {
  local exe t
  for exe in build-carry/bin/test_*; do
    t=$(basename "$exe")
    timeout 200 "$exe" >"$logs/$t.log" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
  done
}

# cuperm_model_run TAG ARGS...: one cuperm-bench run of model plans into $logs, its ratio lines printed
cuperm_model_run() {
  local tag=$1; shift
  timeout 150 "$bench" "$@" --mode model --quiet --out "$logs" >"$logs/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -h 'ratio' "$logs/$tag.log" | tail -2 | tr '\n' ' ')"
}

# cuperm_model_run_into TAG ARGS...: cuperm_model_run with its CSV and summary in $logs/TAG (runs of
# one suite would overwrite each other's)
cuperm_model_run_into() { (logs="$logs/$1" && mkdir -p "$logs" && cuperm_model_run "$@"); }

# cuperm_plan_shim_run: TCCG48 f32 under build-carry/lib/plan_shim.so (where planning's host time goes),
# when the shim was carried
cuperm_plan_shim_run() {
  [ -f build-carry/lib/plan_shim.so ] || return 0
  mkdir -p "$logs/shim"
  LD_PRELOAD="$PWD/build-carry/lib/plan_shim.so" timeout 150 "$bench" tccg48 --dtype f32 --mode model --quiet \
    --no-verify --target-ms 5 --out "$logs/shim" >"$logs/plan-shim.log" 2>&1
  echo "plan shim rc=$?"; grep plan_shim "$logs/plan-shim.log"
}

# cuperm_plan_us_summary GLOB: median, p90 and max of plan_ms (in µs) of each contraction CSV matching GLOB
cuperm_plan_us_summary() {
  python3 - "$1" <<'PY'
import csv, glob, statistics as st, sys
for f in sorted(glob.glob(sys.argv[1])):
    rows = [r for r in csv.DictReader(l for l in open(f) if not l.startswith("#"))]
    ms = [float(r["plan_ms"]) * 1e3 for r in rows if r.get("plan_ms")]
    if ms: print(f"{'/'.join(f.split('/')[-2:])}: plan_us median {st.median(ms):.1f} p90 {sorted(ms)[int(0.9*len(ms))]:.1f} max {max(ms):.1f}")
PY
}

# cuperm_pack_logs: everything in $logs into $logs/all-logs.tgz (the device tool brings back 8 files)
cuperm_pack_logs() {
  local tgz
  tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
}
