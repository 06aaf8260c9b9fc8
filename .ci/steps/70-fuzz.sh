#!/usr/bin/env bash
# Coverage-guided fuzzing (atheris, the `fuzz` extra): a short run of fuzz/fuzz_uri1630.py over every target.
# Owner: reliability. Fails if the fuzzer finds an input that breaks the error contract or an invariant;
# the crashing input is printed (base64) so it can become a test in tests/test_regressions.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
if ! $PY -c "import atheris" 2>/dev/null; then
  echo "atheris missing: bash .ci/setup dev (the dev extra brings fuzz)" >&2; exit 1
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
# seed corpus: one base64 input per line in fuzz/seeds.b64
$PY -c "import base64,sys,pathlib; d=pathlib.Path(sys.argv[1]); [(d/f's{i}').write_bytes(base64.b64decode(l)) for i,l in enumerate(open('fuzz/seeds.b64')) if l.strip() and not l.startswith('#')]" "$work/corpus"
set +e
# A fixed seed and run count make CI's run reproducible (the same inputs every time, so a red run is a real
# regression, not luck); longer, random runs: FUZZ_SEED=0 FUZZ_RUNS=-1 FUZZ_SECONDS=600 bash .ci/steps/70-fuzz.sh
export PYTHONHASHSEED=0
nice -n 10 $PY fuzz/fuzz_uri1630.py -seed=${FUZZ_SEED:-1630} -runs=${FUZZ_RUNS:-100000} -max_total_time=${FUZZ_SECONDS:-90} -timeout=10 -rss_limit_mb=2048 \
  -dict=fuzz/uri.dict -artifact_prefix="$work/" -print_final_stats=1 "$work/corpus" > "$work/log" 2>&1
rc=$?
set -e
grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec)|DONE|cov:' "$work/log" | grep -v -E 'NEW|REDUCE|pulse' | tail -4 || true
if [ $rc -ne 0 ]; then
  grep -v -E '^(INFO|#[0-9]+)' "$work/log" | tail -40 >&2
  for f in "$work"/crash-* "$work"/timeout-* "$work"/oom-*; do [ -e "$f" ] && echo "crashing input (base64): $(base64 -w0 "$f")" >&2; done
  echo "FAIL: the fuzzer found a crash (see above)" >&2; exit 1
fi
