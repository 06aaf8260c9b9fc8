"""Accessibility and page checks of the built site in a real headless browser (Debian chromium + playwright), offline.

    python docs/a11y_check.py [--site _site] [--json a11y.json] [--screenshots DIR] [--pages a.html,b.html]
                              [--only axe,keys,print,search,map,files,tables,shots] [--workers N] [--report]

- **axe** (axe-core, the npm package, pinned and its sha512 checked, fetched once with `npm pack` into the docs cache,
  never into the repository): every page of the built site (every .html but JupyterLite's), in furo's light AND dark
  theme, with the WCAG 2.1 A/AA rules (tags wcag2a, wcag2aa, wcag21a, wcag21aa: contrast included). A page with an
  explorer is checked once Python is ready (the controls enabled, the live result shown); the status line is checked
  in each of its states, the explorers with input that shows every character class and RFC 3986's flag, and a code
  cell's output and traceback after a run. Any violation fails.
- **keys**: on every page, Tab from the top, as a reader does, until focus comes round: every control (link, button,
  field, radio group, editable cell) is reached, each shows a visible focus ring and is on screen when focused; at
  390 px the navigation and contents buttons open their drawers from the keyboard. Then controls are used with real
  key presses: the theme button (Enter), an explorer preset (Space, Enter), a radio group (arrow keys), a Run button
  (Enter).
- **print**: the HTTP page printed (A4, `page.pdf`): no sidebar, buttons or explorer chrome; RFC quotes and code kept;
  at most PRINT_MAX_PAGES pages.
- **search**: "resolve" ranks "Partial (relative) form" first; the excerpts lead with prose (no import line, no
  banner text); a word found only in code cells is not in the index.
- **map**: the front page's map lists the sidebar's pages in the sidebar's order, with the sidebar's titles.
- **files**: every page links its notebook (downloadable, .ipynb served by the site) and its source.
- **tables**: at 1920 px the then-and-now table uses the window (at least 1.3 times the text column, no URL over more
  than 2 lines) and at 390/1280 px no page scrolls sideways.
(The performance chart's axis, linear from 0 and shared, is asserted by its own cell in nbs/34_performance.ipynb: the
build fails if it regresses.)
Exit status 0 if every check passed, 1 otherwise; `--report` (or URI1630_A11Y_GATES=report) prints the same and exits 0.
"""
import asyncio, base64, functools, hashlib, http.server, json, os, re, socket, sys, tarfile, tempfile, threading, time
from pathlib import Path
from html.parser import HTMLParser
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))
import live  # noqa: E402  (docs/live.py: the docs cache and npm pack)
import nav  # noqa: E402  (docs/nav.py)

AXE = "axe-core@4.14.1"
AXE_SHA512 = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
PRINT_PAGE, PRINT_MAX_PAGES = "http.html", 21   # 24 A4 pages with the sidebar and buttons (before #27), 20 without
CHROMIUM = os.environ.get("URI1630_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-quic"]
FAILURES, OFFSITE, FIGURES = [], [], {}
SKIP_DIRS = {"lite", "_static", "_images", "_sources", "_notebooks", "_src", "screenshots", "jupyter_execute"}


def check(ok, what):
    print(("  ok   " if ok else "  FAIL ") + what, flush=True)
    if not ok: FAILURES.append(what)
    return ok


def fetch_axe() -> str:
    "axe.min.js from the docs cache, or fetched once from the npm registry (`npm pack`, sha512 checked)"
    dest = live.cache_dir() / AXE.replace("@", "-") / "axe.min.js"
    if dest.exists(): return dest.read_text()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tgz = live._npm_pack(AXE, tmp)
        algo, _, digest = AXE_SHA512.partition("-")
        if base64.b64encode(hashlib.new(algo, tgz.read_bytes()).digest()).decode() != digest:
            sys.exit(f"{AXE}: the tarball's sha512 is not the pinned one")
        with tarfile.open(tgz) as t: dest.write_bytes(t.extractfile("package/axe.min.js").read())
    print(f"[a11y] {AXE} from the npm registry (sha512 checked) -> {dest}", flush=True)
    return dest.read_text()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


class _Server:
    "Serve a folder on 127.0.0.1 from a thread of this process (so it cannot be a stale server)"
    def __init__(self, folder):
        class Quiet(http.server.SimpleHTTPRequestHandler):
            extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                              ".wasm": "application/wasm", ".js": "text/javascript", ".ipynb": "application/x-ipynb+json"}
            def log_message(self, *a): pass
        class Srv(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address): pass
        self.srv = Srv(("127.0.0.1", free_port()), functools.partial(Quiet, directory=str(folder)))
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.srv.server_address[1]}"
    def close(self): self.srv.shutdown(); self.srv.server_close()


async def _route(r):
    url = r.request.url
    if url.startswith(("data:", "blob:")) or urlparse(url).hostname == "127.0.0.1": return await r.continue_()
    OFFSITE.append(url); return await r.abort()


