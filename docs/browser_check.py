"""Check the built docs site in a real headless browser (Debian chromium + playwright), offline.

    python docs/browser_check.py [--site _site] [--screenshots docs/screenshots] [--json figures.json]

The site is served from --site by a thread of this process on 127.0.0.1; every request that leaves
127.0.0.1 is aborted by a route handler and counted (the count must be 0).

- the navigation: the front page's sidebar holds docs/nav.py's parts (captions) and pages, in that order; the
  check walks it, clicking each sidebar link in turn as a reader does;
- every page: loads with no console error, page error, failed request or HTTP error (the favicon included); no
  horizontal page scroll at 390 px and at 1280 px; RFC quotations and `show_doc` signatures counted; no file of the
  site names a CDN;
- each live explorer (encoding, resolution, parse): a URL typed into it, key by key, that is in no preset
  shows exactly what the library (CPython, here) answers; time from navigation to the first live result
  and the time of each update after it (measured in the page around the render call) are reported;
- a code cell edited in place with real key presses (a URL and a division: `/` must reach the cell, not the
  theme's search shortcut), then run, shows the new result; the cells of a page share one namespace;
- "Open as a notebook" (if JupyterLite was built: _site/lite/): the link is CLICKED on every page, and the
  notebook of that page opens in JupyterLite (its own name, no error dialog); on the explorer pages and one RFC
  page, Run All runs every cell without an error and the ipywidgets explorer answers.
Bounds asserted are generous (30 s to the first result, 1 s an update): the figures are reported, the goals
(5 s, 100 ms) are the performance page's business. Exit status 0 if every check passed, 1 otherwise.
"""
import contextlib, functools, http.server, json, os, re, socket, statistics, sys, threading, time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))
import nav  # noqa: E402  (docs/nav.py: the navigation, declared once)
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
    page.on("response", lambda r: r.status >= 400 and log["failed"].append(f"{r.url} (HTTP {r.status})"))
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
# code blocks (a notebook's code cells, code in its prose; not the cells' printed output) whose text is wider than
# the block: the reader would have to scroll sideways inside them (#21: at 1280 px the code column shows 100 characters)
SIDEWAYS_JS = """() => [...document.querySelectorAll('div.highlight pre')]
    .filter(p => !p.closest('.cell_output, .output') && p.scrollWidth > p.clientWidth + 1)
    .map(p => p.textContent.split('\\n').reduce((a, b) => b.length > a.length ? b : a, '').slice(0, 120))"""


def check_pages(browser, base, site, shots):
    pages = sorted(p.name for p in site.glob("*.html") if p.name not in ("genindex.html", "search.html", "py-modindex.html"))
    check("index.html" in pages and len(pages) > 5, f"{len(pages)} pages built")
    quotes = sigs = 0
    sideways = {}
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
                wide = page.evaluate(SIDEWAYS_JS)
                if wide: sideways[name] = wide
                check(ok, f"{name} @1280: loads, no horizontal scroll ({sw}/{cw} px), {q} RFC quotes, {s} signatures"
                      + (f"; errors: {errors(log)[:3]}" if errors(log) else ""))
                if name == "index.html" and shots: page.screenshot(path=str(shots / "landing.png"))
                if name == "then_and_now.html" and shots: page.screenshot(path=str(shots / "then_and_now.png"), full_page=False)
            elif not ok:
                check(False, f"{name} @390: horizontal scroll {sw}/{cw} px" + (f"; errors: {errors(log)[:3]}" if errors(log) else ""))
            page.close()
        if width == 390: check(True, "every page @390: checked (failures listed above)")
        ctx.close()
    n = sum(len(v) for v in sideways.values())
    enforce = os.environ.get("URI1630_FORMAT_GATES", "enforce") == "enforce"
    what = (f"no code block scrolls sideways at 1280 px ({n} do, on {len(sideways)} pages"
            + (f"; e.g. {next(iter(sideways))}: {next(iter(sideways.values()))[0]!r}" if n else "") + ")")
    if enforce or not n: check(not n, what)
    else: print(f"  report {what} (URI1630_FORMAT_GATES=report)")
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
    if shots and name == "encoding_explorer.html":   # the page as a reader meets it: the title, then the explorer
        page.evaluate("() => window.scrollTo(0, 0)"); page.screenshot(path=str(shots / "explorer_page.png"))
    check(not errors(log), f"{name}: no console or page errors {errors(log)[:3]}")
    page.close()


