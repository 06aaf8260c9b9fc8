"""Check the built docs site in a real headless browser (Debian chromium + playwright), offline.

    python docs/browser_check.py [--site _site] [--screenshots docs/screenshots] [--json figures.json]

The site is served from --site by a thread of this process on 127.0.0.1; every request that leaves
127.0.0.1 is aborted by a route handler and counted (the count must be 0).

- every page: loads with no console error, page error or failed request; no horizontal page scroll at
  390 px and at 1280 px; RFC quotations and `show_doc` signatures counted; no file of the site names a CDN;
- each live explorer (encoding, resolution, parse): a URL typed into it, key by key, that is in no preset
  shows exactly what the library (CPython, here) answers; time from navigation to the first live result
  and the time of each update after it (measured in the page around the render call) are reported;
- a code cell edited in place and run shows the new result; the cells of a page share one namespace;
- the JupyterLite notebook (if built: _site/lite/) opens a notebook and runs a cell.
Bounds asserted are generous (30 s to the first result, 1 s an update): the figures are reported, the goals
(5 s, 100 ms) are the performance page's business. Exit status 0 if every check passed, 1 otherwise.
"""
import contextlib, functools, http.server, json, os, re, socket, statistics, sys, threading, time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("URI1630_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-quic"]
CDN = re.compile(r"cdn\.jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|ajax\.googleapis\.com|fonts\.googleapis\.com|"
                 r"fonts\.gstatic\.com|code\.jquery\.com|cdn\.plot\.ly|stackpath\.bootstrapcdn\.com|mathjax|files\.pythonhosted\.org|"
                 r"pypi\.org/simple")
FAILURES, OFFSITE, FIGURES = [], [], {}


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
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                          ".wasm": "application/wasm", ".js": "text/javascript"}
        def log_message(self, *a): pass
    handler = functools.partial(Quiet, directory=str(folder))
    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address): pass   # a page closed mid-download (the runtime) is not an error here
    srv = Server(("127.0.0.1", free_port()), handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True); t.start()
    try: yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally: srv.shutdown(); srv.server_close()


def watch(page):
    "Record console errors, page errors, failed requests; abort (and count) every request off 127.0.0.1"
    log = {"console": [], "pageerror": [], "failed": []}
    page.on("console", lambda m: m.type == "error" and log["console"].append(m.text))
    page.on("pageerror", lambda e: log["pageerror"].append(str(e)))
    page.on("requestfailed", lambda r: log["failed"].append(f"{r.url} ({r.failure})"))
    def route(r):
        url = r.request.url
        if url.startswith(("data:", "blob:")) or urlparse(url).hostname == "127.0.0.1": return r.continue_()
        OFFSITE.append(url); return r.abort()
    page.route("**/*", route)
    return log


def errors(log): return log["console"] + log["pageerror"] + log["failed"]


def no_cdn_in_files(site):
    hits = []
    for p in site.rglob("*"):
        if p.suffix not in (".html", ".css", ".js", ".mjs") or "pyodide" in p.parts or "lite" in p.relative_to(site).parts[:1]: continue
        for m in CDN.finditer(p.read_text(errors="replace")): hits.append(f"{p.relative_to(site)}: {m.group(0)}")
    check(not hits, f"no CDN named in the site's pages ({len(hits)} hits{': ' + '; '.join(hits[:5]) if hits else ''})")


