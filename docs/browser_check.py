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
import contextlib, functools, html, http.server, json, os, re, socket, statistics, sys, threading, time
from pathlib import Path
from urllib.parse import quote, urlparse

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


# a word of a table cell's prose (3 to 16 characters between spaces, none a hyphen, dash, slash or '?', where a line may
# break; code and links may break anywhere) set on more than one line: a column too narrow for its words (#27: columns
# a letter wide)
BROKEN_WORDS_JS = """() => { const out = [];
  for (const c of document.querySelectorAll('article td, article th')) {
    if (!c.offsetParent) continue;
    const w = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      if (n.parentElement.closest('code, pre, .u1630-long')) continue;   // a link's words too
      const re = /\\S+/g; let m;
      while ((m = re.exec(n.data))) {
        if (m[0].length < 3 || m[0].length > 16 || /[-\u2013\u2014\\/?]/.test(m[0])) continue;
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
        if (tops.size > 1) { out.push(m[0]); break; }
      }
    }
  } return out; }"""


def check_pages(browser, base, site, shots):
    pages = sorted(p.name for p in site.glob("*.html") if p.name not in ("genindex.html", "search.html", "py-modindex.html"))
    check("index.html" in pages and len(pages) > 5, f"{len(pages)} pages built")
    quotes = sigs = 0
    sideways, broken = {}, {}
    for width in (1280, 390):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        for name in pages:
            page = ctx.new_page(); log = watch(page)
            page.goto(f"{base}/{name}", wait_until="load")
            page.wait_for_timeout(50)
            sw, cw = page.evaluate(WIDTH_JS)
            ok = not errors(log) and page.locator("h1").count() >= 1 and sw <= cw
            broken_words = page.evaluate(BROKEN_WORDS_JS)
            if broken_words: broken[f"{name} @{width}"] = broken_words
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
    check(not broken, f"no word of a table cell's prose broken over lines, on every page at 1280 and 390 px"
                      + (f": {len(broken)} pages, e.g. {dict(list(broken.items())[:3])}" if broken else ""))
    check(quotes >= 20, f"RFC quotations styled as quotations: {quotes} in all")
    check(sigs >= 20, f"show_doc signatures: {sigs} in all")
    check_search(browser, base, site)


def check_search(browser, base, site):
    "Searching a page's own title (each page of the navigation, as its h1 says it) lists that page first"
    import build
    page = browser.new_page(); watch(page)
    missed, t0 = [], time.time()
    stems = nav.order(ROOT / "nbs")
    for stem in stems:
        name = build.page_name(stem) + ".html"
        m = re.search(r"<h1[^>]*>(.*?)<", (site / name).read_text(encoding="utf-8"), re.S)
        title = html.unescape(m[1]).strip() if m else stem
        page.goto(f"{base}/search.html?q={quote(title)}", wait_until="load")
        page.wait_for_function("() => /finished|did not match/i.test(document.querySelector('#search-results p.search-summary')?.textContent || '')", timeout=30000)
        hrefs = [h.split("#")[0].split("/")[-1] for h in page.locator("ul.search li > a").evaluate_all("as => as.map(a => a.getAttribute('href'))")]
        if name not in hrefs[:1]: missed.append(f"{title!r} -> {hrefs[:3]}")
    check(not missed, f"search: each of the {len(stems)} pages comes first when its own title is searched "
                      f"({time.time() - t0:.0f} s)" + (f"; not: {missed[:4]}" if missed else ""))
    page.goto(f"{base}/search.html?q=resolve", wait_until="load")
    page.wait_for_function("() => /finished|did not match/i.test(document.querySelector('#search-results p.search-summary')?.textContent || '')", timeout=30000)
    found = [a.inner_text() for a in page.locator("ul.search li > a").all()]
    check(found[:1] == ["Partial (relative) form"] and "Relative-resolution explorer" in found,
          f"search: 'resolve' lists the partial form page first, and the resolution explorer ({found[:4]})")
    page.close()


def result_text(page, sel=".u1630-explorer-out .u1630-result"):
    return [t.strip() for t in page.locator(sel).all_text_contents()]