def check_explorers(browser, base, shots):
    import uri1630
    from uri1630.partial import resolve
    from uri1630.encoding import to_level
    uri = "http://example.org/caf%E9/a%2Db~x"
    explorer(browser, base, "encoding_explorer.html", "URI", uri, to_level(uri, "canonical"), shots,
             extra=lambda page: (_level(page, uri), _pick_again(page)))
    from uri1630.partial import PARTIAL_CONTEXTS
    ctx, partial = "http://example.org/a/b/c", "../../x/./y"
    explorer(browser, base, "resolution_explorer.html", "Partial", partial, resolve(PARTIAL_CONTEXTS[0], partial), shots,
             extra=lambda page: (_context(page, ctx, partial, resolve(ctx, partial)), _browser_join(page, ctx)))
    url = "gopher://example.org:70/1/menu"
    cls = type(uri1630.parse_url(url)).__name__
    explorer(browser, base, "parse_explorer.html", "URL", url, None, shots,
             extra=lambda page: (_parsed(page, cls), _browser_parse(page)))


def _level(page, uri):
    from uri1630.encoding import to_level
    page.get_by_label("alphanumeric", exact=True).first.check()
    want = to_level(uri, "alphanumeric")
    page.wait_for_function("([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)",
                           arg=[".u1630-explorer-out .u1630-result", want], timeout=5000)
    check(True, f"encoding explorer: level alphanumeric shows {want!r}")


def _pick_again(page):
    "Choose an example, type after it: the picker says '(type your own)'; choosing the same example again applies it"
    pick, box = page.locator("select.u1630-pick").first, page.get_by_label("URI", exact=True).first
    label = "Example 3 (illegal %*)"
    pick.select_option(label=label); example = box.input_value()
    box.click(); page.keyboard.press("End"); page.keyboard.type("x")
    shown = pick.input_value()
    pick.select_option(label=label)
    check(shown == "" and box.input_value() == example and pick.input_value() == example,
          f"encoding explorer: after typing, the picker shows '(type your own)' ({shown!r}); choosing {label!r} again applies it")


def _context(page, ctx, partial, want):
    box = page.get_by_label("Context", exact=True).first
    box.fill(ctx)
    page.wait_for_function("([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)",
                           arg=[".u1630-explorer-out .u1630-result", want], timeout=5000)
    check(True, f"resolution explorer: {partial!r} in the context {ctx!r} shows {want!r} (what uri1630.partial.resolve answers)")


_SHOWS = "([sel, want]) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === want)"


def _browser_join(page, ctx):
    "Beside RFC 1630's answer, the reader's browser's (new URL), labelled, following each key press, its kind named"
    out = page.locator(".u1630-explorer-out").first
    check("your browser (WHATWG URL standard)" in out.inner_text(), "resolution explorer: the browser's answer is labelled")
    box = page.get_by_label("Partial", exact=True).first
    seen = []
    for typed in ("..", "../g"):   # key by key: the browser's answer follows
        box.fill(""); box.press_sequentially(typed, delay=5)
        want = page.evaluate("([p, c]) => new URL(p, c).href", [typed, ctx])
        try:
            page.wait_for_function(_SHOWS, arg=[".u1630-explorer-out .u1630-browser", want], timeout=5000); seen.append(want)
        except Exception: pass
    check(len(seen) == 2, f"resolution explorer: typed '..' then '../g' in {ctx!r}: the browser's answer shows {seen} "
                          f"(new URL in this page), updated on key presses")
    box.fill(""); box.press_sequentially("..", delay=5)
    page.wait_for_function("() => document.querySelector('.u1630-explorer-out').textContent.includes('final-dots')", timeout=5000)
    check(True, "resolution explorer: the browser's difference from RFC 1630 is named (final-dots)")
    page.get_by_label("Context", exact=True).first.fill("magic://a/b/c//d/e/f")
    box.fill(""); box.press_sequentially("../g", delay=5)
    page.wait_for_function(_SHOWS, arg=[".u1630-explorer-out .u1630-rfc3986", "magic://a/b/c//d/g"], timeout=5000)
    same = page.evaluate("() => document.querySelector('.u1630-explorer-out .u1630-rfc3986').nextElementSibling.className")
    urljoin = page.locator(".u1630-explorer-out .u1630-urljoin").first.inner_text()
    check(same == "u1630-same" and urljoin == "magic://a/b/c/d/g",
          f"resolution explorer: RFC 3986 agrees with RFC 1630 on the RFC's ../g ({same}); Python urljoin apart ({urljoin})")