async def new_context(browser, theme="light", width=1280, height=900):
    "A browser context in furo's `theme` (light or dark: its toggle's own setting, kept in localStorage)"
    ctx = await browser.new_context(viewport={"width": width, "height": height}, color_scheme=theme)
    await ctx.add_init_script(f"try {{ localStorage.setItem('theme', '{theme}'); }} catch (e) {{}}")
    await ctx.route("**/*", _route)
    return ctx


def site_pages(site, only=()):
    "Every page of the built site (JupyterLite's own and the build's file folders aside), the front page first"
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                   if p.relative_to(site).parts[0] not in SKIP_DIRS)
    pages.sort(key=lambda n: n != "index.html")
    return [p for p in pages if not only or p in only]


async def goto(page, base, name, ready=True):
    await page.goto(f"{base}/{name}", wait_until="load")
    if ready and await page.locator(".u1630-explorer").count():   # controls come alive once Python is ready
        await page.wait_for_selector(".u1630-explorer.u1630-ready", timeout=180000)
        await page.wait_for_timeout(100)


# ------------------------------------------------------------------------------------------------ axe
AXE_RUN = """async ([ctx, tags, rules]) => {
  if (!window.u1630AxeReady) {   // contrast of code: the highlighter's palette is checked once per theme (probe_code)
    const rule = axe._audit.rules.find(r => r.id === 'color-contrast'), orig = rule.matches.bind(rule);
    rule.matches = (node, vnode) => !(node.closest && node.closest('div.highlight pre') && !node.closest('.u1630-probe')) && orig(node, vnode);
    window.u1630AxeReady = true;
  }
  const only = rules ? {type: 'rule', values: rules} : {type: 'tag', values: tags};
  const r = await axe.run(ctx || document, {runOnly: only, resultTypes: ['violations', 'incomplete']});
  const brief = v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map(n =>
      [n.target.join(' '), (n.any[0] || n.all[0] || n.none[0] || {}).message || n.failureSummary || ''].join(' :: ')),
      count: v.nodes.length});
  return {violations: r.violations.map(brief), incomplete: r.incomplete.filter(v => v.id === 'color-contrast').map(brief)};
}"""
CONTRAST = ["color-contrast"]


async def axe(page, src, ctx=None, rules=None):
    "axe-core's WCAG 2.1 A/AA rules on the page (or `ctx`: {include, exclude}); `rules`: only these"
    if not await page.evaluate("() => typeof window.axe !== 'undefined'"): await page.add_script_tag(content=src)
    return await page.evaluate(AXE_RUN, [ctx, AXE_TAGS, rules])


async def probe_code(page, src, site):
    "Every token class of the highlighter's stylesheet (light and dark rules) in one code block, checked for contrast"
    css = "".join(p.read_text() for p in (site / "_static").glob("pygments*.css"))
    classes = sorted(set(re.findall(r"\.highlight \.([A-Za-z0-9]+)\b", css)) - {"hll"})
    await page.evaluate("""(cls) => { const d = document.createElement('div'); d.className = 'highlight u1630-probe';
        d.innerHTML = '<pre>' + cls.map(c => `<span class="${c}">tok_${c}</span>`).join(' ') + '</pre>';
        (document.querySelector('article[role=main]') || document.body).appendChild(d); }""", classes)
    r = await axe(page, src, {"include": [".u1630-probe"]}, CONTRAST)
    await page.evaluate("() => document.querySelector('.u1630-probe').remove()")
    return [dict(v, id=v["id"] + " (code palette)") for v in r["violations"]], len(classes)


STATES = ("idle", "loading", "ready", "failed", "static")


async def _axe_states(page, src):
    "The status line in each of its states (live.js sets them as Python loads, runs, fails)"
    found = []
    for state in STATES:
        await page.evaluate("(s) => document.querySelectorAll('.u1630-live-status').forEach(e => { e.dataset.state = s; "
                            "e.textContent = e.textContent || 'status'; })", state)
        r = await axe(page, src, {"include": [".u1630-live-status"]}, CONTRAST)
        found += [dict(v, id=f"{v['id']} (status {state})") for v in r["violations"]]
    return found


async def _axe_inputs(page, src, name):
    "The explorers with input that shows every class of character, and RFC 3986's flag where it differs"
    found = []
    if name == "encoding_explorer.html":
        box = page.get_by_label("URI", exact=True).first
        await box.fill("http://a.b/~c%2Fd e<f>{g}|h^i[j]`k'l!m*n(o)p$q+r,s;t=u@v&w#x")
        found += (await axe(page, src, {"include": [".u1630-explorer"]}, CONTRAST))["violations"]
    if name == "resolution_explorer.html":
        for ctx, partial in (("magic://a/b/c//d/e/f", "g;x?y#s"), ("http://a/b/c/d;p?q", "../../../g"),
                             ("magic://a/b/c//d/e/f", "/g")):
            await page.get_by_label("Context", exact=True).first.fill(ctx)
            await page.get_by_label("Partial", exact=True).first.fill(partial)
            found += (await axe(page, src, {"include": [".u1630-explorer"]}, CONTRAST))["violations"]
    return found


