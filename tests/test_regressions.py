"""Regression tests: every input that once broke a uri1630 promise (found by the fuzzer, the generic contract
tests of tests/test_reliability.py, or by hand), with the promise it broke.

Bugs in notebooks owned by others that are not fixed yet are `xfail(strict=True)` with the owner named: when the
fix lands the test XPASSes, fails, and the mark must be removed.
"""
import importlib, pickle
import pytest
from uri1630 import (URIError, URIEncodingError, URISyntaxError, escape, unescape, to_level, canonical, equivalent,
                     compare, explain_level, char_class, describe_char, unsafe_kind, decode_search, encode_search)


# -- found by tests/test_reliability.py::test_only_urierror_for_any_text (fixed in nbs/06_encoding) --
@pytest.mark.parametrize("call", [
    lambda: escape("\x80", encoding="idna"),                  # idna raises a plain UnicodeError, not UnicodeEncodeError
    lambda: escape(".", safe="", encoding="idna"),            # "label empty or too long"
    lambda: to_level("\x80", "canonical", encoding="idna"),
    lambda: canonical("\x80", encoding="idna"),
    lambda: equivalent("", "\xad", encoding="idna"),
    lambda: encode_search(["\x80"], encoding="idna"),
    lambda: unescape("%00", encoding="punycode"),             # decoding side: plain UnicodeError too
    lambda: decode_search("%00", encoding="punycode"),
], ids=["escape", "escape-label", "to_level", "canonical", "equivalent", "encode_search", "unescape", "decode_search"])
def test_codec_unicodeerror_is_uriencodingerror(call):
    with pytest.raises(URIEncodingError):
        call()


# -- found by test_only_urierror_for_any_text: single-character functions crashed in ord() (fixed in 23, 05, 06) --
@pytest.mark.parametrize("f", [describe_char, unsafe_kind])
@pytest.mark.parametrize("c", ["", "ab"])
def test_single_character_functions_reject_other_lengths(f, c):
    with pytest.raises(URIError, match="one character"):
        f(c)


def test_char_class_of_void_unit():
    "char_class('') returned 'alnum' ('' in 'abc…' is True)"
    with pytest.raises(URIError):
        char_class("")


# -- found by test_non_str_is_typeerror: bytes were str()-ed into "b'…'" and canonicalised (fixed in 06) --
@pytest.mark.parametrize("f", [canonical, to_level, explain_level, lambda x: equivalent(x, "a:b"), lambda x: compare(x, "a:b")],
                         ids=["canonical", "to_level", "explain_level", "equivalent", "compare"])
@pytest.mark.parametrize("bad", [b"http://h/", 42, ["x:y"]], ids=["bytes", "int", "list"])
def test_uri_arguments_reject_non_str(f, bad):
    with pytest.raises(TypeError, match="str"):
        f(bad)


# -- found by test_megabytes_of_hostile_text: a port of more than 4300 digits (owner: schemes, nbs/09) --
def test_huge_port_is_a_syntax_error():
    "int() of a >4300-digit port raised ValueError ('Exceeds the limit'); fixed in nbs/09_specific_schemes"
    from uri1630.schemes import parse_url
    with pytest.raises(URISyntaxError) as ei:
        parse_url("http://h:" + "9" * 5000 + "/")
    assert (ei.value.position, ei.value.rule) == (9, "port")


def test_huge_nntp_article_number_is_a_syntax_error():
    "the same int() limit in the nntp: article number (found by fixer; fixed in nbs/20_further_study)"
    from uri1630.schemes import parse_url
    importlib.import_module("uri1630.schemes.further")
    with pytest.raises(URISyntaxError) as ei:
        parse_url("nntp://h/g/" + "9" * 5000)
    assert (ei.value.position, ei.value.rule) == (11, "digits")


def test_huge_port_in_risks_is_a_syntax_error_or_reported():
    "risks() on a huge port: a URIError or a port risk, never ValueError from int()"
    from uri1630.security import risks
    try:
        rs = risks("http://h:" + "9" * 100 + "/")
    except URIError:
        return
    assert [r.kind for r in rs] == ["port"]


# -- found by test_results_are_immutable (owners named): list results are unhashable --
def test_decode_search_returns_fresh_lists():
    "The contract is `decode_search(search) -> list[str]`: a new list on every call, of immutable words"
    a = decode_search("a+b%2Bc")
    assert a == ["a", "b+c"] and all(type(w) is str for w in a)
    a.append("x")
    assert decode_search("a+b%2Bc") == ["a", "b+c"]