def _browser_parse(page):
    "The parse explorer shows the browser's reading: hTTp typed, the browser's scheme is http, parse's hTTp"
    box = page.get_by_label("URL", exact=True).first
    box.fill(""); box.press_sequentially("hTTp://example.org/a", delay=5)
    try:
        page.wait_for_function(_SHOWS, arg=[".u1630-explorer-out .u1630-browser", "http://example.org/a"], timeout=5000)
        text = page.locator(".u1630-explorer-out").first.inner_text()
        check("case-folded" in text and "hTTp" in text, "parse explorer: the browser's answer shows http://example.org/a, "
              "and the scheme as parse reads it (hTTp), case-folded")
    except Exception:
        check(False, f"parse explorer: no browser answer for hTTp://example.org/a: {page.locator('.u1630-explorer-out').first.inner_text()[:300]}")


def _parsed(page, cls):
    page.wait_for_function("(cls) => document.querySelector('.u1630-explorer-out').textContent.includes(cls)", arg=cls, timeout=5000)
    check(True, f"parse explorer: shows the scheme class {cls}")


def type_into(page, pre, code):
    "Replace a cell's code the way a reader does: click, select all, delete, then type it key by key"
    pre.click()
    page.keyboard.press("Control+A"); page.keyboard.press("Delete")
    page.keyboard.type(code, delay=2)


def check_cells(browser, base, shots):
    """Edit code cells of the partial-form page with real key presses (a URL, a division: every `/` must reach the
    cell, not the theme's search shortcut), run them, see the new results; a later cell sees an earlier one's name"""
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
    code = f"mine = resolve({ctx!r}, {partial!r})\nprint('resolved:', mine, 6/3)\nmine"
    type_into(page, pre, code)
    state = page.evaluate("() => [document.activeElement.tagName, [...document.querySelectorAll('input[type=search], input[name=q]')].map(e => e.value).join('')]")
    typed = pre.inner_text().strip()
    check(typed == code and state == ["PRE", ""], f"partial_form.html: typed key by key into cell {i}, every key reached it "
          f"(focus {state[0]}, search box {state[1]!r}; the cell reads {typed!r})")
    t0 = time.time()
    cell.get_by_role("button", name="Run").click()
    try:
        cell.locator(".u1630-run-out").wait_for(timeout=60000)
        page.wait_for_function("(c) => !c.querySelector('button.u1630-run').disabled", arg=cell.element_handle(), timeout=60000)
        out = cell.locator(".u1630-run-out").inner_text()
        check(f"resolved: {want} 2.0" in out and repr(want) in out, f"partial_form.html: the typed cell {i} run shows "
              f"'resolved: {want} 2.0' and {want!r} (in {time.time() - t0:.1f} s, the cells above run first)")
    except Exception as e:
        check(False, f"partial_form.html: the typed cell {i} did not show {want!r}: {e}")
    nxt = cells.nth(i + 1)
    type_into(page, nxt.locator(".cell_input pre"), "mine.upper()")
    page.keyboard.press("Shift+Enter")   # runs the cell, as the Run button does
    page.wait_for_function("(c) => c.querySelector('.u1630-run-out') && !c.querySelector('button.u1630-run').disabled",
                           arg=nxt.element_handle(), timeout=30000)
    check(repr(want.upper()) in nxt.locator(".u1630-run-out").inner_text(),
          "partial_form.html: the next cell (typed, run with Shift+Enter) sees the name the typed one defined")
    bad = cells.nth(i + 2)
    type_into(page, bad.locator(".cell_input pre"), 'resolve("not absolute", "g")')
    bad.get_by_role("button", name="Run").click()
    page.wait_for_function("(c) => c.querySelector('.u1630-run-out') && !c.querySelector('button.u1630-run').disabled",
                           arg=bad.element_handle(), timeout=30000)
    err = bad.locator(".u1630-run-error")
    check(err.count() == 1 and "Error" in err.inner_text(), f"partial_form.html: an error shows its traceback under the cell ({err.inner_text().splitlines()[-1] if err.count() else 'none'})")
    page.locator("body").click(position={"x": 5, "y": 300})   # outside the cells the theme's shortcut still works
    page.keyboard.press("/")
    focus = page.evaluate("() => document.activeElement.tagName + ':' + (document.activeElement.getAttribute('name') || document.activeElement.type || '')")
    check(focus.startswith("INPUT"), f"outside the cells, '/' still moves to the search box ({focus})")
    if shots:
        cell.scroll_into_view_if_needed(); page.screenshot(path=str(shots / "run_cell.png"))
    check(not errors(log), f"partial_form.html (cells run): no console or page errors {errors(log)[:3]}")
    page.close()