def explorer(browser, base, name, field, typed, expect, shots, extra=None):
    "Open an explorer page, wait for Python, type `typed` key by key into `field`, expect `expect` in .u1630-result"
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})   # a first visit: nothing cached
    page = ctx.new_page(); log = watch(page)
    t0 = time.time()
    page.goto(f"{base}/{name}", wait_until="load")
    # while Python loads, the disabled controls say so: the explorer's one status line (a live region, above them) reads
    # "Loading…" and the form is aria-busy (#27: a reader saw greyed inputs and no word)
    busy = page.evaluate("""() => [...document.querySelectorAll('.u1630-explorer')].map(x => x.classList.contains('u1630-ready') ? 'ready' :
        [x.querySelector('.u1630-live-status').textContent.startsWith('Loading…'), x.querySelector('.u1630-live-status').getAttribute('role'),
         x.querySelector('.u1630-form').getAttribute('aria-busy'), x.querySelector('input, select').disabled,
         x.firstElementChild.classList.contains('u1630-live-status'), x.querySelectorAll('.u1630-live-status').length].join())""")
    check(busy and all(b in ("ready", "true,status,true,true,true,1") for b in busy) and "ready" not in busy[:1],
          f"{name}: while Python loads, each explorer's one status line, above its disabled controls, reads 'Loading…' (role status, "
          f"the form aria-busy): {busy}")
    page.wait_for_selector(".u1630-explorer.u1630-ready", timeout=60000)
    check(page.evaluate("() => document.querySelectorAll('.u1630-form[aria-busy]').length") == 0, f"{name}: no form busy once Python is ready")
    page.wait_for_function("() => window.u1630Live && window.u1630Live.firstResult !== null", timeout=120000)
    wall = time.time() - t0
    first = page.evaluate("() => window.u1630Live.firstResult") / 1000
    live = page.evaluate("() => [...document.querySelectorAll('.u1630-live-status')].filter(e => e.textContent.includes('Live:')).length")
    check(live == page.locator(".u1630-explorer").count(), f"{name}: one 'Live:' status line an explorer ({live} shown)")
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
    # a repeat visit (the same browser: its HTTP cache holds the runtime, as for a reader coming back)
    page = ctx.new_page(); log = watch(page)
    page.goto(f"{base}/{name}", wait_until="load")
    page.wait_for_function("() => window.u1630Live && window.u1630Live.firstResult !== null", timeout=120000)
    again = page.evaluate("() => window.u1630Live.firstResult") / 1000
    FIGURES[name]["repeat_first_result_s"] = round(again, 3)
    check(again < 30 and not errors(log), f"{name}: first live result on a repeat visit {again:.2f} s after navigation "
          f"(first visit {first:.2f} s)" + (f"; errors {errors(log)[:3]}" if errors(log) else ""))
    page.close(); ctx.close()


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
    own = pre.inner_text().strip()
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
    tb = err.inner_text() if err.count() else ""
    frames = re.findall(r'File "([^"]*)"', tb)
    # the runner's own frames (live.py, pyodide, exec) are cut: every frame left is the reader's cell, as run
    check(bool(frames) and set(frames) == {"<cell>"} and "URISyntaxError: the context" in tb.strip().splitlines()[-1],
          f"partial_form.html: the traceback shows the cell's own frames only ({frames}): {tb.splitlines()[:3]} ... "
          f"{tb.strip().splitlines()[-1][:60]!r}")
    type_into(page, bad.locator(".cell_input pre"), "x = (1,\nprint(2")
    page.keyboard.press("Control+Enter")
    page.wait_for_function("(c) => c.dataset.runs === '2' && !c.querySelector('button.u1630-run').disabled",
                           arg=bad.element_handle(), timeout=30000)
    tb = err.inner_text() if err.count() else ""
    sizes = page.evaluate("""(c) => [getComputedStyle(c.querySelector('.u1630-run-error')).fontSize,
        getComputedStyle(document.querySelector('.cell_output pre, .output pre')).fontSize]""", bad.element_handle())
    check(tb.splitlines()[:1] == ['  File "<cell>", line 2'] and tb.strip().endswith("SyntaxError: '(' was never closed")
          and sizes[0] == sizes[1], f"partial_form.html: a SyntaxError shows the cell's line and the error only, in the outputs' "
          f"font size ({sizes[0]} / {sizes[1]}): {tb.splitlines()[:1]} ... {tb.strip().splitlines()[-1:]}")
    if shots: bad.scroll_into_view_if_needed(); page.screenshot(path=str(shots / "run_cell_error.png"))
    md = cells.nth(i + 3)   # a value with `_repr_markdown_` shows as a notebook shows it: a table, not its markdown
    type_into(page, md.locator(".cell_input pre"), 'from uri1630 import parse\nparse("http://u:pw@h/a?b")')
    md.get_by_role("button", name="Run").click()
    page.wait_for_function("(c) => c.querySelector('.u1630-run-out') && !c.querySelector('button.u1630-run').disabled",
                           arg=md.element_handle(), timeout=30000)
    shown = md.locator(".u1630-run-out").inner_text()
    check(md.locator(".u1630-run-out table td code").count() >= 3 and "|---|" not in shown and "pw" not in shown,
          f"partial_form.html: parse()'s markdown after Run is a table (no '|---|'), its password masked: {shown[:60]!r}")
    page.locator("body").click(position={"x": 5, "y": 300})   # outside the cells the theme's shortcut still works
    page.keyboard.press("/")
    focus = page.evaluate("() => document.activeElement.tagName + ':' + (document.activeElement.getAttribute('name') || document.activeElement.type || '')")
    check(focus.startswith("INPUT"), f"outside the cells, '/' still moves to the search box ({focus})")
    if shots:
        cell.scroll_into_view_if_needed(); page.screenshot(path=str(shots / "run_cell.png"))
    check(not errors(log), f"partial_form.html (cells run): no console or page errors {errors(log)[:3]}")
    _check_kept(page, cells, i, own, code)
    page.close()


