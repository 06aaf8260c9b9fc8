"""Run REAL clients on the partial forms of "Then and now" (nbs/33_then_and_now.ipynb), and record their answers.

    python tests/peers/clients.py                  # run every client, write nbs/33_clients.json
    python tests/peers/clients.py --check          # run, and fail if the committed file differs or a client is missing
    python tests/peers/clients.py --out FILE       # write elsewhere

The cases: RFC 1630's ten examples, the cases it leaves open, the libwww probes (ids as in nbs/33's CASES), RFC 1808's
examples (§5), RFC 3986's (§5.4, normal and abnormal), and every join of the peers' vendored tables (tests/peers/*.json).
The clients, each run the way it resolves a page's links or a redirect:
- Lynx and w3m: one generated HTML page per context, `<base href=CONTEXT>` and one link per partial, dumped with its
  list of references (`lynx -dump -listonly`, `w3m -dump -o display_link_number=1`);
- Perl's URI (`URI->new_abs`), Node's and Chromium's WHATWG `URL` (`new URL(partial, context)`; Chromium through
  Playwright and the Debian chromium the site's browser checks drive);
- curl: a redirect from a loopback server (`Location: PARTIAL`), curl's `%{redirect_url}` (not followed), for the
  contexts curl can fetch (http with a host);
- the Python libraries: urllib.parse.urljoin, rfc3986, uritools, yarl, hyperlink, ada-url.
A client that is not installed is recorded as missing (its column says so); `--check` fails on it, so that CI, where
.ci/test installs every client (.ci/apt-packages, the bench extra), fails if one is missing. Nothing here depends on
uri1630: the file changes only when a client (or a case) does.
"""
import html, json, os, re, shutil, subprocess, sys, tempfile, threading, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = ROOT / "nbs" / "33_clients.json"
DOC = "(the document)"   # what Lynx answers where it uses the page's own address, written without the temp path

M, MS, H = "magic://a/b/c//d/e/f", "magic://a/b/c//d/e/", "http://a/b/c/d;p?q#f"
# the rows of nbs/33's table (its CASES; the notebook checks that both hold the same pairs)
TABLE_CASES = {
    **{f"R{i + 1}": (c, p) for i, (c, p) in enumerate((c, p) for c in (M, MS) for p in ("g", "/g", "//g", "../g", "g:h"))},
    "M1": (M, "../../g"), "M2": (M, "../../../g"), "M3": (M, "?y"), "M4": (M, "#s"), "M5": (M, ""), "M6": (M, "///g"),
    "M7": (M, "magic:g"),
    "H1": (H, "g"), "H2": (H, "?y"), "H3": (H, "#s"), "H4": (H, ""), "H5": (H, "."), "H6": (H, ".."), "H7": (H, "../../../g"),
    "H8": (H, "/./g"), "H9": (H, "/../g"), "H10": (H, ";x"), "H11": (H, "http:g"),
    "L1": ("http://a/b/c", "."), "L2": ("http://a/b/c", ".."), "L3": ("http://a/b/c/d", "../../../g"),
    "L4": ("http://a/b/c", "/../g"), "L5": ("http://a/b/c", "?y"), "L6": ("http://a/b/c#f", ""), "L7": ("http://a/b/c#f", "g"),
    "L8": ("http://a/b/c#f", "/g"), "L9": ("http://a/b/c?x/y", "g"), "L10": ("http://a/b/c", "http:g"),
    "L11": ("gopher://h/00/a/b", "../c"),
    # RFC 1738 §2.1 / RFC 1630: scheme and host case (relative's kind)
    "C1": ("HTTP://WWW.EXAMPLE.COM/foo/bar/", "g"), "C2": ("http://www.example.com/foo/bar/", "HTTP://WWW.EXAMPLE.COM/foo/g"),
}
RFC1808 = ("g:h g ./g g/ /g //g ?y g?y g?y/./x #s g#s g#s/./x g?y#s ;x g;x g;x?y#s . ./ .. ../ ../g ../.. ../../ ../../g "
           "| ../../../g ../../../../g /./g /../g g. .g g.. ..g ./../g ./g/. g/./h g/../h http:g http:").split(" ")
RFC3986 = ("g:h g ./g g/ /g //g ?y g?y #s g#s g?y#s ;x g;x g;x?y#s | . ./ .. ../ ../g ../.. ../../ ../../g ../../../g "
           "../../../../g /./g /../g g. .g g.. ..g ./../g ./g/. g/./h g/../h g;x=1/./y g;x=1/../y g?y/./x g?y/../x g#s/./x "
           "g#s/../x http:g").split(" ")


