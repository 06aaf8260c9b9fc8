"""Attack round 15 (a fresh attacker on round 14's fixes): each finding's demonstration prints PASS (not
vulnerable) or FAIL. tests/test_attack_round15.py runs it and fails on any FAIL."""
import io
import uri1630 as u
from uri1630.schemes.gopher import MenuItem, parse_menu

P = "Kv7Qx3Jm"                      # the password; any 2+ char piece of it counts as a leak
PIECES = {P[i:i + 3] for i in range(len(P) - 2)} | {P[:2]}


def leaks(*texts):
    return any(g in str(t) for t in texts for g in PIECES)


def err_texts(f):
    try:
        r = f()
    except u.URIError as e:
        return [str(e), repr(e), str(e.text), str(e.message)]
    return [repr(r)]


def cli(*argv):
    from uri1630.cli import main
    o, e = io.StringIO(), io.StringIO()
    try:
        main(list(argv), io.StringIO(""), o, e)
    except SystemExit:
        pass
    return o.getvalue() + e.getvalue()


def report(hid, what, bad):
    print(f"{hid}: {'FAIL' if bad else 'PASS'}  {what}")


# H1: an '@' encoded three (or more) times (`%252540`) is not an "at sign" for errors._at_sign,
# so no masking runs at all (the readings in _READINGS would find the login: `%(?:25)*40`)
enc3 = f"http://a.b/p?r=%25252F%25252Fus%25253A{P}%252540h.x"
enc3b = f"http://us:{P}%252540h.x/"
bad = (
    leaks(repr(u.parse(enc3)))                                  # URI repr
    or leaks(*err_texts(lambda: u.parse_url(enc3 + " x")))       # URIError str/repr/.text
    or leaks(*err_texts(lambda: u.parse_url(enc3b)))
    or leaks(repr(u.compare(enc3, enc3.replace("Q", "%51"))))    # compare reason names 'Q'
    or leaks(cli("parse", enc3))                                  # CLI parse
)
report("H1", "triple-encoded login (%252540) not masked anywhere (errors._at_sign)", bad)

# H2: a scheme-relative login written with backslashes (WHATWG: `/\`, `\\`, `\/` after a special
# base are `//`): `_LOGIN_START` knows `http:\\u:pw@h` but not the relative `/\u:pw@h`
bs = f"http://a.b/p?r=/\\us:{P}@h.x/"
bs2 = f"\\\\us:{P}@h.x/"
bad = (
    leaks(repr(u.parse(bs)))
    or leaks(*err_texts(lambda: u.parse_url(bs)))
    or leaks(*err_texts(lambda: u.parse_url(bs2)))
    or leaks(repr(u.compare(bs, bs.replace("Q", "%51"))))
    or leaks(cli("check", bs))
)
report("H2", "backslash scheme-relative login /\\u:pw@h, \\\\u:pw@h not masked (errors._LOGIN_START)", bad)

# H3: errors._password_spans resumes its search at the '/' ending the candidate login, so a login
# start between `//` and that '/' is skipped: `//https:/u:pw@h` (a browser reads https:/u:pw@h)
def read_back(x, bad_input, other):
    "What uri1630 shows of `x`: its parse's repr, an error on `bad_input`, a comparison with `other`"
    return [repr(u.parse(x)), *err_texts(lambda: u.parse_url(bad_input)), repr(u.compare(x, other))]


sk = f"http://a.b/x//https:/us:{P}@h.x/"
bad = leaks(*read_back(sk, sk + " ", sk.replace("Q", "q")), cli("parse", sk))
report("H3", "login start right after '//' skipped (//https:/u:pw@h) (errors._password_spans)", bad)

# H4: G6 variant: the gopher type escaped twice (a gopher URL put in a query with its '%' encoded)
g = f"http://a.b/p?r=gopher://h/%2531ftp:/us:{P}@h.x"
bad = leaks(*read_back(g, g, g.replace("Q", "%51")))
report("H4", "gopher type escaped twice (/%2531ftp:/u:pw@h) not a login start (errors._LOGIN_START)", bad)