RUN_ALL = {"06a_encoding_explorer": "URI", "07a_resolution_explorer": "Partial", "24a_parse_explorer": "URL", "01_introduction": None}
CELLS_JS = """() => Array.from(window.jupyterapp.shell.currentWidget.content.model.cells).filter(c => c.type === 'code').map(c => {
    const outs = c.outputs.toJSON(); const err = outs.find(o => o.output_type === 'error');
    return [c.executionCount, !!err, err ? err.ename + ': ' + err.evalue : ''];
})"""


def _offsite_route(r):
    url = r.request.url
    if url.startswith(("data:", "blob:")) or urlparse(url).hostname == "127.0.0.1": return r.continue_()
    OFFSITE.append(url); return r.abort()


def _run_all(page, stem, field):
    "Run > Run All Cells from the menu; every cell runs without an error; on an explorer, the ipywidgets explorer answers"
    t0 = time.time()
    page.wait_for_selector("text=Python (Pyodide) | Idle", timeout=180000)
    t_kernel = time.time() - t0
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    # JupyterLab draws only the cells in view: read every cell from the notebook's model (exposeAppInBrowser)
    state = page.wait_for_function(f"() => {{ const s = ({CELLS_JS})(); return (s.every(c => c[0] !== null) || s.some(c => c[1])) && s; }}",
                                   timeout=300000, polling=500).json_value()
    errs = [c[2] for c in state if c[1]]
    ok = bool(state) and all(c[0] is not None for c in state) and not errs
    check(ok, f"JupyterLite {stem}: Run All ran all {len(state)} code cells without an error (kernel ready in {t_kernel:.1f} s, "
              f"all run in {time.time() - t0:.1f} s)" + (f"; {errs[0][-300:]}" if errs else "")
              + ("" if ok else f"; {sum(c[0] is None for c in state)} cells not run"))
    if field is None or not ok: return
    page.wait_for_selector(".jp-OutputArea .widget-text input", timeout=60000)
    box = page.locator(".jp-OutputArea .widget-text", has=page.locator("label", has_text=re.compile(f"^{field}$"))).locator("input").last
    if stem == "07a_resolution_explorer":
        typed, want = "../../q", "magic://a/b/c//q"
    elif stem == "06a_encoding_explorer":
        from uri1630.encoding import to_level
        typed = "http://example.org/a%2Db"; want = to_level(typed, "canonical")
    else:
        import uri1630
        typed = "gopher://example.org:70/1/menu"; want = type(uri1630.parse_url(typed)).__name__
    t1 = time.time()
    box.click(); page.keyboard.press("Control+A"); page.keyboard.press("Delete")
    page.keyboard.type(typed, delay=5); page.keyboard.press("Enter")
    sel = ".jp-OutputArea .u1630-result" if stem != "24a_parse_explorer" else ".jp-OutputArea .u1630-parse"
    try:
        page.wait_for_function("([sel, want, exact]) => [...document.querySelectorAll(sel)].some(e => exact ? e.textContent.trim() === want : e.textContent.includes(want))",
                               arg=[sel, want, stem != "24a_parse_explorer"], timeout=30000)
        check(True, f"JupyterLite {stem}: the ipywidgets explorer answers {typed!r} -> {want!r} ({time.time() - t1:.1f} s after typing, "
                    f"{time.time() - t0:.1f} s after the notebook opened)")
        FIGURES.setdefault("jupyterlite", {})[stem] = {"kernel_s": round(t_kernel, 1), "explorer_answers_s": round(time.time() - t0, 1)}
    except Exception as e:
        check(False, f"JupyterLite {stem}: typed {typed!r}, expected {want!r}: {str(e).splitlines()[0]}")