def check_run_cells(browser, base, site):
    """On every page with Run cells, run them all as a reader does with the last one's Run (the cells above it run
    first, once, with the code the page runs unseen): every cell ran, and none raised. The page decides which cells
    run as JupyterLite does (docs/live.py `browser_plan`); the others say in one line why they stay static."""
    only = [n for n in os.environ.get("URI1630_CELL_PAGES", "").split(",") if n]   # for work on this check
    import build
    pages = [f"{build.page_name(n)}.html" for n in nav.order(ROOT / "nbs")]
    pages = [p for p in pages if (site / p).exists() and (not only or p[:-5] in only)]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    total = ran = 0; bad = {}
    t0 = time.time()
    for name in pages:
        page = ctx.new_page(); log = watch(page)
        page.goto(f"{base}/{name}", wait_until="load")
        cells = page.locator("div.cell.tag_u1630-run"); n = cells.count()
        if not n: page.close(); continue
        last = cells.nth(n - 1)
        last.get_by_role("button", name="Run").click()
        try:
            page.wait_for_function("(c) => c.dataset.runs && !c.querySelector('button.u1630-run').disabled",
                                   arg=last.element_handle(), timeout=240000)
        except Exception as e:
            bad[name] = [f"did not finish: {str(e).splitlines()[0][:80]}"]; page.close(); continue
        runs, errs = page.evaluate("""() => [[...document.querySelectorAll('div.cell.tag_u1630-run')].filter(c => c.dataset.runs).length,
            [...document.querySelectorAll('.u1630-run-error')].map(e => e.textContent.trim().split('\\n').pop().slice(0, 120))]""")
        total += n; ran += runs
        if errs or runs != n or errors(log): bad[name] = errs[:3] + ([f"{n - runs} cells did not run"] if runs != n else []) + errors(log)[:2]
        page.close()
    ctx.close()
    for name, why in bad.items(): check(False, f"{name}: its Run cells raised or stopped: {why}")
    check(total > 500 and not bad, f"every page's Run cells run clean: {ran}/{total} cells ran on {len(pages)} pages, "
          f"{len(bad)} pages with an error, in {time.time() - t0:.0f} s")
    FIGURES["run_cells"] = {"cells": total, "ran": ran, "pages_with_errors": len(bad), "s": round(time.time() - t0)}