WIDTH_JS = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def check_pages(browser, base, site, shots):
    pages = sorted(p.name for p in site.glob("*.html") if p.name not in ("genindex.html", "search.html", "py-modindex.html"))
    check("index.html" in pages and len(pages) > 5, f"{len(pages)} pages built")
    quotes = sigs = 0
    for width in (1280, 390):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        for name in pages:
            page = ctx.new_page(); log = watch(page)
            page.goto(f"{base}/{name}", wait_until="load")
            page.wait_for_timeout(50)
            sw, cw = page.evaluate(WIDTH_JS)
            ok = not errors(log) and page.locator("h1").count() >= 1 and sw <= cw
            if width == 1280:
                q = page.locator("blockquote.rfc-quote").count(); s = page.locator("div.signature").count()
                quotes += q; sigs += s
                check(ok, f"{name} @1280: loads, no horizontal scroll ({sw}/{cw} px), {q} RFC quotes, {s} signatures"
                      + (f"; errors: {errors(log)[:3]}" if errors(log) else ""))
                if name == "index.html" and shots: page.screenshot(path=str(shots / "landing.png"))
                if name == "then_and_now.html" and shots: page.screenshot(path=str(shots / "then_and_now.png"), full_page=False)
            elif not ok:
                check(False, f"{name} @390: horizontal scroll {sw}/{cw} px" + (f"; errors: {errors(log)[:3]}" if errors(log) else ""))
            page.close()
        if width == 390: check(True, "every page @390: checked (failures listed above)")
        ctx.close()
    check(quotes >= 20, f"RFC quotations styled as quotations: {quotes} in all")
    check(sigs >= 20, f"show_doc signatures: {sigs} in all")
    page = browser.new_page(); log = watch(page)
    page.goto(f"{base}/search.html?q=fragment", wait_until="load")
    page.wait_for_selector("ul.search li", timeout=15000)
    check(page.locator("ul.search li").count() > 0, f"search for 'fragment' finds {page.locator('ul.search li').count()} pages")
    page.close()


def result_text(page, sel=".u1630-explorer-out .u1630-result"):
    return [t.strip() for t in page.locator(sel).all_text_contents()]


def explorer(browser, base, name, field, typed, expect, shots, extra=None):
    "Open an explorer page, wait for Python, type `typed` key by key into `field`, expect `expect` in .u1630-result"
    page = browser.new_page(viewport={"width": 1280, "height": 900}); log = watch(page)
    t0 = time.time()
    page.goto(f"{base}/{name}", wait_until="load")
    check(page.locator(".u1630-live-status").first.inner_text() != "", f"{name}: a loading state is shown before Python is ready")
    page.wait_for_selector(".u1630-explorer.u1630-ready", timeout=60000)
    page.wait_for_function("() => window.u1630Live && window.u1630Live.firstResult !== null", timeout=30000)
    wall = time.time() - t0
    first = page.evaluate("() => window.u1630Live.firstResult") / 1000
    box = page.get_by_label(field, exact=True).first
    box.fill("")
    box.press_sequentially(typed, delay=5)
    try:
        if expect is not None:
            page.wait_for_function("([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)",
                                   arg=[".u1630-explorer-out .u1630-result", expect], timeout=5000)
            check(True, f"{name}: typed {typed!r} into {field!r} (in no preset), shows {expect!r}")
    except Exception:
        check(False, f"{name}: typed {typed!r} into {field!r}, expected {expect!r}, shows {result_text(page)}")
    if extra: extra(page)
    ups = page.evaluate("() => window.u1630Live.updates")
    check(len(ups) >= len(typed), f"{name}: updated on every keystroke ({len(ups)} updates for {len(typed)} keys)")
    med, worst = statistics.median(ups), max(ups)
    check(first < 30 and wall < 30, f"{name}: first live result {first:.2f} s after navigation (wall {wall:.2f} s; goal 5 s, bound 30 s)")
    check(med < 1000, f"{name}: update median {med:.1f} ms, max {worst:.1f} ms (goal 100 ms, bound 1 s)")
    FIGURES[name] = {"first_result_s": round(first, 3), "update_median_ms": round(med, 2), "update_max_ms": round(worst, 2),
                     "updates": len(ups)}
    if shots: page.locator(".u1630-explorer").first.screenshot(path=str(shots / name.replace(".html", ".png")))
    check(not errors(log), f"{name}: no console or page errors {errors(log)[:3]}")
    page.close()


def check_explorers(browser, base, shots):
    import uri1630
    from uri1630.partial import resolve
    from uri1630.encoding import to_level
    uri = "http://example.org/caf%E9/a%2Db~x"
    explorer(browser, base, "encoding_explorer.html", "URI", uri, to_level(uri, "canonical"), shots,
             extra=lambda page: _level(page, uri))
    from uri1630.partial import PARTIAL_CONTEXTS
    ctx, partial = "http://example.org/a/b/c", "../../x/./y"
    explorer(browser, base, "resolution_explorer.html", "Partial", partial, resolve(PARTIAL_CONTEXTS[0], partial), shots,
             extra=lambda page: _context(page, ctx, partial, resolve(ctx, partial)))
    url = "gopher://example.org:70/1/menu"
    cls = type(uri1630.parse_url(url)).__name__
    explorer(browser, base, "parse_explorer.html", "URL", url, None, shots, extra=lambda page: _parsed(page, cls))


