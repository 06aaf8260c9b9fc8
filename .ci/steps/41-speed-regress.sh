#!/usr/bin/env bash
# ci: alone
# Speed that cannot slip unseen (#30): the last release (the newest tag, else the commit that set settings.ini's
# version) is extracted to a temporary directory (git archive) and timed against the working tree, interleaved,
# operation by operation, with pyperf (worker processes, calibrated loops). An operation fails the step when it is
# slower by more than 10% AND pyperf's two-sample t-test calls the difference significant; the output names it
# with both figures. Run alone (no other step beside it). By hand: python bench/perf.py regress [--against REV]
# URI1630_SPEED_GATES=report only reports (work in progress on a branch; a machine too busy to time).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
if ! git rev-parse --git-dir >/dev/null 2>&1; then echo "not a git checkout: no release to compare with" >&2; exit 1; fi
# a shallow clone holds no release: fetch the history when it can (CI clones whole)
[ "$(git rev-parse --is-shallow-repository)" = "true" ] && git fetch -q --unshallow || true
report=(); [ "${URI1630_SPEED_GATES:-enforce}" = "report" ] && report=(--report)
$PY bench/perf.py regress "${report[@]}"
