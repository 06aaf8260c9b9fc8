#!/usr/bin/env bash
# Types: `mypy uri1630` with the strict configuration in pyproject.toml ([tool.mypy]; the modules being rewritten are
# listed there as exclusions, with the reason). Owner: release (#12).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
$PY -m mypy --version
$PY -m mypy uri1630
