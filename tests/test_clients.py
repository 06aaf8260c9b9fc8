"""The committed run of the real clients (nbs/33_clients.json, made by tests/peers/clients.py) is complete.

Running the clients is CI's step .ci/steps/25-clients.sh (it fails if one is missing or an answer changed); this
checks, without running any, that the committed file is the one the harness would write for its cases: every case,
every client, every client ran.
"""
import json, sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "peers"))
import clients as H  # noqa: E402

if not H.OUT.is_file():
    pytest.skip(f"{H.OUT.name} is not here (it sits beside the notebooks): run from a clone of the repository",
                allow_module_level=True)
RUN = json.loads(H.OUT.read_text(encoding="utf-8"))


def test_every_client_ran():
    assert list(RUN["clients"]) == list(H.CLIENTS)
    assert {n: c["status"] for n, c in RUN["clients"].items()} == {n: "ran" for n in H.CLIENTS}
    assert all(c["version"] and c["reading"] and c["how"] for c in RUN["clients"].values())


def test_every_case_every_client():
    cases = H.cases()
    assert [(c["id"], c["context"], c["partial"]) for c in RUN["cases"]] == [(c["id"], c["context"], c["partial"]) for c in cases]
    assert all(set(c["answers"]) == set(H.CLIENTS) for c in RUN["cases"])
    # the answers are the clients' own: nothing of this machine's temp folders, every browser-page client asked
    text = H.OUT.read_text(encoding="utf-8")
    assert "/tmp/" not in text
    absolute = [c for c in RUN["cases"] if H._ABSOLUTE.match(c["context"])]
    assert all(c["answers"][n] is not None for c in absolute for n in ("Lynx", "w3m", "Node", "Chromium", "Perl URI"))


def test_the_issue_examples():
    "The answers issue #29 quotes: Lynx keeps libwww's //g -> http://g/ and ?y; w3m and Perl's URI as described"
    by = {(c["context"], c["partial"]): c["answers"] for c in RUN["cases"]}
    b = "http://a/b/c/d;p?q"
    assert by[b, "//g"]["Lynx"] == "http://g/" and by[b, "?y"]["Lynx"] == "http://a/b/c/?y"
    assert by[b, "?y"]["w3m"] == "http://a/b/c/d;p?y"
    assert by[b, "../../../g"]["Perl URI"] == "http://a/../g"
