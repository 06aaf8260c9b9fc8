#!/usr/bin/env bash
# The notebook's rhythm (#21): no code line over 100 characters, one statement per line, no export cell over 40
# lines, every export cell followed by a cell that tests or shows it (imports aside). `.ci/export_cells.py`
# counts each rule per notebook; any count above zero fails the step (URI1630_FORMAT_GATES=report only reports).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
if [ "${URI1630_FORMAT_GATES:-enforce}" = "enforce" ]; then $PY .ci/export_cells.py --strict | tail -1; exit "${PIPESTATUS[0]}"; fi
$PY .ci/export_cells.py | tail -1
echo "(report only: URI1630_FORMAT_GATES=report)"
