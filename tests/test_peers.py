"""Differential tests on the peers' OWN test tables (vendored in tests/peers/, see tests/peers/extract.py).

CPython's test_urlparse join tables (3.10-3.13), and the tables in the sdists of rfc3986, uritools,
hyperlink and w3lib: each case is run through the nearest uri1630 operation (resolve, parse,
parse_url / validate, equivalent, resolve for remove_dot_segments) and classified by
uri1630.peers (exported from nbs/33_then_and_now.ipynb, whose table "Where uri1630 differs from the Web" it
makes) as agree / differs (a kind, with the RFC sentence that decides it) / not comparable (a reason). No case
is skipped: every case must be classified, and every classification is checked against a fresh run. The notebook
reads the same tables from nbs/33_peers.json, which tests/peers/extract.py writes from these (checked below).
"""
import collections, json, re, sys
from pathlib import Path

import pytest

import uri1630.peers as C

HERE = Path(__file__).resolve().parent


def load(peer: str) -> dict:
    "The vendored table of `peer` (see tests/peers/extract.py)"
    return json.loads((HERE / "peers" / f"{peer}.json").read_text(encoding="utf-8"))


TABLES = {p: load(p) for p in C.PEERS}
RESULTS = C.results(TABLES)
ALL = [(p, row) for p, rows in RESULTS.items() for row in rows]
LIVE = C.results(C.live_tables())   # the peers run now (urllib, and ada-url and curl where installed): cases made in uri1630.peers
ALL_LIVE = ALL + [(p, row) for p, rows in LIVE.items() for row in rows]


def test_every_peer_table_is_vendored_with_licence_and_version():
    for p in C.PEERS:
        d = TABLES[p]
        assert d["version"] and d["licence"] and (HERE / "peers" / d["licence_file"]).stat().st_size > 100, p
        assert len(d["cases"]) >= 50, p                                   # a real table, not a stub
        assert len({c["id"] for c in d["cases"]}) == len(d["cases"]), p   # ids unique
        assert {c["op"] for c in d["cases"]} <= {"join", "split", "valid", "equivalent", "remove_dots"}


def test_every_case_is_classified():
    "No case is silently skipped and none is unexplained: each agrees, differs for a named kind, or is not comparable"
    bad = [(p, c["id"], c["args"], C.expected(c), ours) for p, (c, v, k, ours) in ALL if v not in ("agree", "differs", "not comparable")]
    assert not bad, "unexplained differences:\n" + "\n".join(map(repr, bad))
    assert sum(len(TABLES[p]["cases"]) for p in C.PEERS) == len(ALL)


@pytest.mark.parametrize("peer", C.PEERS + tuple(C.LIVE))
def test_classification_is_real(peer):
    "A case marked 'agree' really agrees, one marked 'differs' really differs and is of its kind, a 'not comparable' one fits its reason"
    if peer in C.LIVE and peer not in LIVE: pytest.skip(f"{peer} is not installed")
    for c, v, k, _ in (RESULTS if peer in RESULTS else LIVE)[peer]:
        if v == "not comparable":
            assert C.NOT_COMPARABLE[k][1](c), c["id"]
            continue
        ours = C.run(c)                                     # a fresh run, not the cached answer
        if v == "agree": assert ours == C.expected(c), c["id"]
        else:
            assert ours != C.expected(c), c["id"]
            assert C.KINDS[k].test(c, ours), c["id"]
            assert not any(C.KINDS[j].test(c, ours) for j in list(C.KINDS)[:list(C.KINDS).index(k)]), c["id"]   # the first that fits


def test_kinds_and_reasons_are_used_and_distinct():
    "Every kind of difference and every not-comparable reason explains at least one case (no dead explanations)"
    if set(C.LIVE) - set(LIVE): pytest.skip(f"live peers not installed: {sorted(set(C.LIVE) - set(LIVE))}")
    used = collections.Counter(k for _, (c, v, k, _) in ALL_LIVE if v != "agree")
    assert set(C.KINDS) | set(C.NOT_COMPARABLE) == set(used), set(C.KINDS) | set(C.NOT_COMPARABLE) ^ set(used)


def test_live_peers_are_run():
    "urllib is always there: its cases are answered by urljoin now, and each of them differs for the void-site kind"
    rows = LIVE["urllib"]
    from urllib.parse import urljoin
    assert rows and all(c["expected"] == urljoin(*c["args"]) for c, _, _, _ in rows)
    assert {k for _, v, k, _ in rows} == {"void-site-slashes"}


def test_the_notebook_reads_these_tables():
    "nbs/33_peers.json, which the notebook reads beside itself, is what extract.py makes from the tables here"
    nb_table = HERE.parent / "nbs" / "33_peers.json"
    if not nb_table.is_file(): pytest.skip("nbs/ is not here: the notebooks run from a clone of the repository")
    sys.path.insert(0, str(HERE / "peers"))
    try: import extract
    finally: sys.path.remove(str(HERE / "peers"))
    assert nb_table.read_text(encoding="utf-8") == extract.notebook_table(), \
        "nbs/33_peers.json is stale: run python tests/peers/extract.py --notebook"
    assert {p: d["cases"] for p, d in json.loads(extract.notebook_table())["peers"].items()} == {p: d["cases"] for p, d in TABLES.items()}


def test_kind_predicates_never_fire_on_agreements():
    "A kind is a reason for a difference: its predicate does not also describe cases that agree"
    fired = [(p, c["id"], [j for j, kind in C.KINDS.items() if kind.test(c, ours)]) for p, (c, v, k, ours) in ALL_LIVE if v == "agree"]
    fired = [f for f in fired if f[2]]
    assert not fired, fired


def _norm(t):
    return re.sub(r"\s+", " ", t).replace(" .", ".")


def _quote(s):
    "The verbatim quote of a kind's sentence: without a final parenthetical note, split at elisions"
    if s.endswith(")"):
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(s[i], 0)
            if depth == 0: s = s[:i].rstrip(); break
    return [x.strip() for x in re.split(r"\[\.\.\.\]|; (?=\w+ {1,2}[=x])", s) if x.strip()]


def test_sentences_are_quoted_verbatim():
    "The deciding sentence of every kind is in RFC 1630 or RFC 1738 as printed (whitespace aside)"
    seeds, vendored = HERE.parents[1] / "shared" / "seeds", HERE.parent.parent / "docs" / "rfc"
    if (seeds / "rfc1630.txt").is_file(): files = [seeds / "rfc1630.txt", *seeds.glob("001_*.txt")]
    else: files = [vendored / "rfc1630.txt", vendored / "rfc1738.txt"]   # the copies shipped with the clone
    if not all(f.is_file() for f in files): pytest.skip("neither ../shared/seeds nor docs/rfc/ (the RFC texts) is here")
    texts = " ".join(_norm(f.read_text()) for f in files)
    for name, k in C.KINDS.items():
        for piece in _quote(k.sentence):
            assert _norm(piece) in texts, (name, piece)


def test_counts(capsys):
    "The per-peer counts (also the table in nbs/33_then_and_now.ipynb)"
    for p, rows in RESULTS.items():
        n = collections.Counter(v for _, v, _, _ in rows)
        assert n["agree"] > 0 and sum(n.values()) == len(rows)
        print(p, dict(n))