def _open_link(browser, base, stem, shots):
    """On the page of notebook `stem`, CLICK "Open as a notebook": its own notebook opens in JupyterLite; Run All where asked"""
    import build
    name = build.page_name(stem) + ".html"
    want = build.lite_name(stem)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})   # a fresh JupyterLite store each time
    ctx.route("**/*", _offsite_route)
    page = ctx.new_page(); perr = []
    page.on("pageerror", lambda e: perr.append(str(e)))
    page.goto(f"{base}/{name}", wait_until="load")
    link = page.locator("a.u1630-open-nb")
    if not check(link.count() == 1, f"{name}: one 'Open as a notebook' link ({link.count()})"): ctx.close(); return
    t0 = time.time()
    link.click()
    try:
        page.wait_for_url(re.compile(r"/lite/lab/"), timeout=30000)
        page.wait_for_function("(want) => document.querySelector('.jp-Dialog') || [...document.querySelectorAll('.lm-TabBar-tab.jp-mod-current .lm-TabBar-tabLabel')].some(e => e.textContent.trim() === want)",
                               arg=want, timeout=90000, polling=250)
        dialog = page.locator(".jp-Dialog")
        page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell", timeout=30000)
        page.wait_for_function("() => window.jupyterapp.shell.currentWidget.context.isReady", timeout=60000)   # its cells loaded
        cells = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.model.cells.length")
        ok = dialog.count() == 0 and cells > 0
        check(ok, f"{name}: 'Open as a notebook' clicked, JupyterLite opened {want} ({cells} cells, {time.time() - t0:.1f} s)"
                  + (f"; dialog: {dialog.first.inner_text()[:200]!r}" if dialog.count() else ""))
        if ok and stem in RUN_ALL: _run_all(page, stem, RUN_ALL[stem])
        if stem == "07a_resolution_explorer" and shots: page.screenshot(path=str(shots / "jupyterlite.png"))
    except Exception as e:
        check(False, f"{name}: 'Open as a notebook' did not open {want}: {str(e).splitlines()[0]}")
    check(not perr, f"{name} -> JupyterLite: no page errors {perr[:2]}") if perr else None
    ctx.close()


def check_open_links(site, base, shots, workers=2):
    """On every page, CLICK "Open as a notebook": that page's own notebook opens in the site's JupyterLite (its name on
    the tab, no error dialog); on the explorer pages and one RFC page, Run All runs every cell and the explorer answers.
    The pages are shared out over `workers` browsers, each driven from its own thread (one playwright per thread):
    a reader opens one notebook at a time, and each check is independent of the others (a fresh store each)."""
    if not (site / "lite" / "lab" / "index.html").exists():
        print("  skip JupyterLite: _site/lite/ was not built"); return
    from playwright.sync_api import sync_playwright
    t_all = time.time()
    only = [n for n in os.environ.get("URI1630_LITE_PAGES", "").split(",") if n]   # for work on this check: a few notebooks
    stems = [n for n in nav.order(ROOT / "nbs") if not only or n in only]
    workers = max(1, min(workers, int(os.environ.get("URI1630_LITE_WORKERS", workers)), len(stems)))
    crashed = []

    def run(chunk):
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for stem in chunk: _open_link(browser, base, stem, shots)
                browser.close()
        except Exception as e: crashed.append(f"{chunk[:1]}...: {str(e).splitlines()[0]}")

    threads = [threading.Thread(target=run, args=(stems[i::workers],)) for i in range(workers)]
    for t in threads: t.start()
    for t in threads: t.join()
    check(not crashed, f"every 'Open as a notebook' browser ran to the end {crashed}")
    print(f"  (every 'Open as a notebook' link clicked in {time.time() - t_all:.0f} s, {len(stems)} pages, {workers} browsers)")


