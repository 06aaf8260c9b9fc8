"""Attack round 15 (a fresh attacker, told to get around round 14's fixes): RFC 1738 §6 masking.

The attacker's own script (tests/attacks/round15_findings.py) prints PASS or FAIL for each finding:
an '@' encoded three times (H1), logins written with backslashes (H2), a login starting inside
another's (H3, H3b), a gopher type escaped twice (H4), `MenuItem` and `ServerText` reprs (H5),
gopher item messages and texts cut inside a login (H6a-c, H13), a `file:` level cut or quoted
with `!r` (H7a, H7b), an encoded login broken by an encoded TAB (H8), a login after an escape
(H9), FTP commands with a PASS line after CR LF or a TAB (H10), a peer's bytes cut before
masking (H11), a request's LF-broken login quoted with `!r` (H12). Each must say PASS."""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "attacks" / "round15_findings.py"
IDS = "H1 H2 H3 H4 H5 H6a H6b H6c H7a H7b H8 H9 H3b H10 H11 H12 H13".split()


@pytest.fixture(scope="module")
def verdicts():
    r = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)


@pytest.mark.parametrize("finding", IDS)
def test_round15(verdicts, finding):
    assert verdicts.get(finding, "missing").startswith("PASS"), f"{finding}: {verdicts.get(finding)}"
