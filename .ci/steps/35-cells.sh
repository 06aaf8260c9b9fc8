#!/usr/bin/env bash
# The notebook's rhythm (#21): no code line over 100 characters, one statement per line, no export cell over 40
# lines, every export cell followed by a cell that tests or shows it (imports aside). `.ci/export_cells.py`
# counts each rule per notebook. Report only until the formatting pass is done; URI1630_FORMAT_GATES=enforce
# makes any count above zero fail the step.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
if [ "${URI1630_FORMAT_GATES:-report}" = "enforce" ]; then exec $PY .ci/export_cells.py --strict; fi
$PY .ci/export_cells.py | tail -1
echo "(report only: set URI1630_FORMAT_GATES=enforce to fail on these)"
