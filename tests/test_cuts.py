"""A message never cuts a text before masking it (RFC 1738 §6): the one boundary is `errors._cut`.

A cut to a fixed length (`text[:20]`, `text[-2000:]`) can drop a login's '@', and what is left reads as
no login, so its password shows (attack rounds 14 and 16: a chunk size, a Content-Length, a Gopher+
error, an FTP reply cut at octet 4096). So the package holds no such cut of its own: every one goes
through `errors._cut(text, n)`, which masks first, or slices a text already masked (`_masked(t)[-n:]`).
The rule is read from the code (every module of the package), not from a list of the places known.
"""
import ast
import re
from pathlib import Path

import pytest

import uri1630

PACKAGE = Path(uri1630.__file__).parent
MASKED_FIRST = {"_masked", "_starred_logins", "_cut"}   # calls whose result holds no password
CONTAINERS = {"list", "tuple", "sorted"}   # a cut of rows, not of a text
SHORT = 8   # a slice of a few characters (a scheme's `[:4]`, a hex pair) cuts no login in a message


def _bound(node):
    "The value of a slice bound written as a constant (or an ALL-CAPS name: a limit), else None"
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value
    if isinstance(node, ast.Name) and node.id.isupper():
        return SHORT + 1
    return None


def raw_cuts(source: str) -> list[tuple[int, str]]:
    "The fixed-length cuts of `source` whose text is not masked first: (line, code)"
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)):
            continue
        lo, hi = _bound(node.slice.lower), _bound(node.slice.upper)
        head = hi is not None and hi > SHORT and node.slice.lower is None
        tail = lo is not None and lo < -SHORT and node.slice.upper is None
        v = node.value
        masked = isinstance(v, ast.Call) and getattr(v.func, "id", getattr(v.func, "attr", None)) in MASKED_FIRST | CONTAINERS
        if (head or tail) and not masked:
            found.append((node.lineno, ast.unparse(node)))
    return found + _format_cuts(source)


def _format_cuts(source: str) -> list[tuple[int, str]]:
    "The cuts a format spelling makes: `f'{x:.20}'`, `'%.20s' % x`, `'{:.20}'.format(x)`"
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = "".join(v.value for v in node.format_spec.values if isinstance(v, ast.Constant))
            if re.search(r"\.\d+s?$", spec) and not _masked_call(node.value):
                found.append((node.lineno, ast.unparse(node.value) + ":" + spec))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(r"%\.\d+s|\{[^{}]*:\.\d+s?\}", node.value):
            found.append((node.lineno, node.value[:60]))
    return found


def _masked_call(v) -> bool:
    return isinstance(v, ast.Call) and getattr(v.func, "id", getattr(v.func, "attr", None)) in MASKED_FIRST


@pytest.mark.parametrize("code,bad", [
    ('f"malformed chunk size {size[:20]!r}"', True),             # round 16's f07
    ("ServerText(text[:4096])", True),                             # f10
    ("why = ServerText((h + rest).strip()[:200])", True),          # f09
    ('f"{err[-2000:]}"', True),
    ("x[:LIMIT]", True),
    ('f"malformed chunk size {_cut(size, 20)!r}"', False),
    ("_masked(url)[:200]", False),
    ('f"{_masked(err)[-2000:]}"', False),
    ("t[:4] == 'http'", False),                                    # a short prefix compared, no cut
    ("text[:n]", False),
    ("list(seen.items())[:_MAX_ROWS]", False),                     # rows, not a text
    ('f"{text:.20}"', True),                                        # a format's precision cuts too
    ('"%.20s" % text', True),
    ('"{:.20}".format(text)', True),
    ('f"{ratio:.2f}"', False),                                      # a number's precision is no cut
    ('f"{_masked(text):.20}"', False),                                           # `_cut`'s own slice: n is its argument
])
def test_the_rule_finds_a_raw_cut(code, bad):
    assert bool(raw_cuts(code)) is bad


def test_no_module_cuts_a_text_before_masking_it():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 20
    bad = [f"{p.relative_to(PACKAGE.parent)}:{line}: {code}" for p in modules for line, code in raw_cuts(p.read_text())]
    assert not bad, "cut before masking (use errors._cut(text, n)):\n" + "\n".join(bad)