# H5: parse_menu returns MenuItems whose repr (NamedTuple default) shows a selector's login
menu = f"1d\t/1ftp://us:{P}@h.x/\th\t70\r\n1see http://us:{P}@h.x/\t/x\th\t70\r\n".encode()
items = parse_menu(menu)
bad = leaks(repr(items)) or leaks(repr(items[1].display))
report("H5", "repr(parse_menu(...)) shows a login in a selector / display (gopher.MenuItem)", bad)

# H6: MenuItem.url: the message quotes item.host[:80]!r unmasked (gopher://u:pw@h/... is a login),
# and the error's .text is url[:400], cut before it is masked (G8 variant, gopher.py _item_url)
bad1 = leaks(*err_texts(lambda: MenuItem("1", "d", "/x", f"us:{P}@h", 70).url))
bad2 = leaks(*err_texts(lambda: MenuItem("1", "d", "x" * 365 + f"/1ftp:/us:{P}@h/", "bad host", 70).url))
report("H6a", "MenuItem(host='u:pw@h').url message names the password", bad1)
report("H6b", "MenuItem.url error .text = url[:400] cut inside a login (prefix of password)", bad2)

# H7: FileURL.to_local_path: "the level {s[:40]!r}": the decoded level cut before masking, and its
# repr writes a TAB as '\t', so a TAB-broken '//' login is no longer read as one
f1 = u.parse_url("file:///" + "a" * 30 + f"%2F%2Fu%3A{P}%40h/x")
f2 = u.parse_url(f"file:///%2F%09%2Fu%3A{P}%40h/x")
report("H7a", "to_local_path message: decoded level cut at 40 inside a login",
       leaks(*err_texts(lambda: f1.to_local_path("posix"))))
report("H7b", "to_local_path message: TAB-broken login shown through !r",
       leaks(*err_texts(lambda: f2.to_local_path("posix"))))

# H8: an encoded login broken by an encoded TAB (`%2F%09%2F` = '/', TAB, '/': a browser drops the
# TAB after decoding). HttpURL's repr masks it (decoded field), but the URI repr, a URIError, a
# compare reason and `parse --json` do not (readings decode only %40/%3A/%2F, not %09/%0A/%0D)
t8 = f"http://a.b/p?%2F%09%2Fus%3A{P}%40h.x"
bad = (
    leaks(repr(u.parse(t8)))
    or leaks(*err_texts(lambda: u.parse_url(t8 + " x")))
    or leaks(repr(u.compare(t8, t8.replace("Q", "%51"))))
    or leaks(cli("parse", "--json", t8))
)
report("H8", "encoded-TAB-broken encoded login %2F%09%2Fu%3Apw%40h (errors._READINGS)", bad)

# H9: a login after an escaped separator: a gopher search after %09 (`/1x%09ftp:/u:pw@h`), a word
# after %20 (`a%20ftp:u:pw@h`). GopherURL/HttpURL repr mask it (decoded search), but URI repr, errors,
# compare and _repr_markdown_ do not (`_LOGIN_START` lookbehind: only `/%XX` before the scheme)
t9 = f"gopher://a.b/1x%09ftp:/us:{P}@h"
t9b = f"http://a.b/p?q=a%20ftp:us:{P}@h"
bad = (
    leaks(repr(u.parse(t9)))
    or leaks(u.parse_url(t9)._repr_markdown_())
    or leaks(*err_texts(lambda: u.parse_url(t9 + " x")))
    or leaks(repr(u.compare(t9, t9.replace("Q", "%51"))))
    or leaks(*err_texts(lambda: u.parse_url(t9b + " x")))
)
report("H9", "login after an escaped separator (%09ftp:/u:pw@h, %20ftp:u:pw@h) (errors._LOGIN_START)", bad)

