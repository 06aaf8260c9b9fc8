"""Property tests for the foundation: parse, escape/unescape, encoding levels, equivalence, validate."""
import re
from hypothesis import given, strategies as st, assume
from uri1630 import (parse, escape, unescape, to_level, canonical, equivalent, compare, validate, LEVELS,
                     URIError, URISyntaxError, GRAMMARS, encode_search, decode_search)
from uri1630.grammar import GENERIC, GENERIC_AS_PRINTED, GENERIC_FUTURE_ESCAPES
from strategies import uri_text, latin1_text, any_text

LEVEL_NAMES = list(LEVELS)
RESERVED_TOKENS = re.compile("%2F|%3F|%23|%25", re.I)


@given(any_text)
def test_parse_is_lossless(t):
    """str(parse(t)) == t for every string."""
    assert str(parse(t)) == t


@given(latin1_text)
def test_escape_roundtrip_latin1(t):
    """unescape(escape(x)) == x, and escape's output is printable 7-bit ASCII."""
    e = escape(t)
    assert unescape(e) == t
    assert all(0x20 < ord(c) < 0x7f for c in e)


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_escape_roundtrip_utf8(t):
    assert unescape(escape(t, encoding="utf-8"), encoding="utf-8") == t


def _shape(s):
    """What a level change must never alter: the parts present, the path segments, the search words,
    and the count of each reserved escape."""
    u = parse(s)
    return (u.scheme is None, u.path.count("/"), u.search is None or u.search.count("+"), u.fragment is None,
            sorted(m.upper() for m in RESERVED_TOKENS.findall(u.path)),
            sorted(m.upper() for m in re.findall("%2B", u.search or "", re.I)),
            [seg if seg in (".", "..") else seg.upper().replace("%2E", ".") in (".", "..") for seg in u.path.split("/")])


@given(uri_text, st.sampled_from(LEVEL_NAMES), st.sampled_from(LEVEL_NAMES), st.sampled_from(["latin-1", "utf-8"]))
def test_levels_preserve_meaning(u, a, b, enc):
    """Every level is idempotent, keeps reserved characters as written, and reaches every other level without loss."""
    x = to_level(u, a, encoding=enc)
    assert to_level(x, a, encoding=enc) == x
    assert _shape(x) == _shape(u)
    assert canonical(to_level(x, b, encoding=enc), encoding=enc) == canonical(u, encoding=enc)
    assert equivalent(u, x, encoding=enc)
    assert compare(u, x, encoding=enc).equivalent


@given(uri_text)
def test_canonical_idempotent_and_never_double_encodes(u):
    c = canonical(u)
    assert canonical(c) == c
    assert "%25" not in c or c.count("%25") == u.upper().count("%25")
    assert all(m == m.upper() for m in re.findall("%..", c))


@given(uri_text, uri_text, uri_text)
def test_equivalent_is_an_equivalence(a, b, c):
    assert equivalent(a, a)
    assert equivalent(a, b) == equivalent(b, a)
    if equivalent(a, b) and equivalent(b, c):
        assert equivalent(a, c)
    assert compare(a, b).equivalent == equivalent(a, b)


@given(uri_text, st.sampled_from(LEVEL_NAMES))
def test_equivalent_true_pairs(a, level):
    """Pairs that differ only in encoding level are equivalent (and the relation is transitive through them)."""
    b, c = to_level(a, level), to_level(a, "alphanumeric")
    assert equivalent(a, b) and equivalent(b, c) and equivalent(a, c)


@given(st.one_of(any_text, uri_text), st.sampled_from(sorted(GRAMMARS)), st.booleans())
def test_validate_never_crashes(t, grammar, partial):
    """validate returns None or raises URISyntaxError with a position inside the text and a rule
    (the URL grammars have no partial form: asking for one is a ValueError, not a syntax error)."""
    try:
        validate(t, grammar, partial)
    except URISyntaxError as e:
        assert e.rule and 0 <= e.position <= len(t)
    except ValueError as e:
        assert partial and not grammar.startswith("generic"), e


@given(st.one_of(any_text, uri_text), st.booleans())
def test_recogniser_and_diagnoser_agree(t, partial):
    """The fast regex and the diagnosing scanner implement the same grammar."""
    for g in (GENERIC, GENERIC_AS_PRINTED, GENERIC_FUTURE_ESCAPES):
        ok = (g.partial_re if partial else g.absolute_re).fullmatch(t) is not None
        if not ok:
            try:
                validate(t, g.name, partial)
                raise AssertionError("scanner accepted what the recogniser rejected")
            except URISyntaxError:
                pass


@given(uri_text)
def test_canonical_of_valid_is_valid(u):
    try:
        validate(u, partial=True)
    except URISyntaxError:
        return
    validate(canonical(u), partial=True)


@given(st.lists(st.text(min_size=1, alphabet=st.characters(max_codepoint=255)), max_size=6))
def test_search_roundtrip(words):
    s = encode_search(words)
    assert decode_search(s) == words
    if words:
        validate("x:p?" + s)


@given(any_text)
def test_public_functions_raise_only_urierror(t):
    for f in (canonical, lambda x: to_level(x, "decoded"), unescape, lambda x: compare(x, "a:b")):
        try:
            f(t)
        except URIError:
            pass