def cases():
    "Every case: [{id, group, context, partial}], the pairs each once (the first id wins)"
    out, seen = [], set()
    def add(i, group, c, p):
        if (c, p) in seen: return
        seen.add((c, p)); out.append(dict(id=i, group=group, context=c, partial=p))
    for k, (c, p) in TABLE_CASES.items(): add(k, "table", c, p)
    for n, p in enumerate(RFC1808):   # "|": the empty reference (the split above cannot hold it)
        add(f"1808-{n}", "rfc1808", "http://a/b/c/d;p?q#f", "" if p == "|" else p)
    for n, p in enumerate(RFC3986):
        add(f"3986-{n}", "rfc3986", "http://a/b/c/d;p?q", "" if p == "|" else p)
    for f in ("cpython", "hyperlink", "uritools"):
        for c in json.loads((HERE / f"{f}.json").read_text(encoding="utf-8"))["cases"]:
            if c["op"] == "join": add(c["id"], f"peer:{f}", c["args"][0], c["args"][1])
    return out


# ------------------------------------------------------------------ the clients
def _run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=60, **kw)


def _page(base, partials):
    links = "".join(f'<a href="{html.escape(p, quote=True)}">L{i}</a><br>\n' for i, p in enumerate(partials))
    return f'<html><head><base href="{html.escape(base, quote=True)}"><title>t</title></head><body>\n{links}</body></html>\n'


def _by_context(cs):
    groups = {}
    for i, c in enumerate(cs): groups.setdefault(c["context"], []).append(i)
    return groups


_ABSOLUTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _dump_pages(cs, dump, parse):
    "Run `dump(path)` on one page per context; `parse(text, path)` gives the list of answers in link order"
    ans = [None] * len(cs)   # a context with no scheme is n/a: a browser resolves it against the page's own file first
    with tempfile.TemporaryDirectory() as tmp:
        for n, (ctx, idx) in enumerate(_by_context(cs).items()):
            if not _ABSOLUTE.match(ctx): continue
            page = Path(tmp) / f"p{n}.html"
            page.write_text(_page(ctx, [cs[i]["partial"] for i in idx]), encoding="utf-8")
            got = parse(_run(dump(page), cwd=tmp).stdout.decode("utf-8", "replace"), page)
            if len(got) != len(idx):   # a link the client does not list: one page per partial for this context
                got = []
                for i in idx:
                    page.write_text(_page(ctx, [cs[i]["partial"]]), encoding="utf-8")
                    one = parse(_run(dump(page), cwd=tmp).stdout.decode("utf-8", "replace"), page)
                    got.append(one[0] if one else "(no link)")
            for i, a in zip(idx, got): ans[i] = a
    return ans


def _doc(a, page):
    for u in (page.as_uri(), "file://localhost" + str(page)):
        if a.startswith(u): return DOC + a[len(u):]
    return a


def lynx(cs):
    exe = shutil.which("lynx")
    if not exe: return None
    def parse(text, page):
        return [_doc(m.group(1), page) for m in re.finditer(r"^\s*\d+\.\s(.*)$", text, re.M)]
    ans = _dump_pages(cs, lambda p: [exe, "-dump", "-listonly", "-force_html", "-display_charset=utf-8", "-cfg=/dev/null",
                                     str(p)], parse)
    return ans, _run([exe, "--version"]).stdout.decode().splitlines()[0]


def w3m(cs):
    exe = shutil.which("w3m")
    if not exe: return None
    def parse(text, page):
        refs = text.split("References:", 1)[1] if "References:" in text else ""
        return [_doc(m.group(1), page) for m in re.finditer(r"^\[\d+\] ?(.*)$", refs, re.M)]
    ans = _dump_pages(cs, lambda p: [exe, "-dump", "-o", "display_link_number=1", "-T", "text/html", "-I", "UTF-8",
                                     "-O", "UTF-8", str(p)], parse)
    return ans, _run([exe, "-version"]).stdout.decode().split(",")[0].strip()


PERL = r'''
use strict; use URI; use JSON::PP;
local $/; my $in = decode_json(<STDIN>); my @out;
for my $c (@$in) { my $r = eval { URI->new_abs($c->[1], $c->[0])->as_string }; push @out, defined $r ? $r : "ERROR: $@"; }
print encode_json(\@out);
'''