# H3b: the same '//' skip in an encoded reading: `http://a.b/%2F1ftp%3A%2Fu%3Apw%40h` (HttpURL.repr
# masks the decoded path; the markdown, URI repr, errors and compare do not)
t3 = f"http://a.b/%2F1ftp%3A%2Fus%3A{P}%40h.x"
bad = (leaks(u.parse_url(t3)._repr_markdown_()) or leaks(repr(u.parse(t3)))
       or leaks(*err_texts(lambda: u.parse_url(t3 + " x"))))
report("H3b", "encoded gopher-type login after a path '/' (%2F1ftp%3A%2F...) (errors._password_spans)", bad)

# H6c: MenuItem with a multi-character type: "not {item.gtype[:20]!r}" and .text item.gtype[:200],
# both cut before masking (gopher.py _item_fields; G8 converted only the selector branch)
bad = (leaks(*err_texts(lambda: MenuItem(f"ftp://u:{P * 3}@h", "d", "/x", "h", 70).url))
       or leaks(*err_texts(lambda: MenuItem("1" * 190 + f"//u:{P}@h", "d", "/x", "h", 70).url)))
report("H6c", "MenuItem(gtype=<login>).url: gtype[:20]/[:200] cut inside a login", bad)

# H10: ftp_session's command check (ftp.py _check_commands) shows `cmd[:80]` unless the command
# starts "PASS ": a PASS smuggled after CR LF, a `PASS<TAB>`, or a login cut at 80 is shown
# (no connection is made: the check runs first)
def ftp_err(cmd):
    return err_texts(lambda: u.ftp_session("127.0.0.1", 9, [cmd]))
bad = (leaks(*ftp_err(f"USER anonymous\r\nPASS {P}"))
       or leaks(*ftp_err(f"PASS\t{P}\n"))
       or leaks(*ftp_err("CWD " + "x" * 66 + f"//u:{P}@h\n")))
report("H10", "ftp_session: PASS after CRLF / PASS<TAB> / cmd[:80] cut inside a login shown", bad)

# H11: errors._cut masks only a `str`: the octets a peer sent (bytes) are cut unmasked. A 127.0.0.1
# HTTP server's malformed status line (also: header line, FTP reply, Gopher+ header) quoting a
# login: the message is `_cut(line, 80)!r`, cut inside the password, so the whole-message mask
# in URIError finds no login
import socket, threading


def _serve_once(reply):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    s.settimeout(5)

    def run():
        try:
            c, _ = s.accept()
        except OSError:
            s.close()
            return
        try:
            c.settimeout(2)
            try:
                c.recv(4096)
            except OSError:
                pass
            c.sendall(reply)
        finally:
            c.close()
            s.close()

    threading.Thread(target=run, daemon=True).start()
    return s.getsockname()[1]


port = _serve_once(b"HTTP/1.0 2x " + b"x" * 50 + b" http://u:" + P.encode() + b"@h/\r\n\r\n")
report("H11", "_cut(bytes) not masked: HTTP status line cut inside a login (http.py _status_line)",
       leaks(*err_texts(lambda: u.retrieve(f"http://127.0.0.1:{port}/x", timeout=3))))

# H12: gopher_exchange's request check (gopher.py _check_request) quotes `{request!r}`: a login
# whose '//' a LF breaks (`/\n/u:pw@h`, which a browser reads as //u:pw@h) is written '/\\n/' by
# repr, and URIError's message mask no longer reads it as a login (no connection is made)
bad = leaks(*err_texts(lambda: u.gopher_exchange("127.0.0.1", 9, f"/\n/us:{P}@h\r\n", "1")))
report("H12", "gopher_exchange: repr of a LF-broken login in the request check message", bad)

# H13 (low): MenuItem.url, a selector holding a non-octet character inside a password, the login
# crossing the 200-character cut: the starred, cut `.text` holds no '@', so `_stored` does not see
# the position is inside a password and the message names the password's character
try:
    MenuItem("1", "d", "x" * 190 + "//u:pass\u0100word@h", "h", 70).url
    bad = False
except u.URIError as e:
    bad = "\u0100" in str(e) or "\u0100" in e.message
report("H13", "MenuItem.url names a password character when the login crosses the 200 cut", bad)
