#!/usr/bin/env bash
# The test command: set up (or reuse) .venv, then run the whole suite on every core.
# Extra arguments go to pytest, e.g. `bash tests/run.sh tests/bluff_envs/i_doubt_it -x`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../.ci/venv.sh"
cd "$BLUFF_ROOT"
workers="$(python -c 'import os; print(min(4, os.cpu_count() or 1))')"
exec python -m pytest -n "$workers" -p no:cacheprovider "$@"
