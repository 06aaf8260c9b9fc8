"""RFC 1738 §6 over the whole surface: an error found inside a password never names the character found there.

For every scheme whose record reads a login (the registry, not a list), every grammar `validate` knows and both
readings of `parse_url`, a password holding each of the 256 Latin-1 characters and a few beyond is read; every
`URIError` raised keeps the password out of its message, `str`, `repr` and text, and where its position falls in the
password its message names no character (not as `'c'`, not as `U+XXXX`)."""

from uri1630 import URIError, parse_url, validate
from uri1630.catalog import _ENTRIES, _load_builtins
from uri1630.grammar import GRAMMARS
import uri1630.url_grammar  # noqa: F401  (registers the URL grammars)

_load_builtins()
LOGIN_SCHEMES = sorted(k for k, e in _ENTRIES.items() if e.login is not None)
# every character but those that end a login before its '@' (RFC 1738 §3.1: the login is read to the first '/';
# '?' and '#' end a URL's authority in every reading): with one of those, what follows is no password
CHARS = [chr(i) for i in range(256) if chr(i) not in "/?#"] + ["\u0100", "\u202e", "\u4e00", "\U0001f600"]
PASSWORD = "Qx7{}Wv"   # letters no scheme name, host or path here holds


def _named(message: str, c: str) -> bool:
    return repr(c) in message or f"U+{ord(c):04X}" in message


def _readers():
    for g in GRAMMARS:
        yield f"validate {g}", lambda t, g=g: validate(t, g)
    for rfc in ("1738", "1630"):
        yield f"parse_url rfc={rfc}", lambda t, rfc=rfc: parse_url(t, rfc)


def test_login_schemes_come_from_the_registry():
    assert {"ftp", "telnet", "http"} <= set(LOGIN_SCHEMES), LOGIN_SCHEMES


def test_no_password_character_is_named():
    seen = bad = 0
    for scheme in LOGIN_SCHEMES:
        for c in CHARS:
            pw = PASSWORD.format(c)
            url = f"{scheme}://user:{pw}@host/x"
            lo, hi = url.index(pw), url.index(pw) + len(pw)
            for name, read in _readers():
                try:
                    read(url)
                except URIError as e:
                    seen += 1
                    shown = "\n".join([str(e), repr(e), e.message, str(e.text)])
                    assert pw not in shown and "Qx7" not in shown and "Wv@" not in shown, (name, url, shown)
                    if e.position is not None and lo <= e.position < hi:
                        assert not _named(e.message, url[e.position]), (name, url, e.message)
                        bad += 1
    assert seen > 1000 and bad > 100, (seen, bad)   # the cases reach errors inside passwords