async def _axe_cells(page, src):
    "A code cell run, and a cell that raises: their output and traceback"
    cells = page.locator("div.cell.tag_u1630-run")
    if await cells.count() < 2: return []
    await cells.nth(0).get_by_role("button", name="Run").click()
    bad = cells.nth(1).locator(".cell_input pre")
    await bad.click(); await page.keyboard.press("Control+A"); await page.keyboard.type("1/0")
    await cells.nth(1).get_by_role("button", name="Run").click()
    await page.wait_for_selector(".u1630-run-error", timeout=180000)
    return (await axe(page, src, {"include": ["div.cell.tag_u1630-run"]}))["violations"]


async def check_axe(browser, base, pages, src, workers, site):
    sem = asyncio.Semaphore(workers)
    results = {}

    async def one(ctx, theme, name):
        async with sem:
            page = await ctx.new_page()
            try:
                await goto(page, base, name)
                # the rules that do not depend on colour give the same answer in both themes: run once, in light
                r = await axe(page, src, rules=None if theme == "light" else CONTRAST)
                vs = r["violations"]
                if name == pages[0]:
                    found, ncls = await probe_code(page, src, site)
                    vs += found; FIGURES.setdefault("code_palette_classes", ncls)
                vs += await _axe_states(page, src) if name in ("index.html", "encoding_explorer.html", "partial_form.html") else []
                vs += await _axe_inputs(page, src, name)
                vs += await _axe_cells(page, src) if name == "partial_form.html" else []
                results[(theme, name)] = (vs, r["incomplete"])
                print(f"    {theme:5} {name}: {sum(v['count'] for v in vs)} violations {[v['id'] for v in vs][:4]}", flush=True)
            except Exception as e:
                results[(theme, name)] = ([{"id": "check-error", "impact": "n/a", "help": str(e).splitlines()[0], "nodes": [], "count": 1}], [])
            finally:
                await page.close()

    t0 = time.time()
    for theme in ("light", "dark"):
        ctx = await new_context(browser, theme)
        await asyncio.gather(*(one(ctx, theme, n) for n in pages))
        await ctx.close()
    by_rule = {}
    for (theme, name), (vs, _) in sorted(results.items()):
        for v in vs:
            by_rule.setdefault(v["id"], []).append((theme, name, v))
    total = sum(v["count"] for vs, _ in results.values() for v in vs)
    for rule, hits in sorted(by_rule.items()):
        n = sum(h[2]["count"] for h in hits)
        print(f"    {rule}: {n} nodes on {len({(t, p) for t, p, _ in hits})} page-themes; {hits[0][2]['help']}")
        for t, p, v in hits[:6]:
            print(f"      {t} {p}: " + " | ".join(v["nodes"][:2])[:400])
    incomplete = sum(v["count"] for _, inc in results.values() for v in inc)
    FIGURES["axe"] = {"pages": len(pages), "themes": 2, "violations": total, "rules": {k: sum(h[2]["count"] for h in v) for k, v in by_rule.items()},
                      "contrast_needs_review": incomplete, "seconds": round(time.time() - t0, 1)}
    check(total == 0, f"axe-core {AXE.split('@')[1]} ({', '.join(AXE_TAGS)}): {total} violations on {len(pages)} pages x light/dark "
                      f"({len(by_rule)} rules; contrast left for review: {incomplete}; {time.time() - t0:.0f} s)")


