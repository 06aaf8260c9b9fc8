"""Attack round 17 (a fresh attacker, told to get around round 16's fixes): RFC 1738 §6 masking.

The attacker's own script (tests/attacks/round17_findings.py) prints, for each finding, LEAK or
fixed: a `RetrievalError`'s `.command` (an HTTP request line, an FTP CWD, a gopher selector) kept the
URL's login unmasked (f01-f03); a gopher type-3 error cut at its TAB before masking (f04); a session's
trace masked only the passwords a retrieval knew, not a login in the line (f05); `uri1630 parse` looked
for every password form in every part, logins x length (f06, quadratic); a control character written as
an escape (`\x0c`) before a slashless login hid its start (f07, f08). Each must say fixed."""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "attacks" / "round17_findings.py"
IDS = [f"f{k:02d}" for k in range(1, 9)]


@pytest.fixture(scope="module")
def verdicts():
    r = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return {line[:3]: line.split(": ", 1)[1] for line in r.stdout.splitlines() if line[:1] == "f" and ": " in line}


@pytest.mark.parametrize("finding", IDS)
def test_round16(verdicts, finding):
    assert verdicts.get(finding, "missing").startswith("fixed"), f"{finding}: {verdicts.get(finding)}"
