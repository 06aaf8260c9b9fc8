#!/usr/bin/env bash
# The benchmark suite still runs (the `bench` extra: peers uritools, ada-url, rfc3986, yarl, hyperlink).
# Owner: perf. A smoke run of bench/run.py: every operation, peer, data set, the scaling curve, memory and the
# streaming CLI, on 200 URLs, once. No timing is asserted (the machine is shared); numbers: python bench/run.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
out=$(mktemp); trap 'rm -f "$out"' EXIT
nice -n 10 timeout 300 $PY bench/run.py --smoke --json "$out" | tail -12
$PY - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ops = {row['op'] for row in r['rows']}
missing = {'parse', 'validate', 'canonical'} - ops
assert not missing, f"bench: no figures for {missing}"
assert all(row['ns'] > 0 for row in r['rows']), "bench: a contender reported no time"
print(f"bench: {len(r['rows'])} figures, operations {sorted(ops)}")
PY
