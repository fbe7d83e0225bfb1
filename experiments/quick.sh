#!/usr/bin/env bash
# The main job: set up (or reuse) .venv, then run the quick study (experiments/quick.yaml):
# short self-play training for every game, small duplicate-deal tournaments, one report.
# Extra arguments go to `bluff run`, e.g. `bash experiments/quick.sh --out runs/mine`.
set -euo pipefail
BLUFF_EXTRAS="${BLUFF_EXTRAS:-train}"  # the study needs no test or Ray packages
source "$(dirname "${BASH_SOURCE[0]}")/../.ci/venv.sh"
cd "$BLUFF_ROOT"
exec bluff run experiments/quick.yaml "$@"