def test_extract_returns_fresh_lists():
    "extract/find_urls return lists by their public contract (`extract(text) -> list[str]`), not tuples: each call "
    "builds a fresh list of immutable items, so a caller mutating one cannot affect the library or a later call"
    import pickle
    c = importlib.import_module("uri1630.context")
    text = "see <URL:http://h/> and <URL:ftp://x/>"
    for f in (c.extract, c.find_urls):
        a, b = f(text), f(text)
        assert type(a) is list and a == b and a is not b and len(a) == 2
        assert all(hash(x) is not None for x in a) and pickle.loads(pickle.dumps(a)) == a
        a.clear(); a.append("mutated")
        assert f(text) == b


def test_http_request_host_must_be_str():
    r = importlib.import_module("uri1630.schemes.http")   # moved from uri1630.retrieve (#15)
    with pytest.raises(TypeError):
        r.http_request("/", b"h")


# -- errors must survive pickling with every field (multiprocessing, logging) --
def test_error_pickles():
    try:
        unescape("a%zz")
    except URISyntaxError as e:
        e2 = pickle.loads(pickle.dumps(e))
        assert (e2.message, e2.text, e2.position, e2.rule) == (e.message, e.text, e.position, e.rule) == (e.message, "a%zz", 1, "escape")


# -- found by tests/test_reliability.py::test_megabytes_of_hostile_text: quadratic time in the fast path of to_level --
def test_to_level_linear_on_many_changed_units():
    "_convert_fast re-scanned the whole part for each unit it changed (to find its position): 40 KB of '<URL:' took 70 s"
    from uri1630 import to_level
    from scaling import assert_linear
    assert_linear(lambda n: to_level("<URL:" * n), 4_000)   # 20 KB -> 200 KB, every '<' changes: < x30 CPU time


# -- found by the fuzzer (fuzz/fuzz_uri1630.py, input b'\xff'): url_grammar.check_production (owner of nbs/24_bnf_url) --
def test_check_production_unknown_name():
    "was KeyError for an unknown production name (reported to and fixed by the owner of nbs/24_bnf_url)"
    ug = importlib.import_module("uri1630.url_grammar")
    with pytest.raises(ValueError):
        ug.check_production("", 0, 0, "no-such-production", "rfc1738")


def test_check_production_negative_span():
    "was IndexError for a negative start/end (reported to and fixed by the owner of nbs/24_bnf_url)"
    ug = importlib.import_module("uri1630.url_grammar")
    try:
        ug.check_production("http://h/", -2, -2, "httpurl", "rfc1738")
    except (URIError, ValueError):
        pass


def test_check_production_span_beyond_text():
    "found by the CI fuzz run (input base64 K2kAAAAKAABnACk=): a span beyond the text was a plain ValueError"
    ug = importlib.import_module("uri1630.url_grammar")
    with pytest.raises(URIError) as e:
        ug.check_production("", 5, 8, "url", "rfc1630")
    assert e.value.rule == "span" and isinstance(e.value, ValueError)


# -- found by the fuzzer (input base64 JS9fdGVsbmV0Oi8vAQ/9MZYCow==): retrieve.http_request (owner of nbs/32_retrieval) --
def test_http_request_non_ascii_host():
    "was UnicodeEncodeError (fixed in nbs/32_retrieval: the host is checked, rule 'host')"
    r = importlib.import_module("uri1630.schemes.http")   # moved from uri1630.retrieve (#15)
    with pytest.raises(URIError) as ei:
        r.http_request("/_", "\U000e6c65")
    assert (ei.value.position, ei.value.rule) == (0, "host")


def test_http_request_refuses_crlf_in_host():
    r = importlib.import_module("uri1630.schemes.http")   # moved from uri1630.retrieve (#15)
    with pytest.raises(URIError):
        r.http_request("/", "h\r\nX-Injected: y")


# -- found while writing nbs/25_security: the gopher refusal names the first CR/LF/NUL escape, not the offending one --
def test_gopher_refusal_points_at_the_offending_escape():
    "a NUL inside an ASK block was refused at the first %0D (24), not at the %00 (31); fixed in nbs/12_gopher"
    from uri1630.schemes import parse_url
    importlib.import_module("uri1630.schemes.gopher")
    url = "gopher://h/1s%09%09+%091%0D%0A+-1%0D%0Av%00%0D%0A.%0D%0A"    # with §3.4.9's +-1 line (issue #14)
    with pytest.raises(URIError) as ei:
        parse_url(url).request()
    assert ei.value.position == url.index("%00")


# -- found by the CI fuzz run once every module was instrumented (input base64
#    /yU1wXQlMkJlbG5ldDovLwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEX/Ag==): to_level --
def test_level_change_never_makes_a_scheme():
    "was: to_level('%5At%2Belnet://…', 'alphanumeric') decoded the first escape to 'Z' and the partial form became absolute"
    from uri1630 import LEVELS, to_level, equivalent, parse
    t = "%5At%2Belnet://" + "\x00" * 50
    for enc in ("latin-1", "utf-8"):
        for lv in LEVELS:
            x = to_level(t, lv, enc)
            assert parse(x).scheme is None and equivalent(t, x, enc), (lv, enc, x)
