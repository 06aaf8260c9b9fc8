"""An attacker's round 9 (#28) on round 8's fixes (cf7cdc9): an embedded login in the markdown table, `copy` masking a value, a wrong cut that agrees, quadratic masking, a plain `str` password, an encoded embedded login. Each failed on cf7cdc9."""
import copy
import pickle
from dataclasses import dataclass

from uri1630.schemes import IPURL, parse_login, parse_url, register_scheme
from uri1630.schemes.ftp import FtpURL
from uri1630.security import risks


@dataclass(frozen=True, slots=True)
class WebUURL(IPURL):
    rest: str


def _parse_webu(src):  # http-like login end ('/' or '?'), a user and password allowed; registered, no record
    lg = parse_login(src, "/?")
    return WebUURL(src.url, src.scheme, lg.user, lg.password, lg.host, lg.port, src.text[lg.end : src.end])


register_scheme("x-webu", _parse_webu, replace=True)


# 1. _repr_markdown_ of an FtpURL that has its own password (a Secret) shows the password of a login embedded in
#    its path: `_masked_parts` returns the value as is when its password is a Secret, and `_md_cell` masks a str
#    only by `_masked` (which needs '//', gone once the path is split into segments) and a tuple not at all.
#    repr/str/pickle of the same value mask it ('v:***@w'); so does the markdown of `ftp://h/a//v:hunter2@w`.
def test_markdown_masks_embedded_login_when_value_has_a_secret():
    for url in ("ftp://u:x@h/a//v:hunter2@w", "ftp://u:x@h/a//v:hunter2@w/b"):
        u = parse_url(url)
        assert "hunter2" not in repr(u) and "hunter2" not in str(u)
        assert "hunter2" not in u._repr_markdown_(), url   # name 'v:hunter2@w' / cwd ('a', '', 'v:hunter2@w')


# 2. copy.copy / copy.deepcopy go through `__reduce_ex__`, which now returns `_masked_copy` with masked parts for
#    any value whose text holds an embedded login: the copy is not equal to the original, and it is a different
#    URL to fetch -- FtpURL.commands() of the copy sends 'CWD v:***@w' instead of 'CWD v:pw@w', reveal() of the
#    copy gives 'ftp://u:secret@h/a//v:***@w/f'. A copy must be equal (and act the same); only a pickle masks.
def test_copy_of_value_with_embedded_login_is_equal():
    for url in ("ftp://u:secret@h/a//v:pw@w/f", "http://h/a//v:pw@w/", "x-foo://h/a//v:pw@w"):
        u = parse_url(url)
        assert copy.copy(u) == u, url
        assert copy.deepcopy(u) == u, url
        assert copy.copy(u).reveal() == u.reveal(), url
    u = parse_url("ftp://u:secret@h/a//v:pw@w/f")
    assert copy.copy(u).commands() == u.commands()


# 3. `IPURL.spans` takes the first cut whose parts agree -- the record's stops ('/' when a scheme has no record)
#    before the cut the parser made -- and a wrong cut can agree: with a registered http-like scheme that allows a
#    user (login ends at '/' or '?'), `x-webu://u:pw@010.0.0.1?q@010.0.0.1` parses as user 'u', password 'pw',
#    host '010.0.0.1'; the cut at the end agrees too (same host text after the last '@'), so spans.password cuts
#    'pw@010.0.0.1?q' and spans.host the second '010.0.0.1'. With ports (the URL below) risks puts
#    host-number-zeros at 31 (not 14) and reserved-port at 41 (not 24); without, host-number-zeros at 26.
def test_spans_registered_scheme_with_user_reading_like_http():
    url = "x-webu://u:pw@010.0.0.1:0023?q@010.0.0.1:0023"
    u = parse_url(url)
    assert (u.user, u.password, u.host, u.port) == ("u", "pw", "010.0.0.1", 23)
    s, w = u.spans, u.reveal()
    assert w[slice(*s.password)] == "pw"          # now 'pw@010.0.0.1:0023?q'
    assert s.host == (14, 23) and s.port == (24, 28)
    got = {r.kind: r.position for r in risks(url)}
    assert got["host-number-zeros"] == 14 and got["reserved-port"] == 24   # now 31 and 41


# 4. Not linear: `_loose_forms` collects the forms of every embedded login's password (duplicates kept, ~20
#    forms each) and `_mask_forms` / `_mask_text` search the whole text for each form: O(logins x length).
#    str() of a 45k-char HttpURL (3000 embedded `//v:hunter2@w` logins) takes ~1 s here (200k chars: ~20 s);
#    FtpURL's repr/pickle are worse (the cwd tuple keeps the clear forms, each found everywhere): 8k chars of
#    'a//v:pw@w/' take 1.6 s (repr) and 2.7 s (pickle), i.e. ~20-30 minutes at 200k chars.
def test_masking_is_linear_in_embedded_logins():
    # (the project's one guard against super-linear time: CPU time at two sizes, x10 input under x30 time)
    from scaling import assert_linear
    assert_linear(lambda n: str(parse_url("http://h/" + "a//v:hunter2@w/" * n)), 200, floor=0.01, max_doublings=3)
    assert_linear(lambda n: (lambda f: (repr(f), pickle.dumps(f)))(parse_url("ftp://h/" + "a//v:pw@w/" * n)), 100,
                  floor=0.01, max_doublings=3)
    # distinct passwords: each login's own forms
    assert_linear(lambda n: str(parse_url("http://h/" + "".join(f"a//v:pw{i}x@w/" for i in range(n)))), 200,
                  floor=0.01, max_doublings=3)


# 5. A hand-made value whose password is a plain str (allowed: "must not break hand-made values, password as plain
#    str") and whose text holds it: str() and format() show the password. The own login's cut agrees, so
#    `_loose_forms` looks only after it, and `_unplaced_forms` looks only at a Secret. (A Secret with no place,
#    or a wrong `_at`, is masked: 'ftp://u:***@h/'.) _repr_markdown_ of the same value masks it.
def test_handmade_plain_str_password_not_in_str():
    u = FtpURL("ftp://u:hunter2@h/", "ftp", "u", "hunter2", "h", None, (), "", None, None)
    assert "hunter2" not in u._repr_markdown_()
    assert "hunter2" not in str(u)           # now 'ftp://u:hunter2@h/'
    assert "hunter2" not in format(u, "")


# 6. (low) An embedded login whose '@' (or '//') is percent-encoded in the text is decoded into a part as a clear
#    `//v:hunter2@w` login: repr, markdown and pickle show it (str keeps the escapes), while the same part from a
#    literal '@' is masked: gopher://h/1//v:hunter2@w -> selector='//v:***@w', but
#    gopher://h/1//v:hunter2%40w -> selector='//v:hunter2@w'.
def test_decoded_embedded_login_masked_in_parts():
    for url in ("gopher://h/1//v:hunter2%40w", "gopher://h/1a%2F%2Fv:hunter2@w", "ftp://h/a/%2F%2Fv:hunter2@w"):
        u = parse_url(url)
        assert "hunter2" not in repr(u), url
        assert "hunter2" not in u._repr_markdown_(), url
        assert b"hunter2" not in pickle.dumps(u), url
