"""Hypothesis strategies for URI-like text, shared by the property tests."""
from hypothesis import strategies as st

HEXD = "0123456789ABCDEFabcdef"
# every kind of character the RFC distinguishes: alphanumerics, safe, extra, reserved, national,
# punctuation, controls, 8-bit Latin-1, beyond Latin-1
PLAIN = st.sampled_from(list("aZ09$-_@.&!*\"'(),+=;:/?# ~{}|[]\\^<>`\t\x00é\xa0\xff"))
ESC = st.builds(lambda a, b: "%" + a + b, st.sampled_from(HEXD), st.sampled_from(HEXD))
RESERVED_ESC = st.sampled_from(["%2F", "%2f", "%3F", "%23", "%25", "%2B", "%2E", "%40", "%3A", "%20", "%7E", "%E9"])
UNIT = st.one_of(PLAIN, ESC, RESERVED_ESC, st.sampled_from(["..", ".", "//", "/"]))

uri_text = st.builds(lambda scheme, units: scheme + "".join(units),
                     st.sampled_from(["", "http:", "x:", "HTTP:", "ftp://", "magic://a/"]),
                     st.lists(UNIT, max_size=25))
"""URI-like text with well-formed escapes only (no bare '%')."""

latin1_text = st.text(st.characters(min_codepoint=0, max_codepoint=255), max_size=40)
any_text = st.text(max_size=60)
