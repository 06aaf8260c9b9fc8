"""The host grammar of RFC 1738 §3.1/§5 has three readers: the parsers' checker (`schemes._check_host`, which names
the rule and position of a fault), the fast path's regex (`schemes._HOST_RE`) and the URL grammar's combinators
(`url_grammar`, production `host`). They must accept the same hosts (#21): the BNF's `hostnumber` is any four
digit groups, so the combinators are read together with "each group is an octet" (RFC 1738 §3.1: "its IP address")."""
import re
from hypothesis import given, settings, strategies as st
from uri1630.errors import URIError
from uri1630.schemes import _check_host, _HOST_RE, split_url
from uri1630.url_grammar import check_production

HOST = re.compile(f"(?:{_HOST_RE})")


def checker(host: str) -> bool:
    src = split_url(f"http://{host}/")
    try: _check_host(src, 7, 7 + len(host))
    except URIError: return False
    return True


def combinators(host: str) -> bool:
    try: check_production(host, 0, None, 'host', 'rfc1738')
    except URIError: return False
    groups = host.split('.')
    if len(groups) == 4 and all(g.isdigit() for g in groups): return all(int(g) <= 255 for g in groups)
    return True


labels = st.text(alphabet="ab1-", min_size=0, max_size=5)
numbers = st.integers(0, 300).map(str) | st.sampled_from(["0", "00", "007", "255", "256", "1000"])
hosts = st.lists(labels | numbers, min_size=1, max_size=5).map('.'.join)


@settings(max_examples=3000, deadline=None)
@given(hosts)
def test_three_readers_of_host_agree(host):
    want = checker(host)
    assert (HOST.fullmatch(host) is not None) == want, host
    assert combinators(host) == want, host


def test_the_readers_are_not_trivial():
    for good in ("a", "a.b", "a-b.c1", "3com.com", "1.2.3.4", "255.0.00.010"): assert checker(good) and combinators(good), good
    for bad in ("", "-a", "a-", "a..b", "1.2.3", "256.1.1.1", "a.1b", "1.2.3.4.5", "a_b"): assert not checker(bad), bad
