"""Attack rounds 16 and 17: each attacker's own script runs, and each of its findings must say fixed.

Attack round 16 (a fresh attacker, told to get around round 15's fixes): RFC 1738 §6 masking.

The attacker's own script (tests/attacks/round16_findings.py) prints, for each finding, LEAK or
fixed: an '@' encoded three times in the CLI's fast path (f01); a part cut before its login's '@'
in `uri1630 parse` (f02); a slashless login after an encoded TAB (f03), a '+' (`urlencode`'s space,
f04), a TAB, LF or CR (f05), an escape encoded four times (f06); messages that cut a peer's text
before masking it: an HTTP chunk size (f07) and Content-Length (f08), a Gopher+ error (f09), an
FTP reply at octet 4096 (f10); a `PASS<TAB>pw` command (f11); `RetrievalOptions`' repr (f12).
Each must say fixed. (f07-f10 are also kept out by one rule over the code: tests/test_cuts.py.)

Attack round 17 (a fresh attacker, told to get around round 16's fixes): RFC 1738 §6 masking.

The attacker's own script (tests/attacks/round17_findings.py) prints, for each finding, LEAK or
fixed: a `RetrievalError`'s `.command` (an HTTP request line, an FTP CWD, a gopher selector) kept the
URL's login unmasked (f01-f03); a gopher type-3 error cut at its TAB before masking (f04); a session's
trace masked only the passwords a retrieval knew, not a login in the line (f05); `uri1630 parse` looked
for every password form in every part, logins x length (f06, quadratic); a control character written as
an escape (`\x0c`) before a slashless login hid its start (f07, f08). Each must say fixed."""

from pathlib import Path

import pytest

from attacks.kit import verdicts

ROUNDS = {"16": 12, "17": 8}   # the round and how many findings its script holds
CASES = [(r, f"f{k:02d}") for r, n in ROUNDS.items() for k in range(1, n + 1)]
_SEEN: dict = {}


def _verdicts(r):
    if r not in _SEEN:
        _SEEN[r] = verdicts(Path(__file__).parent / "attacks" / f"round{r}_findings.py")
    return _SEEN[r]


@pytest.mark.parametrize("round_,finding", CASES)
def test_finding_is_fixed(round_, finding):
    said = _verdicts(round_).get(finding, "missing")
    assert said.startswith("fixed"), f"round {round_} {finding}: {said}"
