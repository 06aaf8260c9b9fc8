"""Hypothesis strategies for partial forms: contexts, targets and partials with `//`, dot-like names, `%2F`, searches, fragments."""
from hypothesis import strategies as st

SCHEMES = ["magic", "http", "x", "news", "gopher"]
# path elements: names, void elements (give `//`), real dots, dot-like names that are not dots, escapes, colons
ELEMENT = st.sampled_from(["a", "b", "c", "d", "g", "", "", ".", "..", "..x", "x..", ".x", "%2E%2E", "%2F", "a%2Fb", "a:b", "~u", "e f"])
SEARCH = st.one_of(st.none(), st.sampled_from(["", "y", "a+b", "x/../y", "q//r", "%3F"]))
FRAGMENT = st.one_of(st.none(), st.sampled_from(["", "s", "s/./t", "a#b"]))


def _join(scheme, host, elems, search, fragment):
    s = f"{scheme}:" + (f"//{host}" if host is not None else "") + ("/" if elems is not None else "")
    s += "/".join(elems or [])
    if search is not None: s += "?" + search
    if fragment is not None: s += "#" + fragment
    return s


def absolute(scheme=st.sampled_from(SCHEMES)):
    """An absolute URI: `scheme:` [`//host`] [`/path`] [`?search`] [`#fragment`], the path full of `//`, dots and lookalikes."""
    return st.builds(_join, scheme, st.one_of(st.none(), st.sampled_from(["a", "h", "", "A"])),
                     st.one_of(st.none(), st.lists(ELEMENT, max_size=7)), SEARCH, FRAGMENT)


contexts = absolute()
# targets: mostly the context's schemes, sometimes another spelling or another scheme
targets = st.one_of(absolute(), absolute(st.sampled_from(["MAGIC", "Http", "ftp"])))
PUNIT = st.sampled_from(["/", "//", "///", ".", "..", "../", "./", "g", "a", "a:b", "%2F", "e f", "..x", "?y", "#s", "g:h", ":"])


def bad_scheme(p):
    "`True` if `p` has a colon before any slash whose text before it is void or starts with no letter: a syntax error"
    head = p.split("?")[0].split("#")[0]
    k = head.find(":")
    return k >= 0 and "/" not in head[:k] and not (k > 0 and head[0].isascii() and head[0].isalpha())


# a "scheme" that is void or starts with no letter is a syntax error (nbs/07, "A void scheme"; tested there and in test_void_scheme)
partials = st.builds("".join, st.lists(PUNIT, max_size=8)).filter(lambda p: not bad_scheme(p))
"""Partial (and some absolute) forms: leading slash runs, dot elements, colons, searches, fragments."""
readings = st.sampled_from(["examples", "literal"])
