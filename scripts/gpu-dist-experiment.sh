#!/usr/bin/env bash
# One device call of distributed-engine experiments (2 x H200, carry build-dt): an environment knob
# over several values on one held-out case set, then held-out sweeps on new seeds.
#   KNOB=NAME VALUES="0 1 2" KCASES="4 50 4" HELDOUT="6 52 4;8 53 1" OUT=... scripts/gpu-dist-experiment.sh
#   CONFIGS="A=0;A=1;A=1 B=0" KCASES="8 56 4;fixed 0 4" ... (settings of several variables each)
# KCASES (';' between sets) and each HELDOUT entry are "N SEED GB" (scripts/gpu-dist-heldout.sh; N =
# fixed: the fixed suite's rows named with DT_BENCH_ONLY); KSWEEP (ps) and KROWS (model) pick the
# knob runs' rows; HSWEEP (1) the held-out sweeps' transports.
set -uo pipefail
cd "$(dirname "$0")/.."
configs=()
if [[ -n "${CONFIGS:-}" ]]; then IFS=';' read -ra configs <<<"$CONFIGS"; fi
if [[ -n "${KNOB:-}" ]]; then for v in ${VALUES:-0}; do configs+=("$KNOB=$v"); done; fi
IFS=';' read -ra ksets <<<"${KCASES:-4 50 4}"
for c in "${configs[@]}"; do
    read -ra assign <<<"$c"
    for k in "${ksets[@]}"; do
        env "${assign[@]}" TAG="$(tr ' =' '_-' <<<"$c")" SWEEP=${KSWEEP:-ps} DT_RANDOM_ROWS=${KROWS:-model} \
            LIMIT_S=${KLIMIT_S:-200} scripts/gpu-dist-heldout.sh $k
    done
done
IFS=';' read -ra sets <<<"${HELDOUT:-}"
for s in "${sets[@]}"; do
    [[ -n "$s" ]] && SWEEP=${HSWEEP:-1} LIMIT_S=${HLIMIT_S:-240} scripts/gpu-dist-heldout.sh $s
done