def _level(page, uri):
    from uri1630.encoding import to_level
    page.get_by_label("alphanumeric", exact=True).first.check()
    want = to_level(uri, "alphanumeric")
    page.wait_for_function("([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)",
                           arg=[".u1630-explorer-out .u1630-result", want], timeout=5000)
    check(True, f"encoding explorer: level alphanumeric shows {want!r}")


def _context(page, ctx, partial, want):
    box = page.get_by_label("Context", exact=True).first
    box.fill(ctx)
    page.wait_for_function("([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)",
                           arg=[".u1630-explorer-out .u1630-result", want], timeout=5000)
    check(True, f"resolution explorer: {partial!r} in the context {ctx!r} shows {want!r} (what uri1630.partial.resolve answers)")


def _parsed(page, cls):
    page.wait_for_function("(cls) => document.querySelector('.u1630-explorer-out').textContent.includes(cls)", arg=cls, timeout=5000)
    check(True, f"parse explorer: shows the scheme class {cls}")


def check_cells(browser, base, shots):
    "Edit a code cell of the partial-form page in place, run it, see the new result; a later cell sees the earlier one's name"
    from uri1630.partial import resolve
    page = browser.new_page(viewport={"width": 1280, "height": 900}); log = watch(page)
    page.goto(f"{base}/partial_form.html", wait_until="load")
    cells = page.locator("div.cell.tag_u1630-run")
    n = cells.count()
    check(n > 5, f"partial_form.html: {n} cells with a Run button")
    ctx, partial = "http://example.org/a/b/c", "../q?x#y"
    want = resolve(ctx, partial)
    i = n // 2
    cell = cells.nth(i)
    pre = cell.locator(".cell_input pre")
    pre.click()
    pre.evaluate("(el, code) => { el.textContent = code; }", f"mine = resolve({ctx!r}, {partial!r})\nprint('resolved:', mine)\nmine")
    t0 = time.time()
    cell.get_by_role("button", name="Run").click()
    try:
        cell.locator(".u1630-run-out").wait_for(timeout=60000)
        page.wait_for_function("(c) => !c.querySelector('button.u1630-run').disabled", arg=cell.element_handle(), timeout=60000)
        out = cell.locator(".u1630-run-out").inner_text()
        check(f"resolved: {want}" in out and repr(want) in out, f"partial_form.html: edited cell {i} run shows {want!r} "
              f"(in {time.time() - t0:.1f} s, the cells above run first)")
    except Exception as e:
        check(False, f"partial_form.html: edited cell {i} did not show {want!r}: {e}")
    nxt = cells.nth(i + 1)
    nxt.locator(".cell_input pre").evaluate("(el) => { el.textContent = 'mine.upper()'; }")
    nxt.get_by_role("button", name="Run").click()
    page.wait_for_function("(c) => c.querySelector('.u1630-run-out') && !c.querySelector('button.u1630-run').disabled",
                           arg=nxt.element_handle(), timeout=30000)
    check(repr(want.upper()) in nxt.locator(".u1630-run-out").inner_text(), "partial_form.html: the next cell sees the name the edited one defined")
    bad = cells.nth(i + 2)
    bad.locator(".cell_input pre").evaluate("(el) => { el.textContent = 'resolve(\"not absolute\", \"g\")'; }")
    bad.get_by_role("button", name="Run").click()
    page.wait_for_function("(c) => c.querySelector('.u1630-run-out') && !c.querySelector('button.u1630-run').disabled",
                           arg=bad.element_handle(), timeout=30000)
    err = bad.locator(".u1630-run-error")
    check(err.count() == 1 and "Error" in err.inner_text(), f"partial_form.html: an error shows its traceback under the cell ({err.inner_text().splitlines()[-1] if err.count() else 'none'})")
    if shots:
        cell.scroll_into_view_if_needed(); page.screenshot(path=str(shots / "run_cell.png"))
    check(not errors(log), f"partial_form.html (cells run): no console or page errors {errors(log)[:3]}")
    page.close()