# ------------------------------------------------------------------------------------------------ keyboard
MARK_JS = """() => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex], [contenteditable]';
  const out = [], groups = new Set();
  const ring = el => { const out = []; for (let e = el, i = 0; e && i < 4; e = e.parentElement, i++) {
    const s = getComputedStyle(e); out.push(s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow); } return out.join('|'); };
  let k = 0;
  for (const el of document.querySelectorAll(sel)) {
    if (el.disabled || el.getAttribute('tabindex') === '-1' || el.closest('[inert], [hidden]')) continue;
    if (el.matches('[contenteditable=false]')) continue;
    const s = getComputedStyle(el);
    if (s.visibility !== 'visible' || !el.getClientRects().length || s.display === 'none') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    let key = 'k' + (k++);
    if (el.type === 'radio') { key = 'radio:' + el.name; if (groups.has(key)) { el.dataset.u1630k = key; continue; } groups.add(key); }
    el.dataset.u1630k = key;
    el.dataset.u1630ring = ring(el);
    out.push([key, (el.tagName + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '') + ' '
                    + (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().slice(0, 40))]);
  }
  return out;
}"""
FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const out = []; let shows = false;
  for (let e = el, i = 0; e && i < 4; e = e.parentElement, i++) {
    const s = getComputedStyle(e); out.push(s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow);
    shows = shows || (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
  }
  const ring = out.join('|');
  const r = el.getBoundingClientRect();
  const onScreen = r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth && r.width > 0;
  return [el.dataset.u1630k || null, ring !== el.dataset.u1630ring && shows, onScreen, el.isContentEditable,
          el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40)];
}"""


async def tab_through(page):
    "Tab from the top until focus comes round; returns (expected, reached, no_ring, off_screen, strays)"
    # no smooth scrolling (furo's): a control focused by Tab is scrolled into view at once, so where it lands is measured
    await page.add_style_tag(content="*, html { scroll-behavior: auto !important; }")
    expected = dict(await page.evaluate(MARK_JS))
    reached, no_ring, off, strays = [], [], [], []
    await page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    first, empty = None, 0
    for _ in range(len(expected) * 2 + 40):
        await page.keyboard.press("Tab")
        f = await page.evaluate(FOCUS_JS)
        if f and f[3]:   # in an editable cell, Tab may indent: Escape leaves the cell, Tab moves on
            await page.keyboard.press("Escape")
            g = await page.evaluate(FOCUS_JS)
            if g and g[3]: await page.keyboard.press("Tab"); g = await page.evaluate(FOCUS_JS)
            if f[0] and f[0] not in reached: reached.append(f[0])
            if not f[1]: no_ring.append(f[4])
            f = g
        if f is None:
            empty += 1
            if empty > 2: break
            continue
        key = f[0]
        if key is None: strays.append(f[4]); continue
        if key == first: break
        first = first or key
        if key not in reached: reached.append(key)
        if not f[1]: no_ring.append(f[4])
        if not f[2]:   # a control that slides in when focused (furo's "Skip to content"): once its transition ends
            await page.wait_for_timeout(400)
            if not (await page.evaluate(FOCUS_JS) or [0, 0, False])[2]: off.append(f[4])
    return expected, reached, no_ring, off, strays


async def check_keys(browser, base, pages, workers):
    sem = asyncio.Semaphore(workers)
    problems = {}
    counts = []

    async def one(ctx, name, width):
        async with sem:
            page = await ctx.new_page()
            try:
                await goto(page, base, name)
                expected, reached, no_ring, off, strays = await tab_through(page)
                missed = [v for k, v in expected.items() if k not in reached]
                counts.append(len(expected))
                p = []
                if missed: p.append(f"{len(missed)} of {len(expected)} controls never reached by Tab: {missed[:4]}")
                if no_ring: p.append(f"{len(no_ring)} focused without a visible focus ring: {sorted(set(no_ring))[:4]}")
                if off: p.append(f"{len(off)} focused off screen: {sorted(set(off))[:4]}")
                if p: problems[f"{name} @{width}"] = p
            except Exception as e:
                problems[f"{name} @{width}"] = [f"check error: {str(e).splitlines()[0]}"]
            finally:
                await page.close()

    t0 = time.time()
    for width in (1280, 390):
        ctx = await new_context(browser, "light", width=width)
        names = pages if width == 1280 else [p for p in pages if p in ("index.html", "partial_form.html", "encoding_explorer.html", "then_and_now.html")]
        await asyncio.gather(*(one(ctx, n, width) for n in names))
        await ctx.close()
    for k, v in sorted(problems.items()): print(f"    {k}: " + "; ".join(v)[:600])
    FIGURES["keys"] = {"pages": len(pages), "controls": sum(counts), "pages_with_problems": len(problems), "seconds": round(time.time() - t0, 1)}
    check(not problems, f"Tab reaches every control, with a visible focus ring, on screen: {len(counts)} page-widths, "
                        f"{sum(counts)} controls ({len(problems)} page-widths with problems; {time.time() - t0:.0f} s)")
    await check_key_use(browser, base)


CELL_RING_JS = """() => {
  // the focus ring of the focused code cell: its outline and that colour's contrast with the page (a shadow does not
  // count: the cell's 2 px shadow was covered by the Run bar below and the run marker at its left, #27)
  const lum = c => { const m = (c || '').match(/[\\d.]+/g); if (!m || m.length < 3) return null;
    const [r, g, b] = m.slice(0, 3).map(x => { x = x / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = lum(getComputedStyle(document.body).backgroundColor);
  const ratio = c => { const l = lum(c); return l === null || bg === null ? 0 : (Math.max(l, bg) + 0.05) / (Math.min(l, bg) + 0.05); };
  const el = document.activeElement, cell = el.closest('.cell_input');
  let best = [0, 0];
  for (let e = el; e && e !== cell.parentElement; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.outlineStyle !== 'none') best = [Math.max(best[0], parseFloat(s.outlineWidth)), Math.max(best[1], ratio(s.outlineColor))];
  }
  return {editable: el.isContentEditable, width: best[0], contrast: Math.round(best[1] * 100) / 100};
}"""


async def check_cell_focus(browser, base):
    "A code cell focused from the keyboard shows an outline at least 2 px wide, at 3:1 against the page (WCAG 1.4.11), light and dark"
    out = {}
    for theme in ("light", "dark"):
        ctx = await new_context(browser, theme)
        page = await ctx.new_page()
        await goto(page, base, "partial_form.html")
        await page.locator("div.cell.tag_u1630-run .cell_input pre").first.focus()
        out[theme] = await page.evaluate(CELL_RING_JS)
        await page.close(); await ctx.close()
    FIGURES["cell_focus"] = out
    check(all(r["editable"] and r["width"] >= 2 and r["contrast"] >= 3 for r in out.values()),
          f"partial_form.html: a focused code cell shows its focus ring (>= 2 px, >= 3:1), light and dark: {out}")


async def check_key_use(browser, base):
    "Controls used with real key presses"
    await check_cell_focus(browser, base)
    ctx = await new_context(browser, "light")
    page = await ctx.new_page()
    await goto(page, base, "introduction.html")
    btn = page.locator(".theme-toggle-content .theme-toggle, .theme-toggle").locator("visible=true").first
    await btn.focus()
    before = await page.evaluate("() => document.body.dataset.theme")
    await page.keyboard.press("Enter")
    after = await page.evaluate("() => document.body.dataset.theme")
    await page.keyboard.press("Space")
    third = await page.evaluate("() => document.body.dataset.theme")
    check(before != after != third, f"the theme button works from the keyboard: Enter {before} -> {after}, Space -> {third}")
    await page.close()

    page = await ctx.new_page()
    await goto(page, base, "resolution_explorer.html")
    part = page.get_by_label("Partial", exact=True).first
    presets = page.locator("button.u1630-preset")
    seen = []
    for i, key in ((2, "Space"), (4, "Enter")):
        await presets.nth(i).focus()
        await page.keyboard.press(key)
        want = json.loads(await presets.nth(i).get_attribute("data-sets"))["partial"]
        seen.append((key, await part.input_value() == want))
    check(all(ok for _, ok in seen), f"resolution explorer: a preset button pressed with Space, another with Enter, each sets the partial {seen}")
    await page.close()

    page = await ctx.new_page()
    await goto(page, base, "encoding_explorer.html")
    group = page.locator("fieldset.u1630-toggle").first
    checked = group.locator("input:checked")
    before = await checked.get_attribute("value")
    await checked.focus()
    n0 = int(await page.locator(".u1630-explorer").first.get_attribute("data-updates") or 0)
    await page.keyboard.press("ArrowRight")
    after = await group.locator("input:checked").get_attribute("value")
    n1 = int(await page.locator(".u1630-explorer").first.get_attribute("data-updates") or 0)
    check(before != after and n1 > n0, f"encoding explorer: ArrowRight in the level group moves the choice ({before} -> {after}) and re-renders")
    await page.close()

    page = await ctx.new_page()
    await goto(page, base, "partial_form.html")
    run = page.locator("div.cell.tag_u1630-run").first.get_by_role("button", name="Run")
    await run.focus(); await page.keyboard.press("Enter")
    try:
        await page.wait_for_selector("div.cell.tag_u1630-run .u1630-run-out", timeout=180000)
        check(True, "partial_form.html: Enter on a focused Run button runs the cell")
    except Exception as e:
        check(False, f"partial_form.html: Enter on a Run button showed no output: {str(e).splitlines()[0]}")
    await page.close()
    await ctx.close()

    ctx = await new_context(browser, "light", width=390)
    page = await ctx.new_page()
    await goto(page, base, "partial_form.html")
    res = []
    for label, drawer in (("navigation", ".sidebar-drawer"), ("contents", ".toc-drawer")):
        tog = page.locator(f"[data-u1630-toggle={label}]").locator("visible=true").first
        if not await tog.count(): res.append((label, "no keyboard toggle")); continue
        await tog.focus(); await page.keyboard.press("Enter"); await page.wait_for_timeout(400)
        x = await page.evaluate(f"() => {{ const r = document.querySelector('{drawer}').getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth + 1; }}")
        await page.keyboard.press("Escape"); await page.wait_for_timeout(400)
        y = await page.evaluate(f"() => {{ const r = document.querySelector('{drawer}').getBoundingClientRect(); return !(r.left >= 0 && r.right <= innerWidth + 1); }}")
        res.append((label, x and y))
    check(all(ok is True for _, ok in res), f"390 px: the navigation and contents drawers open with Enter and close with Escape {res}")
    await page.close()
    await ctx.close()


# ------------------------------------------------------------------------------------------------ print
def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


async def check_print(browser, base, shots):
    ctx = await new_context(browser, "light")
    page = await ctx.new_page()
    await goto(page, base, PRINT_PAGE, ready=False)
    await page.emulate_media(media="print")
    shown = await page.evaluate("""() => {
      const vis = s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden').length;
      return {sidebar: vis('.sidebar-drawer .sidebar-tree a'), toc: vis('.toc-drawer a'), buttons: vis('button'), banner: vis('.u1630-banner a'),
              quotes: vis('blockquote.rfc-quote'), code: vis('div.highlight pre'), forms: vis('.u1630-form')};
    }""")
    data = await page.pdf(format="A4", print_background=True)
    n = pdf_pages(data)
    FIGURES["print"] = {"page": PRINT_PAGE, "pages": n, "shown": shown}
    if shots:
        (shots / "print_http.pdf").write_bytes(data)
    ok = not (shown["sidebar"] or shown["toc"] or shown["buttons"] or shown["banner"] or shown["forms"]) and shown["quotes"] and shown["code"]
    check(ok, f"print ({PRINT_PAGE}): no sidebar, contents, buttons, banner or explorer form; quotes and code kept {shown}")
    check(n <= PRINT_MAX_PAGES, f"print ({PRINT_PAGE}): {n} A4 pages (bound {PRINT_MAX_PAGES}; 24 with the sidebar and buttons before #27)")
    await page.close()
    await ctx.close()


# ------------------------------------------------------------------------------------------------ search
class _Words(HTMLParser):
    "The words of a page: inside code cells' inputs (`div.cell_input`), and outside them (scripts, styles, svg left out)"

    def __init__(self):
        super().__init__(convert_charrefs=False)   # an entity's name is a word of the text it is in (Sphinx indexes it)
        self.divs, self.code_at, self.skip, self.code, self.prose = 0, [], 0, [], []

    def handle_starttag(self, tag, attrs):
        if tag == "div":
            self.divs += 1
            if "cell_input" in (dict(attrs).get("class") or "").split(): self.code_at.append(self.divs)
        elif tag in ("script", "style", "svg"): self.skip += 1

    def handle_endtag(self, tag):
        if tag == "div":
            if self.code_at and self.code_at[-1] == self.divs: self.code_at.pop()
            self.divs -= 1
        elif tag in ("script", "style", "svg"): self.skip = max(0, self.skip - 1)

    def handle_data(self, data):
        if not self.skip: (self.code if self.code_at else self.prose).append(data)

    def handle_entityref(self, name): self.handle_data(f" {name} ")

    def handle_charref(self, name): self.handle_data(f" {name} ")


def _code_only_stems(site):
    "Sphinx's stems of the words a code cell's input uses and no prose on any page does (nor a stem of one)"
    from sphinx.search.en import SearchEnglish
    stem, word = SearchEnglish({}).stem, re.compile(r"[^\W\d_]\w*")
    code, prose = set(), set()
    for f in site.glob("*.html"):
        w = _Words(); w.feed(f.read_text(encoding="utf-8"))
        code |= set(word.findall(" ".join(w.code).lower())); prose |= set(word.findall(" ".join(w.prose).lower()))
    prose |= {p for w in prose for p in w.split("_")}
    prose_stems = {stem(w) for w in prose} | prose
    # a Python name is split at '_' as Sphinx splits it: its parts count, each
    return {stem(p) for w in code - prose for p in w.split("_") if len(p) > 2} - prose_stems


def _searchindex(site):
    t = (site / "searchindex.js").read_text()
    return json.loads(t[t.index("(") + 1: t.rindex(")")])


async def check_search(browser, base, site):
    idx = _searchindex(site)
    docnames = idx["docnames"]
    titles = dict(zip(docnames, idx["titles"]))
    ctx = await new_context(browser, "light")
    page = await ctx.new_page()
    await page.goto(f"{base}/search.html?q=resolve", wait_until="load")
    await page.wait_for_selector("ul.search li p.context", timeout=30000)
    await page.wait_for_timeout(1500)   # summaries arrive page by page
    got = await page.evaluate("""() => [...document.querySelectorAll('ul.search li')].map(li =>
        [li.querySelector('a').getAttribute('href'), (li.querySelector('p.context') || {}).textContent || ''])""")
    first = got[0][0].split("?")[0].split("#")[0] if got else None
    check(first == "partial_form.html", f"search 'resolve': first result {first} ({titles.get((first or '').removesuffix('.html'))!r}); "
                                        f"then {[g[0] for g in got[1:4]]}")
    bad = [(h, c[:90]) for h, c in got if re.search(r"(^|\.\.\.)\s*(from \w[\w.]* import|import \w)", c)]
    check(not bad, f"search 'resolve': no excerpt leads with an import line ({len(got)} results; {bad[:2]})")
    ban = [(h, c[:90]) for h, c in got if "Open as a notebook" in c or re.search(r"[a-z)]\.?[A-Z][a-z]+ cells? ", c)]
    check(not ban, f"search 'resolve': no excerpt shows the banner's text or runs sentences together {ban[:2]}")
    await page.close()
    await ctx.close()
    # a word only the code cells use is not a search term: the words derived from the pages themselves (every word
    # of a code cell's input that no text outside code cells uses, on any page), not a list
    terms = idx["terms"]
    code_only = _code_only_stems(site)
    found = sorted(w for w in code_only if w in terms)
    check(code_only and not found, f"the search index holds prose, not code cells' text: of {len(code_only)} words only code "
                                   f"cells use, {len(found)} indexed {found[:8]} ({len(terms)} terms)")


# ------------------------------------------------------------------------------------------------ front page map
async def check_map(browser, base):
    ctx = await new_context(browser, "light")
    page = await ctx.new_page()
    await goto(page, base, "index.html", ready=False)
    got = await page.evaluate("""() => {
      const side = [...document.querySelectorAll('.sidebar-tree a.reference')].map(a => [a.getAttribute('href'), a.textContent.trim()]);
      const map = [...document.querySelectorAll('section#map-of-the-edition table td:first-child a')]
                   .map(a => [a.getAttribute('href'), a.textContent.trim()]);
      return [side, map];
    }""")
    side, mp = got
    # the map is of the edition's notebooks; the pages the build writes itself (nav.GENERATED: the RFCs' own text) follow
    # them in the sidebar, and are reached from there and from every "Page N" link
    made = {f"{stem}.html" for _, stems in nav.GENERATED for stem in stems}
    side = [s for s in side if s[0].split("#")[0] not in made]
    check(bool(mp) and mp == side, f"the front page's map: {len(mp)} links, the sidebar's {len(side)} pages in the sidebar's order "
                                   f"with its titles" + ("" if mp == side else f"; first difference: "
                                   f"{next(((a, b) for a, b in zip(mp, side) if a != b), (mp[len(side):][:1], side[len(mp):][:1]))}"))
    await page.close()
    await ctx.close()


# ------------------------------------------------------------------------------------------------ notebook and source links
async def check_files(browser, base, site):
    import build
    ctx = await new_context(browser, "light")
    page = await ctx.new_page()
    bad, n = [], 0
    for stem in nav.order(ROOT / "nbs"):
        name = build.page_name(stem) + ".html"
        await page.goto(f"{base}/{name}", wait_until="domcontentloaded")
        links = await page.evaluate("""() => [...document.querySelectorAll('a.u1630-download, a.u1630-nbsource')].map(a =>
            [a.className, a.getAttribute('href'), a.hasAttribute('download'), a.textContent.trim()])""")
        kinds = {c.split()[0]: (h, d) for c, h, d, _ in links}
        if set(kinds) != {"u1630-download", "u1630-nbsource"}: bad.append(f"{name}: links {links}"); continue
        for k, (href, dl) in kinds.items():
            r = await page.request.get(f"{base}/{href}")
            body = await r.body()
            try: ok = r.status == 200 and json.loads(body)["cells"] is not None
            except Exception: ok = False
            if not ok: bad.append(f"{name}: {href} (HTTP {r.status})")
            if k == "u1630-nbsource" and body != (ROOT / "nbs" / f"{stem}.ipynb").read_bytes(): bad.append(f"{name}: {href} is not nbs/{stem}.ipynb")
            if k == "u1630-download" and not dl: bad.append(f"{name}: {href} has no download attribute")
        n += 1
    check(not bad, f"every page links its notebook (download, with outputs) and its source (nbs/, as in the repository): {n} pages {bad[:3]}")
    await page.close()
    await ctx.close()


# ------------------------------------------------------------------------------------------------ wide tables
WIDE_JS = r"""() => {
  const col = document.querySelector('article[role=main]').getBoundingClientRect();
  const t = [...document.querySelectorAll('article table')].sort((a, b) => b.querySelectorAll('tr').length - a.querySelectorAll('tr').length)[0];
  const r = (t.closest('.u1630-wide-wrap') || t).getBoundingClientRect();   // a table wider than the window scrolls in its box
  const lines = [...t.querySelectorAll('td code')].map(c => c.getClientRects().length);
  const broken = lines.filter(n => n > 1).length, most = Math.max(...lines);
  // a table of a few columns (the kinds' table: 4) keeps to the window, wrapping its code and long words: neither past
  // the window's right edge nor scrolling in a box of its own (#27: at 1280 px the kinds' table did both)
  const scrolls = e => e.scrollWidth > e.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(e).overflowX);
  const over = [...document.querySelectorAll('article table')].filter(x => x.rows[0] && x.rows[0].cells.length <= 6).filter(x => {
    if (x.getBoundingClientRect().right > innerWidth) return true;
    for (let a = x; a && a.tagName !== 'ARTICLE'; a = a.parentElement) if (scrolls(a)) return true;
    return false;
  }).map(x => x.rows[0].innerText.replace(/\s+/g, ' ').slice(0, 40));
  return {table: Math.round(r.width), column: Math.round(col.width), right: Math.round(r.right), window: innerWidth, broken, most, over,
          scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


async def check_tables(browser, base, shots):
    out = {}
    for width in (1920, 1280, 390):
        ctx = await new_context(browser, "light", width=width)
        page = await ctx.new_page()
        await goto(page, base, "then_and_now.html", ready=False)
        await page.wait_for_timeout(200)
        out[width] = await page.evaluate(WIDE_JS)
        if shots and width == 1920:
            await page.locator("article table").last.scroll_into_view_if_needed()
            await page.screenshot(path=str(shots / "then_and_now_1920.png"))
        await page.close(); await ctx.close()
    FIGURES["tables"] = out
    w = out[1920]
    check(w["table"] > 1.3 * w["column"] and w["most"] <= 2 and w["right"] <= w["window"],
          f"then_and_now.html @1920: the table uses the window ({w['table']} px, the text column {w['column']} px; before #27 it "
          f"kept to the column and broke 89 URLs over 3 lines): no URL over more than 2 lines ({w['broken']} over 2)")
    check(all(out[x]["scroll"] <= 0 for x in (1280, 390)), f"then_and_now.html: no page-level horizontal scroll at 1280/390 px "
                                                            f"({out[1280]['scroll']}, {out[390]['scroll']} px)")
    check(not out[1920]["over"] and not out[1280]["over"], f"then_and_now.html: every table of up to 6 columns keeps to the window "
          f"at 1920 and 1280 px, its code and URLs wrapped, with no box of its own scrolling (over: {out[1920]['over']}, {out[1280]['over']})")


async def screenshots(browser, base, shots):
    for theme in ("light", "dark"):
        ctx = await new_context(browser, theme)
        page = await ctx.new_page()
        await goto(page, base, "resolution_explorer.html")
        await page.screenshot(path=str(shots / f"a11y_{theme}_resolution.png"))
        await goto(page, base, "encoding_explorer.html")
        await page.get_by_label("URI", exact=True).first.fill("http://a.b/~c%2Fd e<f>{g}|h")
        await page.locator(".u1630-explorer").first.screenshot(path=str(shots / f"a11y_{theme}_encoding.png"))
        await page.close(); await ctx.close()
    ctx = await new_context(browser, "light", width=390, height=844)
    page = await ctx.new_page()
    await goto(page, base, "partial_form.html", ready=False)
    await page.screenshot(path=str(shots / "a11y_phone.png"))
    await page.close(); await ctx.close()


async def main_async(argv):
    site = ROOT / (argv[argv.index("--site") + 1] if "--site" in argv else "_site")
    shots = Path(argv[argv.index("--screenshots") + 1]) if "--screenshots" in argv else None
    if shots: shots.mkdir(parents=True, exist_ok=True)
    only = set(argv[argv.index("--only") + 1].split(",")) if "--only" in argv else None
    pages = site_pages(site, set(argv[argv.index("--pages") + 1].split(",")) if "--pages" in argv else ())
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 3
    src = fetch_axe()
    from playwright.async_api import async_playwright
    srv = _Server(site)
    t0 = time.time()
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            want = lambda k: only is None or k in only
            if want("axe"): print("== axe-core, light and dark"); await check_axe(browser, srv.base, pages, src, workers, site)
            if want("keys"): print("== keyboard"); await check_keys(browser, srv.base, pages, workers)
            if want("print"): print("== print"); await check_print(browser, srv.base, shots)
            if want("search"): print("== search"); await check_search(browser, srv.base, site)
            if want("map"): print("== front page map"); await check_map(browser, srv.base)
            if want("files"): print("== notebook and source links"); await check_files(browser, srv.base, site)
            if want("tables"): print("== wide tables"); await check_tables(browser, srv.base, shots)
            if shots and want("shots"): await screenshots(browser, srv.base, shots)
            await browser.close()
    finally:
        srv.close()
    check(not OFFSITE, f"requests that left 127.0.0.1 (aborted): {len(OFFSITE)} {sorted(set(OFFSITE))[:3]}")
    if "--json" in argv: Path(argv[argv.index("--json") + 1]).write_text(json.dumps(FIGURES, indent=1))
    print(f"== a11y and page checks: {len(FAILURES)} failed, in {time.time() - t0:.0f}s")
    report = "--report" in argv or os.environ.get("URI1630_A11Y_GATES", "enforce") == "report"
    if FAILURES and report: print("   (report mode: --report or URI1630_A11Y_GATES=report; exit 0)")
    return 0 if report or not FAILURES else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main_async(sys.argv[1:])))