def check_nav(browser, base, shots):
    """The first page is the front page; its sidebar shows docs/nav.py's parts and pages in order; walking it link by
    link (clicking, as a reader does) reaches each page, whose "next" link is the following one"""
    import build
    want = [[cap, [build.page_name(n) + ".html" for n in names]] for cap, names in nav.parts(ROOT / "nbs")]
    want += [[cap, [n + ".html" for n in names]] for cap, names in nav.GENERATED]   # the RFCs' own pages
    page = browser.new_page(viewport={"width": 1280, "height": 900}); log = watch(page)
    page.goto(f"{base}/", wait_until="load")
    title = page.locator("h1").first.inner_text().strip()
    check(title.startswith("uri1630"), f"the first page a reader meets is the front page ({title!r})")
    icon = page.evaluate("() => { const l = document.querySelector('link[rel~=\"icon\"]'); return l ? l.href : null; }")
    status = page.request.get(icon).status if icon else None
    check(status == 200, f"the page names its favicon ({icon}: HTTP {status}), so no browser asks for a missing /favicon.ico")
    got = page.evaluate("""() => [...document.querySelectorAll('.sidebar-tree p.caption')].map(c =>
        [c.textContent.trim(), [...c.nextElementSibling.querySelectorAll(':scope > li > a')].map(a => a.getAttribute('href'))])""")
    check(got == want, f"the sidebar holds the parts of docs/nav.py in order: {[c for c, _ in got]} "
                       f"({sum(len(p) for _, p in got)} pages)" + ("" if got == want else f"; want {want}, got {got}"))
    if shots:   # the whole navigation: a viewport tall enough that the sidebar need not scroll
        page.set_viewport_size({"width": 1280, "height": 1900})
        page.locator(".sidebar-tree").screenshot(path=str(shots / "nav.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
    order = [h for _, hs in want for h in hs]
    bad = []
    for k, href in enumerate(order):
        try:   # generous: a page with an explorer starts Python (Pyodide) at once, which keeps a loaded machine busy
            page.locator(f".sidebar-tree a[href='{href}']").first.click(timeout=120000)
            page.wait_for_load_state("load", timeout=120000)
        except Exception as e: bad.append(f"{href}: {str(e).splitlines()[0]}"); continue
        if not page.url.endswith("/" + href): bad.append(f"{href}: at {page.url}"); continue
        nxt = page.locator("a.next-page").first
        nhref = nxt.get_attribute("href") if nxt.count() else None
        if nhref != (order[k + 1] if k + 1 < len(order) else None) and k + 1 < len(order): bad.append(f"{href}: next is {nhref}")
    check(not bad, f"walked the navigation by clicking: {len(order)} pages in order, each one's 'next' the following one"
                   + (f"; {bad[:4]}" if bad else ""))
    # a page left while it still loads Python (the explorer pages start it at once) has its downloads aborted by
    # the navigation itself (net::ERR_ABORTED): that is the reader moving on, not a failure of the site
    errs = [e for e in errors(log) if not e.endswith("(net::ERR_ABORTED)")]
    check(not errs, f"navigation walk: no console errors, failed requests or HTTP errors {errs[:3]}")
    page.close()


def main(argv):
    site = ROOT / (argv[argv.index("--site") + 1] if "--site" in argv else "_site")
    shots = ROOT / (argv[argv.index("--screenshots") + 1] if "--screenshots" in argv else "docs/screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    t0 = time.time()
    no_cdn_in_files(site)
    with sync_playwright() as pw, serve(site) as base:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        if "--lite-only" in argv:
            browser.close()
            print("== 'Open as a notebook', clicked on every page"); check_open_links(site, base, shots)
            return 1 if FAILURES else 0
        if "--explorers-only" in argv:   # the live explorers alone (a quick check while working on them)
            print("== live explorers"); check_explorers(browser, base, shots); browser.close()
            print(f"== browser checks: {len(FAILURES)} failed, in {time.time() - t0:.0f}s")
            return 1 if FAILURES else 0
        if "--live-only" not in argv:
            print("== the navigation"); check_nav(browser, base, shots)
            print("== every page"); check_pages(browser, base, site, shots)
        print("== live explorers"); check_explorers(browser, base, shots)
        print("== code cells"); check_cells(browser, base, shots)
        browser.close()
        print("== 'Open as a notebook', clicked on every page"); check_open_links(site, base, shots)
    check(not OFFSITE, f"requests that left 127.0.0.1 (aborted): {len(OFFSITE)} {sorted(set(OFFSITE))[:5]}")
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file()) / 1e6
    FIGURES["site_mb"] = round(size, 1)
    FIGURES["measured"] = time.strftime("%Y-%m-%d")
    firsts = [v["first_result_s"] for v in FIGURES.values() if isinstance(v, dict) and "first_result_s" in v]
    meds = [v["update_median_ms"] for v in FIGURES.values() if isinstance(v, dict) and "update_median_ms" in v]
    if firsts:
        print(f"== figures: first live result {statistics.median(firsts):.2f} s (median of {len(firsts)} explorers), "
              f"update median {statistics.median(meds):.1f} ms, site {size:.1f} MB")
    if "--json" in argv: Path(argv[argv.index("--json") + 1]).write_text(json.dumps(FIGURES, indent=1))
    print(f"== browser checks: {len(FAILURES)} failed, in {time.time() - t0:.0f}s")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
