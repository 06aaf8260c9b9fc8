"""Check the built docs site and the live explorers in a real headless browser (Debian chromium + playwright).

    python docs/browser_check.py [--site _site] [--no-live] [--screenshots docs/screenshots]

Static site (served from --site on 127.0.0.1): every page loads with no console error, no page error and
no failed request; every request stays on 127.0.0.1 (anything else is blocked and reported: no CDN);
the RFC quotations and the `show_doc` signatures are on the pages; the widgets render from their saved
state; and no file of the site names a CDN host.

Live (Voilà, on a temporary copy of the explorer notebooks, with a kernel): type into the encoding
explorer and the resolution explorer and check that the displayed result becomes the value the library
computes. Screenshots of the landing page and of each explorer go to --screenshots.
Exit status 0 if every check passed, 1 otherwise.
"""
import contextlib, functools, http.server, json, os, re, shutil, socket, subprocess, sys, tempfile, threading, time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("URI1630_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-quic"]
CDN = re.compile(r"cdn\.jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|ajax\.googleapis\.com|fonts\.googleapis\.com|"
                 r"fonts\.gstatic\.com|code\.jquery\.com|cdn\.plot\.ly|stackpath\.bootstrapcdn\.com|mathjax")
FAILURES = []


def check(ok, what):
    print(("  ok   " if ok else "  FAIL ") + what, flush=True)
    if not ok: FAILURES.append(what)
    return ok


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


@contextlib.contextmanager
def serve(folder):
    "Serve `folder` on 127.0.0.1 (a thread of this process, so it cannot be a stale server)"
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a): pass
    handler = functools.partial(Quiet, directory=str(folder))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True); t.start()
    try: yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally: srv.shutdown(); srv.server_close()