def _check_kept(page, cells, i, own, code):
    "The reader's edit of cell `i` survives a reload and a page left and come back to; 'Undo my edits' restores `own`"
    def state():
        c = cells.nth(i)
        return c.locator(".cell_input pre").inner_text().strip(), c.locator(".u1630-edited").is_visible()
    page.reload(wait_until="load")
    after_reload = state()
    page.locator("a.next-page").first.click(); page.wait_for_load_state("load")
    page.go_back(wait_until="load")
    after_back = state()
    cells.nth(i).get_by_role("button", name="Undo my edits").click()
    after_undo = state()
    page.reload(wait_until="load")
    after_undo_reload = state()
    check(after_reload == (code, True) and after_back == (code, True) and after_undo == (own, False) == after_undo_reload,
          f"partial_form.html: a typed cell keeps the reader's code over a reload {after_reload[1]} and a page left and come "
          f"back to {after_back[1]}, said beside it; 'Undo my edits' brings the page's code back {after_undo[0] == own}, "
          f"also after a reload {after_undo_reload[0] == own}")


def check_keys(browser, base, shots):
    """The keys of a code cell, pressed for real (page.keyboard.press): Tab / Shift+Tab indent and outdent by 4 spaces
    (each line of a selection too), Escape leaves the cell (focus on its Run button, Tab moves on), Shift+Enter,
    Ctrl+Enter and Cmd (Meta)+Enter run it; the keys are written beside the Run button"""
    page = browser.new_page(viewport={"width": 1280, "height": 900}); log = watch(page)
    page.goto(f"{base}/partial_form.html", wait_until="load")
    cells = page.locator("div.cell.tag_u1630-run")
    cell = cells.nth(3); pre = cell.locator(".cell_input pre")
    text = lambda: pre.evaluate("p => p.textContent.replace(/\\n$/, '')")   # the cell keeps a last newline of its own
    focus = lambda: page.evaluate("() => document.activeElement.tagName + '.' + document.activeElement.className")
    type_into(page, pre, "def twice(x):\n")
    page.keyboard.press("Tab"); page.keyboard.type("return 2 * x")
    check(text() == "def twice(x):\n    return 2 * x" and focus().startswith("PRE"),
          f"Tab in a cell indents by 4 spaces and the focus stays ({text()!r}, focus {focus()})")
    page.keyboard.press("Shift+Tab")
    check(text() == "def twice(x):\nreturn 2 * x", f"Shift+Tab outdents the line ({text()!r})")
    page.keyboard.press("Home"); page.keyboard.press("Tab")
    page.keyboard.press("Control+A"); page.keyboard.press("Tab")
    check(text() == "    def twice(x):\n        return 2 * x", f"Tab on a selection of two lines indents both ({text()!r})")
    page.keyboard.press("Shift+Tab")
    check(text() == "def twice(x):\n    return 2 * x", f"Shift+Tab on the selection outdents both ({text()!r})")
    page.keyboard.press("Control+End"); page.keyboard.type("\n"); page.keyboard.press("Shift+Tab"); page.keyboard.type("twice(21)")
    for k, key in enumerate(("Shift+Enter", "Control+Enter", "Meta+Enter")):
        page.keyboard.press(key)
        try:
            page.wait_for_function("([c, n]) => +c.dataset.runs === n && !c.querySelector('button.u1630-run').disabled",
                                   arg=[cell.element_handle(), k + 1], timeout=60000)
            out = cell.locator(".u1630-run-out").inner_text()
        except Exception as e: out = f"did not run: {str(e).splitlines()[0]}"
        check(out.strip() == "42" and focus().startswith("PRE"), f"{key} in the cell runs it: {out.strip()!r}")
    page.keyboard.press("Escape")
    f1 = focus()
    page.keyboard.press("Tab")
    f2 = page.evaluate("() => !document.activeElement.closest('.cell_input') && document.activeElement !== document.body")
    check(f1 == "BUTTON.u1630-run" and f2 and text().endswith("twice(21)"),
          f"Escape leaves the cell (focus on its Run button: {f1}); Tab then moves on, the cell unchanged")
    hint = cell.locator(".u1630-keys")
    check(hint.count() == 1 and hint.is_visible() and "Shift+Enter" in hint.inner_text() and "Esc" in hint.inner_text(),
          f"the keys are shown beside the Run button: {hint.inner_text() if hint.count() else None!r}")
    if shots: cell.scroll_into_view_if_needed(); cell.screenshot(path=str(shots / "run_cell_keys.png"))
    check(not errors(log), f"partial_form.html (keys): no console or page errors {errors(log)[:3]}")
    page.close()