def check_lite(browser, base, site, shots):
    "The JupyterLite copy of the resolution explorer notebook opens, its kernel (Pyodide from the site) starts, the cells run, the widget appears"
    if not (site / "lite" / "lab" / "index.html").exists():
        print("  skip JupyterLite: _site/lite/ was not built"); return
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    seen = []
    def route(r):   # on the context: the kernel's web worker fetches too
        url = r.request.url
        if url.startswith(("data:", "blob:")) or urlparse(url).hostname == "127.0.0.1": return r.continue_()
        OFFSITE.append(url); return r.abort()
    ctx.route("**/*", route)
    ctx.on("request", lambda r: urlparse(r.url).hostname not in ("127.0.0.1", None) and not r.url.startswith(("data:", "blob:")) and seen.append(r.url))
    page = ctx.new_page(); log = {"pageerror": []}
    page.on("pageerror", lambda e: log["pageerror"].append(str(e)))
    t0 = time.time()
    page.goto(f"{base}/lite/lab/index.html?path=resolution_explorer.ipynb", wait_until="load")
    try:
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60000)
        page.wait_for_selector("text=Python (Pyodide) | Idle", timeout=120000)
        t_kernel = time.time() - t0
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        page.wait_for_selector(".jp-OutputArea .widget-text input", timeout=120000)
        box = page.locator(".jp-OutputArea .widget-text", has=page.locator("label", has_text="Partial")).locator("input").last
        box.fill("../../q"); box.press("Enter")
        page.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea .u1630-result')].some(e => e.textContent.trim() === 'magic://a/b/c//q')",
                               timeout=30000)
        check(True, f"JupyterLite: resolution_explorer.ipynb opened, kernel ready in {t_kernel:.1f} s, cells ran, the ipywidgets "
                    f"explorer answers '../../q' -> 'magic://a/b/c//q' ({time.time() - t0:.1f} s in all)")
        FIGURES["jupyterlite_s"] = round(time.time() - t0, 1)
    except Exception as e:
        check(False, f"JupyterLite: {str(e).splitlines()[0]}")
    if shots: page.screenshot(path=str(shots / "jupyterlite.png"))
    check(not seen, f"JupyterLite: no request left 127.0.0.1 ({len(seen)}: {sorted(set(seen))[:3]})")
    check(not log["pageerror"], f"JupyterLite: no page errors {log['pageerror'][:2]}")
    ctx.close()


def main(argv):
    site = ROOT / (argv[argv.index("--site") + 1] if "--site" in argv else "_site")
    shots = ROOT / (argv[argv.index("--screenshots") + 1] if "--screenshots" in argv else "docs/screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    t0 = time.time()
    no_cdn_in_files(site)
    with sync_playwright() as pw, serve(site) as base:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        if "--live-only" not in argv: print("== every page"); check_pages(browser, base, site, shots)
        print("== live explorers"); check_explorers(browser, base, shots)
        print("== code cells"); check_cells(browser, base, shots)
        print("== JupyterLite"); check_lite(browser, base, site, shots)
        browser.close()
    check(not OFFSITE, f"requests that left 127.0.0.1 (aborted): {len(OFFSITE)} {sorted(set(OFFSITE))[:5]}")
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file()) / 1e6
    FIGURES["site_mb"] = round(size, 1)
    FIGURES["measured"] = time.strftime("%Y-%m-%d")
    firsts = [v["first_result_s"] for v in FIGURES.values() if isinstance(v, dict)]
    meds = [v["update_median_ms"] for v in FIGURES.values() if isinstance(v, dict)]
    if firsts:
        print(f"== figures: first live result {statistics.median(firsts):.2f} s (median of {len(firsts)} explorers), "
              f"update median {statistics.median(meds):.1f} ms, site {size:.1f} MB")
    if "--json" in argv: Path(argv[argv.index("--json") + 1]).write_text(json.dumps(FIGURES, indent=1))
    print(f"== browser checks: {len(FAILURES)} failed, in {time.time() - t0:.0f}s")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
