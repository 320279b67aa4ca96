#!/usr/bin/env bash
# One device call of distributed-engine experiments (2 x H200, carry build-dt): an environment knob
# over several values on one held-out case set, then held-out sweeps on new seeds.
#   KNOB=NAME VALUES="0 1 2" KCASES="4 50 4" HELDOUT="6 52 4;8 53 1" OUT=... scripts/gpu-dist-experiment.sh
# KCASES and each HELDOUT entry are "N SEED GB" (scripts/gpu-dist-heldout.sh); KSWEEP (ps) and KROWS
# (model) pick the knob runs' rows; HSWEEP (1) the held-out sweeps' transports.
set -uo pipefail
cd "$(dirname "$0")/.."
if [[ -n "${KNOB:-}" ]]; then
    for v in ${VALUES:-0}; do
        env "$KNOB=$v" TAG="$KNOB-$v" SWEEP=${KSWEEP:-ps} DT_RANDOM_ROWS=${KROWS:-model} LIMIT_S=${KLIMIT_S:-200} \
            scripts/gpu-dist-heldout.sh ${KCASES:-4 50 4}
    done
fi
IFS=';' read -ra sets <<<"${HELDOUT:-}"
for s in "${sets[@]}"; do
    [[ -n "$s" ]] && SWEEP=${HSWEEP:-1} LIMIT_S=${HLIMIT_S:-240} scripts/gpu-dist-heldout.sh $s
done