EXPLORERS = {"06a_encoding_explorer": "URI", "07a_resolution_explorer": "Partial", "24a_parse_explorer": "URL"}
# every code cell of the open notebook, read from its model (JupyterLab draws only the cells in view, so a cell that
# raised may be scrolled off): [index, execution count, the error's name and value or ""]
CELLS_JS = """() => Array.from(window.jupyterapp.shell.currentWidget.content.model.cells).map((c, i) => [i, c]).filter(([i, c]) => c.type === 'code').map(([i, c]) => {
    const outs = c.outputs.toJSON(); const err = outs.find(o => o.output_type === 'error');
    return [i, c.executionCount, err ? err.ename + ': ' + String(err.evalue).split('\\n')[0].slice(0, 200) : ''];
})"""
KERNEL_IDLE_JS = """() => { const w = window.jupyterapp.shell.currentWidget; const k = w && w.sessionContext.session && w.sessionContext.session.kernel;
    return !!k && k.status === 'idle'; }"""
KERNEL_BUSY_JS = """() => { const w = window.jupyterapp.shell.currentWidget; const k = w && w.sessionContext.session && w.sessionContext.session.kernel;
    return k ? k.status : 'none'; }"""
RUNS = {}   # stem -> {"kernel_s", "run_s", "cells", "error"}


def _offsite_route(r):
    url = r.request.url
    if url.startswith(("data:", "blob:")) or urlparse(url).hostname == "127.0.0.1": return r.continue_()
    OFFSITE.append(url); return r.abort()


def _run_all(page, stem, field):
    """Run All (the menu, as a reader does) once the kernel is idle; wait until every code cell has run or one raised
    (Run All stops there); fail on any cell with an error output, naming the cell and the error. On an explorer
    notebook, the ipywidgets explorer then answers a value typed into it."""
    t0 = time.time()
    page.wait_for_function(KERNEL_IDLE_JS, timeout=180000, polling=200)
    t_kernel = time.time() - t0
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    t1 = time.time()
    # done: every code cell has an execution count and the kernel is idle again, or a cell raised
    state = page.wait_for_function(f"""() => {{ const s = ({CELLS_JS})(); const idle = ({KERNEL_IDLE_JS})();
        return ((idle && s.every(c => c[1] !== null)) || s.some(c => c[2])) && s; }}""",
                                   timeout=600000, polling=250).json_value()
    t_run = time.time() - t1
    errs = [f"cell {i} (code cell {k + 1} of {len(state)}): {e}" for k, (i, n, e) in enumerate(state) if e]
    unrun = [i for i, n, e in state if n is None]
    ok = bool(state) and not unrun and not errs
    RUNS[stem] = {"kernel_s": round(t_kernel, 1), "run_s": round(t_run, 1), "cells": len(state), "error": errs[0] if errs else ""}
    check(ok, f"JupyterLite {stem}: Run All ran {len(state) - len(unrun)}/{len(state)} code cells"
              + (" without an error" if not errs else f"; RAISED in {errs[0]}") + f" (kernel idle {t_kernel:.1f} s, run {t_run:.1f} s)")
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