def perl_uri(cs):
    exe = shutil.which("perl")
    if not exe or _run([exe, "-MURI", "-e", "1"]).returncode: return None
    r = _run([exe, "-e", PERL], input=json.dumps([[c["context"], c["partial"]] for c in cs]).encode())
    v = _run([exe, "-MURI", "-e", "print $URI::VERSION"]).stdout.decode()
    return json.loads(r.stdout), f"URI {v} (Perl)"


WHATWG = ("cs => cs.map(([c, p]) => { try { return new URL(p, c).href } catch (e) { return 'ERROR: ' + e.name } })")


def node(cs):
    exe = shutil.which("node")
    if not exe: return None
    src = f"const cs = JSON.parse(require('fs').readFileSync(0, 'utf8')); process.stdout.write(JSON.stringify(({WHATWG})(cs)))"
    r = _run([exe, "-e", src], input=json.dumps([[c["context"], c["partial"]] for c in cs]).encode())
    return json.loads(r.stdout), f"Node {_run([exe, '--version']).stdout.decode().strip()} (WHATWG URL)"


def chromium(cs):
    exe = os.environ.get("URI1630_CHROMIUM", "/usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError: return None
    if not Path(exe).exists(): return None
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=args)
        try:
            page = b.new_page()
            ans = page.evaluate(WHATWG, [[c["context"], c["partial"]] for c in cs])
            v = b.version
        finally: b.close()
    return ans, f"Chromium {v.split('.')[0]} (WHATWG URL)"


_CURL_CTX = re.compile(r"^(?i:(http)://)([^/?#@\[\]]+)([/?].*)?$")


def curl(cs):
    "curl's answer to a redirect: `Location: PARTIAL` from a loopback server, read as %{redirect_url} (not followed)"
    import http.server
    exe = shutil.which("curl")
    if not exe: return None
    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(302); self.send_header("Location", cs[int(self.headers["X-Case"])]["partial"])
            self.send_header("Content-Length", "0"); self.end_headers()
        def log_message(self, *a): pass
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    t = threading.Thread(target=srv.serve_forever, daemon=True); t.start()
    here = f"http://127.0.0.1:{srv.server_address[1]}"
    ans, cmd, which = [None] * len(cs), [exe, "-q"], []
    for i, c in enumerate(cs):
        m = _CURL_CTX.match(c["context"].split("#")[0])
        if not m or any(ord(ch) < 33 or ord(ch) > 126 for ch in c["partial"] + c["context"]): continue
        if which: cmd.append("--next")
        cmd += ["-s", "-o", "/dev/null", "--noproxy", "*", "-w", "%{redirect_url}\\n", "-H", f"X-Case: {i}",
                "--path-as-is", m.group(1) + here[4:] + (m.group(3) or "")]
        which.append((i, m.group(2)))
    try:
        out = _run(cmd).stdout.decode().split("\n")
    finally: srv.shutdown(); srv.server_close()
    for (i, host), a in zip(which, out):
        ans[i] = ("http://" + host + a[len(here):]) if a.startswith(here) else a
    v = _run([exe, "--version"]).stdout.decode().split(" (")[0]
    return ans, v


def _py(name, version_of, join):
    def run(cs):
        try:
            from importlib.metadata import version
            v = version(version_of) if version_of else sys.version.split()[0]
        except Exception: return None
        out = []
        for c in cs:
            try: out.append(str(join(c["context"], c["partial"])))
            except Exception as e: out.append(f"ERROR: {type(e).__name__}")
        return out, f"{name} {v}"
    return run


def _urljoin(c, p):
    from urllib.parse import urljoin
    return urljoin(c, p)


def _rfc3986(c, p):
    import rfc3986
    return rfc3986.uri_reference(p).resolve_with(c, strict=True).unsplit()


def _uritools(c, p):
    import uritools
    return uritools.urijoin(c, p, strict=True)


def _yarl(c, p):
    from yarl import URL
    return URL(c).join(URL(p))


def _hyperlink(c, p):
    from hyperlink import URL
    return URL.from_text(c).click(p).to_text()


def _ada(c, p):
    import ada_url
    return ada_url.join_url(c, p)