def watch(page, base_host):
    "Record console errors, page errors, failed requests, and block (and record) every request off `base_host`"
    log = {"console": [], "pageerror": [], "failed": [], "offsite": []}
    page.on("console", lambda m: m.type == "error" and log["console"].append(m.text))
    page.on("pageerror", lambda e: log["pageerror"].append(str(e)))
    page.on("requestfailed", lambda r: log["failed"].append(f"{r.url} ({r.failure})"))
    def route(r):
        host = urlparse(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:")) or host in (base_host, None): return r.continue_()
        log["offsite"].append(r.request.url); return r.abort()
    page.route("**/*", route)
    return log


def static_files_have_no_cdn(site):
    "No HTML/CSS/JS file of the site names a CDN (the vendored widget bundle's own default is overridden per page)"
    hits = []
    for p in site.rglob("*"):
        if p.suffix not in (".html", ".css", ".js") or p.name in ("embed-amd.js", "require.js"): continue
        for m in CDN.finditer(p.read_text(errors="replace")): hits.append(f"{p.relative_to(site)}: {m.group(0)}")
    check(not hits, f"no CDN named in the site's pages ({len(hits)} hits{': ' + '; '.join(hits[:5]) if hits else ''})")
    for p in site.glob("*.html"):
        for src in re.findall(r'<script[^>]+src="([^"]+)"', p.read_text()):
            if "://" in src or src.startswith("//"): check(False, f"{p.name}: script from {src}")


def check_static(browser, site, shots):
    pages = sorted(p.name for p in site.glob("*.html") if p.name not in ("genindex.html", "search.html", "py-modindex.html"))
    check("index.html" in pages and len(pages) > 5, f"{len(pages)} pages built")
    static_files_have_no_cdn(site)
    quotes = sigs = 0
    with serve(site) as base:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        for name in pages:
            page = ctx.new_page(); log = watch(page, "127.0.0.1")
            page.goto(f"{base}/{name}", wait_until="load")
            page.wait_for_timeout(100)   # late console errors (widget manager start-up) surface in this window
            q = page.locator("blockquote.rfc-quote").count(); s = page.locator("div.signature").count()
            quotes += q; sigs += s
            errs = log["console"] + log["pageerror"] + log["failed"] + [f"off-site request {u}" for u in log["offsite"]]
            check(not errs and page.locator("h1").count() >= 1, f"{name}: loads, {q} RFC quotes, {s} signatures"
                  + (f"; errors: {errs[:3]}" if errs else ""))
            if name == "index.html":
                check(page.locator("nav, .sidebar-tree").first.is_visible(), "index.html: navigation")
                check(page.locator("table").count() >= 1 and "encoding" in page.content(), "index.html: the map of the edition")
                if shots: page.screenshot(path=str(shots / "landing.png"))
            if name.startswith("encoding_explorer"):
                page.wait_for_selector(".widget-text input, .jupyter-widgets input", timeout=15000)
                val = page.locator(".widget-text input").first.input_value()
                check(val.startswith("http://info.cern.ch/"), f"{name}: widgets rendered from saved state (URI field: {val!r})")
                check(page.locator(".u1630-result").count() >= 1, f"{name}: explorer output rendered from saved state")
            if name.startswith("urls_in_context"):
                check(page.locator("blockquote.rfc-quote", has_text="URLs in Context").count() >= 1, f"{name}: the appendix is quoted")
                check(page.locator("div.signature", has_text="extract").count() >= 1, f"{name}: the signature of extract")
            page.close()
        # search works offline
        page = ctx.new_page(); log = watch(page, "127.0.0.1")
        page.goto(f"{base}/search.html?q=fragment", wait_until="load")
        page.wait_for_selector("#search-results li, ul.search li", timeout=15000)
        check(page.locator("ul.search li").count() > 0, f"search for 'fragment' finds {page.locator('ul.search li').count()} pages")
        page.close(); ctx.close()
    check(quotes >= 20, f"RFC quotations styled as quotations: {quotes} in all")
    check(sigs >= 20, f"show_doc signatures: {sigs} in all")


@contextlib.contextmanager
def voila(nb_path):
    "Voilà serving a temporary copy of `nb_path` (export cell removed); yields its URL"
    tmp = Path(tempfile.mkdtemp(prefix="u1630-voila-"))
    nb = json.loads(nb_path.read_text())
    nb["cells"] = [c for c in nb["cells"] if "nbdev_export()" not in "".join(c["source"])]
    (tmp / nb_path.name).write_text(json.dumps(nb))
    port = free_port()
    exe = Path(sys.executable).with_name("voila")
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1")
    p = subprocess.Popen([str(exe), nb_path.name, f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1",
                          "--show_tracebacks=True"], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        for _ in range(150):
            if p.poll() is not None: raise RuntimeError(f"voila exited: {p.stderr.read().decode()[-800:]}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0: break
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/"
    finally:
        p.terminate()
        try: p.wait(10)
        except subprocess.TimeoutExpired: p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def type_and_expect(page, label, value, expect, what):
    "Type `value` into the Text widget described `label`; wait until `.u1630-result` shows `expect`"
    box = page.locator(".widget-text", has=page.locator("label", has_text=label)).locator("input").first
    box.fill(value)
    box.press("Enter")
    try:
        page.wait_for_function("([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)",
                               arg=[".u1630-result", expect], timeout=20000)
        return check(True, f"{what}: typed {value!r}, shows {expect!r}")
    except Exception:
        got = [t.strip() for t in page.locator(".u1630-result").all_text_contents()]
        return check(False, f"{what}: typed {value!r}, expected {expect!r}, shows {got}")


def check_live_encoding(browser, shots):
    from uri1630 import canonical, to_level
    nb = ROOT / "nbs" / "06a_encoding_explorer.ipynb"
    with voila(nb) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 900}); log = watch(page, "127.0.0.1")
        page.goto(url, wait_until="load")
        page.wait_for_selector(".u1630-result", timeout=90000)
        uri = "http://info.cern.ch/a%2Db~c%41"
        # by RFC 1630: '-' and 'A' are safe (their escapes decode), '~' is unsafe (encoded); at alphanumeric even '.' is encoded
        want, want_alnum = "http://info.cern.ch/a-b%7EcA", "http://info%2Ecern%2Ech/a%2Db%7EcA"
        check(canonical(uri) == want and to_level(uri, "alphanumeric") == want_alnum, "the library agrees with the expected values")
        type_and_expect(page, "URI", uri, want, "encoding explorer (live, canonical)")
        page.locator(".widget-toggle-buttons button", has_text="alphanumeric").first.click()
        page.wait_for_function("([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)",
                               arg=[".u1630-result", want_alnum], timeout=20000)
        check(True, f"encoding explorer (live): level alphanumeric shows {want_alnum!r}")
        if shots: page.screenshot(path=str(shots / "encoding_explorer.png"), full_page=True)
        check(not log["pageerror"], f"encoding explorer (live): no page errors {log['pageerror'][:3]}")
        if log["offsite"]: print(f"  info Voila's own template asked for (blocked): {sorted(set(log['offsite']))}")
        page.close()


def check_live_resolution(browser, shots):
    nbs = sorted((ROOT / "nbs").glob("07a_*.ipynb"))
    if not nbs: print("  skip resolution explorer: nbs/07a_*.ipynb does not exist"); return
    try:
        import uri1630.partial as P
        from uri1630.widgets import resolution as R  # noqa: F401
    except ImportError as e:
        print(f"  skip resolution explorer: {e}"); return
    ctx_uri = "magic://a/b/c//d/e/f"   # the context of RFC 1630's example table
    with voila(nbs[0]) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 900}); log = watch(page, "127.0.0.1")
        page.goto(url, wait_until="load")
        page.wait_for_selector(".u1630-result", timeout=90000)
        ctx_box = page.locator(".widget-text", has=page.locator("label", has_text="ontext")).locator("input").first
        ctx_box.fill(ctx_uri); ctx_box.press("Enter")
        # RFC 1630's own table ("Partial (relative) form", p. 11), also what uri1630.partial.resolve answers
        table = {"g": "magic://a/b/c//d/e/g", "//g": "magic://g", "../g": "magic://a/b/c//d/g", "/g": "magic://a/g"}
        for partial, want in table.items():
            check(P.resolve(ctx_uri, partial) == want, f"resolve({ctx_uri!r}, {partial!r}) == {want!r} (RFC 1630's table)")
            type_and_expect(page, "artial", partial, want, "resolution explorer (live, examples reading)")
        page.locator(".widget-toggle-buttons button", has_text="literal").first.click()
        want = "magic://a/b/c//d/g"   # the RFC's sentence read literally (see nbs/07_partial_form.ipynb)
        check(P.resolve(ctx_uri, "/g", "literal") == want, f"resolve(..., '/g', 'literal') == {want!r}")
        try:
            page.wait_for_function("([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)",
                                   arg=[".u1630-result", want], timeout=20000)
            check(True, f"resolution explorer (live): literal reading of '/g' shows {want!r}")
        except Exception:
            check(False, f"resolution explorer (live): literal reading of '/g' should show {want!r}, shows "
                         f"{[t.strip() for t in page.locator('.u1630-result').all_text_contents()]}")
        if shots: page.screenshot(path=str(shots / "resolution_explorer.png"), full_page=True)
        check(not log["pageerror"], f"resolution explorer (live): no page errors {log['pageerror'][:3]}")
        page.close()


def main(argv):
    site = ROOT / (argv[argv.index("--site") + 1] if "--site" in argv else "_site")
    shots = ROOT / (argv[argv.index("--screenshots") + 1] if "--screenshots" in argv else "docs/screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    t0 = time.time()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        if "--live-only" not in argv: print("== static site"); check_static(browser, site, shots)
        if "--no-live" not in argv:
            print("== live encoding explorer (Voila)"); check_live_encoding(browser, shots)
            print("== live resolution explorer (Voila)"); check_live_resolution(browser, shots)
        browser.close()
    print(f"== browser checks: {len(FAILURES)} failed, in {time.time() - t0:.0f}s")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