def _open_link(ctx, base, stem, shots):
    """On the page of notebook `stem`, CLICK "Open as a notebook": its own notebook opens in JupyterLite; Run All"""
    import build
    name = build.page_name(stem) + ".html"
    want = build.lite_name(stem)
    page = ctx.new_page(); perr = []
    page.on("pageerror", lambda e: perr.append(str(e)))
    t_page = time.time()
    page.goto(f"{base}/{name}", wait_until="load")
    link = page.locator("a.u1630-open-nb")
    if not check(link.count() == 1, f"{name}: one 'Open as a notebook' link ({link.count()})"): page.close(); return
    t0 = time.time()
    link.click()
    try:
        # JupyterLite's Notebook interface: one document a browser tab, never a workspace of earlier ones
        page.wait_for_url(re.compile(r"/lite/notebooks/"), timeout=30000)
        page.wait_for_function("(want) => document.querySelector('.jp-Dialog') || (window.jupyterapp && window.jupyterapp.shell.currentWidget"
                               " && window.jupyterapp.shell.currentWidget.context && window.jupyterapp.shell.currentWidget.context.path === want)",
                               arg=want, timeout=90000, polling=250)
        dialog = page.locator(".jp-Dialog")
        page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell", timeout=30000)
        page.wait_for_function("() => window.jupyterapp.shell.currentWidget.context.isReady", timeout=60000)   # its cells loaded
        cells = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.model.cells.length")
        ok = dialog.count() == 0 and cells > 0
        check(ok, f"{name}: 'Open as a notebook' clicked, JupyterLite opened {want} ({cells} cells, {time.time() - t0:.1f} s)"
                  + (f"; dialog: {dialog.first.inner_text()[:200]!r}" if dialog.count() else ""))
        if ok: _run_all(page, stem, EXPLORERS.get(stem))
        if stem == "07a_resolution_explorer" and shots: page.screenshot(path=str(shots / "jupyterlite.png"))
        if stem == "10_http" and shots:   # a cell skipped in the browser, with its one-line note
            page.evaluate("""() => { const n = window.jupyterapp.shell.currentWidget.content;
                const i = n.widgets.findIndex(c => c.model.type === 'code' && c.model.sharedModel.getSource().startsWith('%%browser_skip'));
                if (i >= 0) { n.activeCellIndex = i; n.scrollToItem(i, 'center'); } }""")
            page.wait_for_timeout(500); page.screenshot(path=str(shots / "jupyterlite_skip.png"))
    except Exception as e:
        check(False, f"{name}: 'Open as a notebook' did not open {want} or did not run to the end: {str(e).splitlines()[0]}")
    RUNS.setdefault(stem, {})["total_s"] = round(time.time() - t_page, 1)
    # nothing is cleared: the next notebook opens in the same browser, as a reader's second one does (its own
    # notebook, not the one opened before: checked above by its path)
    check(not perr, f"{name} -> JupyterLite: no page errors {perr[:2]}") if perr else None
    page.close()