# name: (runner, how it was run, its reading of a case: what the column means)
CLIENTS = {
    "Lynx": (lynx, "a page with <base href=context>, lynx -dump -listonly",
             "Lynx's WWW library is CERN's libwww (HTParse) of 1993-94, maintained since: a partial that is empty or only a "
             "fragment-id names the document itself (its own address, not the base)."),
    "w3m": (w3m, "a page with <base href=context>, w3m -dump -o display_link_number=1",
            "w3m parses a URL by its scheme: in a scheme it does not know (magic:) it keeps only the scheme's name before "
            "the partial."),
    "Perl URI": (perl_uri, "URI->new_abs(partial, context)",
                 "RFC 3986's algorithm, except that a '..' above the root is kept (as in RFC 1808)."),
    "curl": (curl, "a 302 redirect from a loopback server, Location: partial; curl -w %{redirect_url}",
             "libcurl's URL API (RFC 3986); only a context curl can fetch (http, a host) is asked: the others are n/a."),
    "Node": (node, "new URL(partial, context).href", "The WHATWG URL standard (every browser's)."),
    "Chromium": (chromium, "new URL(partial, context).href in the page (Playwright)", "The WHATWG URL standard, in a browser."),
    "urljoin": (_py("Python urllib.parse.urljoin", None, _urljoin), "urljoin(context, partial)",
                "RFC 3986, non-strict (http:g is g), and only in the schemes urllib lists as relative: elsewhere the "
                "partial comes back unchanged."),
    "rfc3986": (_py("rfc3986", "rfc3986", _rfc3986), "uri_reference(partial).resolve_with(context, strict=True)",
                "RFC 3986 §5.2, strict."),
    "uritools": (_py("uritools", "uritools", _uritools), "urijoin(context, partial, strict=True)", "RFC 3986 §5.2, strict."),
    "yarl": (_py("yarl", "yarl", _yarl), "URL(context).join(URL(partial))",
             "RFC 3986 §5.2 on parsed URLs (it normalises the host and the path's encoding first)."),
    "hyperlink": (_py("hyperlink", "hyperlink", _hyperlink), "URL.from_text(context).click(partial)",
                  "RFC 3986 §5.2 on parsed URLs."),
    "ada-url": (_py("ada-url", "ada-url", _ada), "ada_url.join_url(context, partial)", "The WHATWG URL standard (C++, ada)."),
}


def run_all():
    cs = cases()
    clients, times = {}, {}
    for name, (fn, how, reading) in CLIENTS.items():
        t = time.time()
        try: r = fn(cs)
        except Exception as e: r = None; print(f"[clients] {name} failed: {type(e).__name__}: {e}", file=sys.stderr)
        times[name] = time.time() - t
        if r is None:
            clients[name] = dict(status="missing", how=how, reading=reading, version=None)
            for c in cs: c.setdefault("answers", {})[name] = None
        else:
            ans, version = r
            clients[name] = dict(status="ran", how=how, reading=reading, version=version)
            for c, a in zip(cs, ans): c.setdefault("answers", {})[name] = a
        print(f"[clients] {name}: {clients[name]['status']} ({clients[name]['version']}) in {times[name]:.1f} s", file=sys.stderr)
    return dict(generated_by="tests/peers/clients.py", clients=clients, cases=cs), times


def _differences(old, new):
    "What differs between the committed run `old` and this run `new`: each client's version, and its changed answers"
    oc, out = old.get("clients", {}), []
    for name, c in new["clients"].items():
        if oc.get(name, {}).get("version") != c["version"]:
            out.append(f"{name}: version {oc.get(name, {}).get('version')!r} committed, {c['version']!r} here")
    oa = {c["id"]: c["answers"] for c in old.get("cases", [])}
    for c in new["cases"]:
        was = oa.get(c["id"], {})
        for name, a in c["answers"].items():
            if was.get(name, a) != a: out.append(f"{name}: {c['partial']!r} against {c['context']!r} was {was[name]!r}, now {a!r}")
    return out[:20]


def main(argv):
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else OUT
    t0 = time.time()
    data, times = run_all()
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    print(f"[clients] {len(data['cases'])} cases, {len(data['clients'])} clients in {time.time() - t0:.1f} s", file=sys.stderr)
    if "--check" in argv:
        missing = [n for n, c in data["clients"].items() if c["status"] != "ran"]
        bad = []
        if missing: bad.append(f"clients missing on this machine: {missing} (.ci/apt-packages, the bench extra install them)")
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            new = Path(tempfile.gettempdir()) / "33_clients.json"; new.write_text(text, encoding="utf-8")
            bad.extend(_differences(json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}, data))
            bad.append(f"{out.relative_to(ROOT)} differs from this run (the new one: {new}); run python tests/peers/clients.py "
                       "and commit it")
        for b in bad: print("FAIL:", b, file=sys.stderr)
        return 1 if bad else 0
    out.write_text(text, encoding="utf-8")
    print(f"[clients] wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
