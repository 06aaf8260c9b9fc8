"""Attack round 16 (a fresh attacker, told to get around round 15's fixes): RFC 1738 §6 masking.

The attacker's own script (tests/attacks/round16_findings.py) prints, for each finding, LEAK or
fixed: an '@' encoded three times in the CLI's fast path (f01); a part cut before its login's '@'
in `uri1630 parse` (f02); a slashless login after an encoded TAB (f03), a '+' (`urlencode`'s space,
f04), a TAB, LF or CR (f05), an escape encoded four times (f06); messages that cut a peer's text
before masking it: an HTTP chunk size (f07) and Content-Length (f08), a Gopher+ error (f09), an
FTP reply at octet 4096 (f10); a `PASS<TAB>pw` command (f11); `RetrievalOptions`' repr (f12).
Each must say fixed. (f07-f10 are also kept out by one rule over the code: tests/test_cuts.py.)"""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "attacks" / "round16_findings.py"
IDS = [f"f{k:02d}" for k in range(1, 13)]


@pytest.fixture(scope="module")
def verdicts():
    r = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    return {line[:3]: line.split(": ", 1)[1] for line in r.stdout.splitlines() if line[:1] == "f" and ": " in line}


@pytest.mark.parametrize("finding", IDS)
def test_round16(verdicts, finding):
    assert verdicts.get(finding, "missing").startswith("fixed"), f"{finding}: {verdicts.get(finding)}"