def check_open_links(site, base, shots, workers=2):
    """On every page (docs/nav.py's order: the pages the site links), CLICK "Open as a notebook": that page's own
    notebook opens in the site's JupyterLite, alone (its Notebook interface, no error dialog), and Run All runs every code cell
    to the end without an error; on the explorer pages the ipywidgets explorer answers.
    The notebooks are shared out over `workers` browsers, each driven from its own thread (one playwright per thread),
    the longest first. Each browser keeps one context, so the runtime (Pyodide, the wheels) comes from its HTTP cache
    after the first notebook, as for a reader who opens a second one; every notebook gets its own page and kernel."""
    if not (site / "lite" / "lab" / "index.html").exists():
        print("  skip JupyterLite: _site/lite/ was not built"); return
    from playwright.sync_api import sync_playwright
    t_all = time.time()
    only = [n for n in os.environ.get("URI1630_LITE_PAGES", "").split(",") if n]   # for work on this check: a few notebooks
    stems = [n for n in nav.order(ROOT / "nbs") if not only or n in only]
    check(only or len(stems) == len(nav.notebooks(ROOT / "nbs")), f"Run All on every page's notebook: {len(stems)} notebooks")
    stems.sort(key=lambda n: -(ROOT / "nbs" / f"{n}.ipynb").stat().st_size)   # the big ones first: the workers end together
    workers = max(1, min(workers, int(os.environ.get("URI1630_LITE_WORKERS", workers)), len(stems)))
    todo, lock, crashed = list(stems), threading.Lock(), []

    def run():
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                ctx.route("**/*", _offsite_route)
                while True:
                    with lock:
                        if not todo: break
                        stem = todo.pop(0)
                    _open_link(ctx, base, stem, shots)
                ctx.close(); browser.close()
        except Exception as e: crashed.append(str(e).splitlines()[0])

    threads = [threading.Thread(target=run) for _ in range(workers)]
    for t in threads: t.start()
    for t in threads: t.join()
    check(not crashed, f"every 'Open as a notebook' browser ran to the end {crashed}")
    total = time.time() - t_all
    print("  per notebook (kernel idle / Run All / from the page):")
    for stem in sorted(RUNS, key=lambda n: -RUNS[n].get("total_s", 0)):
        r = RUNS[stem]
        print(f"    {stem:28} {r.get('kernel_s', '-'):>6} s {r.get('run_s', '-'):>6} s {r.get('total_s', '-'):>6} s  "
              f"{r.get('cells', '?')} code cells" + (f"  RAISED {r['error']}" if r.get("error") else ""))
    clean = sum(1 for r in RUNS.values() if "run_s" in r and not r.get("error"))
    print(f"  (every 'Open as a notebook' link clicked and run: {clean}/{len(stems)} notebooks ran to the end, "
          f"in {total:.0f} s, {workers} browsers)")
    FIGURES["notebooks"] = {"run_to_the_end": clean, "of": len(stems), "total_s": round(total), "workers": workers,
                            "per_notebook": RUNS}


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
    if "--pages" in argv:   # for work on the check: Run All on these notebooks only (stems, comma-separated)
        os.environ["URI1630_LITE_PAGES"] = argv[argv.index("--pages") + 1]
    from playwright.sync_api import sync_playwright
    t0 = time.time()
    no_cdn_in_files(site)
    with sync_playwright() as pw, serve(site) as base:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        if "--lite-only" in argv:
            browser.close()
            print("== 'Open as a notebook', clicked on every page"); check_open_links(site, base, shots)
            if "--json" in argv: Path(argv[argv.index("--json") + 1]).write_text(json.dumps(FIGURES, indent=1))
            return 1 if FAILURES else 0
        if "--cells-only" in argv:   # every page's Run cells alone (URI1630_CELL_PAGES: a few pages)
            print("== every page's Run cells"); check_run_cells(browser, base, site); browser.close()
            print(f"== browser checks: {len(FAILURES)} failed, in {time.time() - t0:.0f}s")
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
        print("== keys in code cells"); check_keys(browser, base, shots)
        print("== every page's Run cells"); check_run_cells(browser, base, site)
        browser.close()
        print("== 'Open as a notebook', clicked on every page"); check_open_links(site, base, shots)
    check(not OFFSITE, f"requests that left 127.0.0.1 (aborted): {len(OFFSITE)} {sorted(set(OFFSITE))[:5]}")
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file()) / 1e6
    FIGURES["site_mb"] = round(size, 1)
    FIGURES["measured"] = time.strftime("%Y-%m-%d")
    firsts = [v["first_result_s"] for v in FIGURES.values() if isinstance(v, dict) and "first_result_s" in v]
    repeats = [v["repeat_first_result_s"] for v in FIGURES.values() if isinstance(v, dict) and "repeat_first_result_s" in v]
    if repeats: print(f"== figures: first live result on a repeat visit {statistics.median(repeats):.2f} s (median of {len(repeats)} explorers)")
    meds = [v["update_median_ms"] for v in FIGURES.values() if isinstance(v, dict) and "update_median_ms" in v]
    if firsts:
        print(f"== figures: first live result {statistics.median(firsts):.2f} s (median of {len(firsts)} explorers), "
              f"update median {statistics.median(meds):.1f} ms, site {size:.1f} MB")
    if "--json" in argv: Path(argv[argv.index("--json") + 1]).write_text(json.dumps(FIGURES, indent=1))
    print(f"== browser checks: {len(FAILURES)} failed, in {time.time() - t0:.0f}s")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
