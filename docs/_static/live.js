// The read-along site, live: Python (Pyodide, served by this site) runs uri1630 in the reader's browser.
// - explorers (div.u1630-explorer): their form controls come alive once the runtime is ready; every
//   keystroke re-renders with uri1630.render (the functions the ipywidgets explorers wrap);
// - code cells (div.cell.tag_u1630-run): editable in place, with a "Run" button; one namespace a page.
// Nothing is fetched from anywhere but this site: the runtime, the uri1630 wheel and fastcore's test
// helpers are files under _static/ (docs/build.py puts them there at build time).
(function () {
  "use strict";
  const script = document.currentScript;
  const STATIC = script.src.replace(/live\.js(\?.*)?$/, "");
  let runtime = null;          // a promise of the Pyodide instance, started at most once per page
  const stats = window.u1630Live = { t0: 0, ready: null, firstResult: null, updates: [] };   // times in ms since navigation start

  // one status line a place: an explorer's own line under its controls; the banner's line only on a page without
  // an explorer (else "Live: computed…" would show twice, the banner's and the explorer's)
  function status(text, cls) {
    const lines = document.querySelectorAll(".u1630-explorer .u1630-live-status");
    for (const s of lines.length ? lines : document.querySelectorAll(".u1630-live-status")) { s.textContent = text; s.dataset.state = cls; }
    // the controls, disabled while Python loads, are busy (the status line above them is the live region that says so)
    for (const f of document.querySelectorAll(".u1630-explorer .u1630-form")) {
      if (cls === "loading") f.setAttribute("aria-busy", "true"); else f.removeAttribute("aria-busy");
    }
  }

  async function fetchBytes(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  }

  function start() {
    if (runtime) return runtime;
    status("Loading… Python (Pyodide) is starting in your browser; the controls wake when it is ready.", "loading");
    runtime = (async () => {
      const manifest = await (await fetch(STATIC + "live/manifest.json")).json();
      const { loadPyodide } = await import(STATIC + "pyodide/pyodide.mjs");
      const py = await loadPyodide({ indexURL: STATIC + "pyodide/", packageBaseUrl: STATIC + "pyodide/",
                                     stdout: () => {}, stderr: () => {} });
      stats.pyodide = performance.now();
      const archives = await Promise.all(manifest.archives.map(a => fetchBytes(STATIC + "live/" + a.file)));
      manifest.archives.forEach((a, i) => py.unpackArchive(archives[i], a.format));
      py.runPython(manifest.helper);
      stats.ready = performance.now() - stats.t0;
      status(`Live: computed in your browser by uri1630 ${manifest.version} on Python ${manifest.python} (Pyodide ${manifest.pyodide}).`, "ready");
      return py;
    })();
    runtime.catch(e => { status("Python could not start in this browser: " + e, "failed"); console.warn(e); });
    return runtime;
  }

  // ---------------------------------------------------------------- explorers
  function browserJoin(context, partial) {
    // (a context the URL standard cannot use as a base, `news:comp.x`: said in words, not as a JavaScript error)
    try { return new URL(partial, context).href; } catch (e) { return "(no URL: the browser's URL standard cannot resolve against this context)"; }
  }
  function browserParse(text) {
    try { const u = new URL(text); return JSON.stringify({ href: u.href, protocol: u.protocol }); }
    catch (e) { return JSON.stringify({ error: `${e.name}: ${e.message}` }); }
  }
  function explorer(root) {
    const spec = JSON.parse(root.dataset.spec);
    const out = root.querySelector(".u1630-explorer-out");
    const controls = {};
    for (const el of root.querySelectorAll("[data-arg]")) controls[el.dataset.arg] = el;
    function value(arg) {
      const el = controls[arg];
      if (el.classList.contains("u1630-toggle")) return el.querySelector("input:checked").value;
      return el.value;
    }
    let render = null;
    function update() {
      if (!render) return;
      const t = performance.now();
      const args = spec.args.map(value);
      // the reader's own browser beside RFC 1630 (the WHATWG URL standard): `new URL(partial, context)`
      if (spec.kind === "resolution") args.push(browserJoin(args[0], args[1]));
      if (spec.kind === "parse") args.push(browserParse(args[0]));
      out.innerHTML = render(spec.kind, JSON.stringify(args));
      const dt = performance.now() - t;
      if (stats.firstResult === null) stats.firstResult = performance.now() - stats.t0;
      else stats.updates.push(dt);
      root.dataset.updates = String((+root.dataset.updates || 0) + 1);
    }
    for (const el of root.querySelectorAll("input, select")) {
      el.addEventListener("input", update);
      el.addEventListener("change", update);
    }
    const pick = root.querySelector("select.u1630-pick");
    if (pick) {
      pick.addEventListener("change", () => {
        if (pick.value) { controls[spec.pick_target].value = pick.value; update(); }
      });
      // typed text that is no example shows "(type your own)", so picking an example again applies it
      controls[spec.pick_target].addEventListener("input", () => {
        const v = controls[spec.pick_target].value;
        pick.value = [...pick.options].some(o => o.value === v) ? v : "";
      });
    }
    for (const b of root.querySelectorAll("button.u1630-preset")) b.addEventListener("click", () => {
      const sets = JSON.parse(b.dataset.sets);
      for (const k in sets) controls[k].value = sets[k];
      update();
    });
    start().then(py => {
      render = py.globals.get("_u1630_explore");
      for (const el of root.querySelectorAll("input, select, button")) el.disabled = false;
      root.classList.add("u1630-ready");
      update();
    });
  }

  // ---------------------------------------------------------------- code cells
  // ---- editing keys: Tab / Shift+Tab indent and outdent by 4 spaces (every line of a selection that spans lines)
  function caret(pre) {   // the selection as [start, end] offsets in the cell's text
    const sel = getSelection();
    if (!sel.rangeCount || !pre.contains(sel.anchorNode)) return [pre.textContent.length, pre.textContent.length];
    const r = sel.getRangeAt(0), before = document.createRange();
    before.selectNodeContents(pre); before.setEnd(r.startContainer, r.startOffset);
    const start = before.toString().length;
    before.setEnd(r.endContainer, r.endOffset);
    return [start, before.toString().length];
  }
  function select(pre, start, end) {   // the cell's text as one text node (its colours go), the selection restored
    const node = pre.firstChild && pre.childNodes.length === 1 && pre.firstChild.nodeType === 3 ? pre.firstChild : null;
    if (!node) { const t = pre.textContent; pre.textContent = t; }
    const r = document.createRange(), t = pre.firstChild || pre.appendChild(document.createTextNode(""));
    r.setStart(t, start); r.setEnd(t, end);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r);
  }
  function insert(pre, text) {   // `text` in place of the selection; the cell's line breaks stay "\n" characters
    const all = pre.textContent, [start, end] = caret(pre);
    const next = all.slice(0, start) + text + all.slice(end);
    // a last "\n" of its own, as the cell had, so that a caret after a typed "\n" has a line to stand on
    pre.textContent = next.endsWith("\n") && !(text.endsWith("\n") && end === all.length) ? next : next + "\n";
    select(pre, start + text.length, start + text.length);
  }
  function indent(pre, out) {
    const text = pre.textContent;
    const [start, end] = caret(pre);
    if (!out && !text.slice(start, end).includes("\n")) { insert(pre, "    "); return; }   // a caret, or within a line
    const first = text.lastIndexOf("\n", start - 1) + 1;
    const last = end > start && text[end - 1] === "\n" ? end - 1 : end;
    const lines = text.slice(first, last).split("\n");
    let s = start, e = end, pos = first;
    const moved = lines.map((l, k) => {
      const d = out ? -Math.min(4, l.match(/^ */)[0].length) : 4;
      if (k === 0) s = Math.max(first, s + d);
      e += d; pos += l.length + 1;
      return out ? l.slice(-d) : "    " + l;
    });
    pre.textContent = text.slice(0, first) + moved.join("\n") + text.slice(last);
    select(pre, start === end ? e : s, e);
  }

  function cellSource(cell) {
    const pre = cell.querySelector(".cell_input pre");
    return pre.innerText.replace(/\n$/, "");
  }
  // ---- a value's markdown (`_repr_markdown_`, IPython's Markdown) as a notebook shows it: the subset the notebooks
  // use (paragraphs, headings, lists, tables, fenced code; code spans, bold, emphasis, links), its text escaped first
  function esc(t) { return t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
  function inline(t) {
    const spans = [];
    t = t.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m, f, c) => { spans.push(`<code>${esc(c.trim())}</code>`); return `\u0000${spans.length - 1}\u0000`; });
    t = esc(t)
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
      .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?![*\w])/g, "$1<em>$2</em>")
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, a, h) => /^(https?:|#|[\w./-]+\.html)/.test(h) ? `<a href="${h}">${a}</a>` : m);
    return t.replace(/\u0000(\d+)\u0000/g, (m, k) => spans[+k]);
  }
  function cellsOfRow(l) {   // a table row's cells: split at each "|" outside code spans
    const t = l.trim().replace(/^\|/, "").replace(/\|$/, ""), cells = [];
    let cur = "", tick = 0;
    for (let k = 0; k < t.length; k++) {
      if (t[k] === "`") { let n = 0; while (t[k + n] === "`") n++; tick = tick === 0 ? n : tick === n ? 0 : tick; cur += t.slice(k, k + n); k += n - 1; }
      else if (t[k] === "|" && !tick && t[k - 1] !== "\\") { cells.push(cur.trim()); cur = ""; }
      else cur += t[k];
    }
    return [...cells, cur.trim()];
  }
  function markdown(src) {
    const lines = src.replace(/\r\n?/g, "\n").split("\n"), out = [];
    for (let k = 0; k < lines.length;) {
      const l = lines[k];
      if (/^```/.test(l)) {
        const body = []; k++;
        while (k < lines.length && !/^```/.test(lines[k])) body.push(lines[k++]);
        k++; out.push(`<pre>${esc(body.join("\n"))}</pre>`);
      } else if (/^\s*\|/.test(l) && k + 1 < lines.length && /^\s*\|?\s*:?-+/.test(lines[k + 1])) {
        const head = cellsOfRow(l); k += 2; const rows = [];
        while (k < lines.length && /^\s*\|/.test(lines[k])) rows.push(cellsOfRow(lines[k++]));
        out.push(`<table class="u1630-md-table"><thead><tr>${head.map(c => `<th>${inline(c)}</th>`).join("")}</tr></thead><tbody>` +
                 rows.map(r => `<tr>${r.map(c => `<td>${inline(c)}</td>`).join("")}</tr>`).join("") + "</tbody></table>");
      } else if (/^#{1,6}\s/.test(l)) {
        const n = l.match(/^#+/)[0].length; out.push(`<h${n + 2 > 6 ? 6 : n + 2}>${inline(l.replace(/^#+\s*/, ""))}</h${n + 2 > 6 ? 6 : n + 2}>`); k++;
      } else if (/^\s*[-*]\s/.test(l)) {
        const items = [];
        while (k < lines.length && /^\s*[-*]\s/.test(lines[k])) items.push(lines[k++].replace(/^\s*[-*]\s/, ""));
        out.push(`<ul>${items.map(i => `<li>${inline(i)}</li>`).join("")}</ul>`);
      } else if (!l.trim()) k++;
      else {
        const para = [];
        while (k < lines.length && lines[k].trim() && !/^(```|#{1,6}\s|\s*[-*]\s|\s*\|)/.test(lines[k])) para.push(lines[k++]);
        if (!para.length) para.push(lines[k++]);
        out.push(`<p>${inline(para.join("\n"))}</p>`);
      }
    }
    return out.join("\n");
  }
  function shown(out, s) {
    if (s.html) { const d = document.createElement("div"); d.innerHTML = s.html; out.appendChild(d); }
    else if (s.markdown !== undefined) { const d = document.createElement("div"); d.className = "u1630-md"; d.innerHTML = markdown(s.markdown); out.appendChild(d); }
    else if (s.text !== undefined) { const p = document.createElement("pre"); p.textContent = s.text; out.appendChild(p); }
  }
  function showOutput(cell, res) {
    let out = cell.querySelector(".u1630-run-out");
    if (!out) {
      out = document.createElement("div");
      out.className = "u1630-run-out";
      out.setAttribute("aria-live", "polite");
      cell.appendChild(out);
    }
    const old = cell.querySelector(".cell_output");
    if (old) old.hidden = true;
    out.innerHTML = "";
    if (res.stdout) { const p = document.createElement("pre"); p.textContent = res.stdout; out.appendChild(p); }
    for (const s of res.shown || []) shown(out, s);
    shown(out, res);
    if (res.error) { const p = document.createElement("pre"); p.className = "u1630-run-error"; p.textContent = res.error; out.appendChild(p); }
    if (!out.childNodes.length) { const p = document.createElement("p"); p.className = "u1630-run-empty"; p.textContent = "(ran, no output)"; out.appendChild(p); }
    cell.dataset.runs = String((+cell.dataset.runs || 0) + 1);
  }
  async function run(cell, cells) {
    // `cells`: the page's Run cells and the code it runs unseen (script.u1630-hidden: a notebook's hidden cells), in
    // page order; the ones above `cell` not yet run run first, once
    const py = await start();
    const exec = py.globals.get("_u1630_run");
    const unseen = [];
    for (const c of cells) {
      if (c === cell) break;
      if (c.dataset.runs) continue;
      if (c.tagName === "SCRIPT") {
        const res = JSON.parse(exec(c.textContent)); c.dataset.runs = "1";
        if (res.error) unseen.push(res.error);
      } else showOutput(c, JSON.parse(exec(cellSource(c))));
    }
    const res = JSON.parse(exec(cellSource(cell)));
    if (unseen.length) res.error = "A cell this page runs unseen (the notebook's setup) raised:\n" + unseen.join("\n") +
                                   (res.error ? "\n" + res.error : "");
    showOutput(cell, res);
  }
  // ---- a reader's edits are kept in this browser (localStorage), per page and cell: a reload, the next page and
  // back, or the browser closed and opened again show them; "Undo my edits" brings the page's own code back.
  // The key holds a digest of the cell's own code, so a page rebuilt with other code there shows its own.
  function digest(text) { let h = 5381; for (let k = 0; k < text.length; k++) h = (h * 33 + text.charCodeAt(k)) >>> 0; return h.toString(36); }
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set(k, v) { try { if (v === null) localStorage.removeItem(k); else localStorage.setItem(k, v); } catch (e) { /* full, or off */ } },
  };
  function keep(cell, pre, index, bar) {
    const own = pre.innerText, ownHTML = pre.innerHTML;
    const key = `u1630-edit:${location.pathname}:${index}:${digest(own)}`;
    const note = document.createElement("span");
    note.className = "u1630-edited"; note.hidden = true;
    note.append("Your edit, kept in this browser · ");
    const undo = document.createElement("button");
    undo.type = "button"; undo.className = "u1630-undo"; undo.textContent = "Undo my edits";
    note.appendChild(undo);
    bar.appendChild(note);
    const mark = edited => { note.hidden = !edited; if (edited) cell.dataset.edited = "1"; else delete cell.dataset.edited; };
    const save = () => { const t = pre.innerText; const edited = t !== own; store.set(key, edited ? t : null); mark(edited); };
    undo.addEventListener("click", () => { pre.innerHTML = ownHTML; store.set(key, null); mark(false); pre.focus(); });
    const saved = store.get(key);
    if (saved !== null && saved !== own) { pre.textContent = saved; mark(true); }
    return save;
  }
  function cellsOf(page) {
    const cells = [...page.querySelectorAll("div.cell.tag_u1630-run")];
    const order = [...page.querySelectorAll("div.cell.tag_u1630-run, script.u1630-hidden")];
    for (const [index, cell] of cells.entries()) {
      const pre = cell.querySelector(".cell_input pre");
      if (!pre) continue;
      pre.contentEditable = "plaintext-only";
      pre.spellcheck = false;
      pre.setAttribute("aria-label", "Python code (editable)");
      const bar = document.createElement("div");
      bar.className = "u1630-run-bar";
      const b = document.createElement("button");
      b.type = "button"; b.className = "u1630-run"; b.textContent = "Run";
      b.addEventListener("click", async () => {
        b.disabled = true; b.textContent = "Running…";
        try { await run(cell, order); } finally { b.disabled = false; b.textContent = "Run"; }
      });
      b.title = "Run this cell in your browser (Shift+Enter or Ctrl+Enter in the cell; the cells above it run first, once)";
      pre.addEventListener("keydown", e => {
        // every key typed in a cell is the cell's: the theme's shortcuts ("/" focuses the search box, arrows
        // turn pages) listen on the document and skip inputs and text areas, not an editable <pre>
        e.stopPropagation();
        if (e.key === "Enter" && (e.shiftKey || e.ctrlKey || e.metaKey)) { e.preventDefault(); b.click(); }
        else if (e.key === "Tab" && !e.altKey && !e.ctrlKey && !e.metaKey) { e.preventDefault(); indent(pre, e.shiftKey); save(); }
        else if (e.key === "Escape") { e.preventDefault(); b.focus(); }   // leave the cell: Tab moves on from Run
        else if (e.key === "Enter" && !e.altKey) { e.preventDefault(); insert(pre, "\n"); save(); }   // a "\n", not a <br>
      });
      pre.addEventListener("paste", e => {   // pasted code as plain text, its line breaks "\n"
        e.preventDefault(); insert(pre, (e.clipboardData || window.clipboardData).getData("text/plain").replace(/\r\n?/g, "\n"));
        save();
      });
      pre.addEventListener("input", () => save());
      const hint = document.createElement("span");
      hint.className = "u1630-keys";
      hint.innerHTML = "<kbd>Shift</kbd>+<kbd>Enter</kbd> or <kbd>Ctrl</kbd>+<kbd>Enter</kbd> runs · " +
                       "<kbd>Tab</kbd>/<kbd>Shift</kbd>+<kbd>Tab</kbd> indent · <kbd>Esc</kbd> leaves the cell";
      bar.appendChild(b);
      bar.appendChild(hint);
      cell.querySelector(".cell_input").after(bar);
      const save = keep(cell, pre, index, bar);
    }
    for (const cell of page.querySelectorAll("div.cell[class*='tag_u1630-static']")) {
      const why = [...cell.classList].find(c => c.startsWith("tag_u1630-static-"));
      const note = document.createElement("p");
      note.className = "u1630-static-note";
      note.textContent = STATIC_WHY[why ? why.slice("tag_u1630-static-".length) : ""] || STATIC_WHY[""];
      cell.querySelector(".cell_input")?.after(note);
    }
  }
  const STATIC_WHY = {
    "network": "Static here: this cell needs the network (servers, sockets), which a page cannot open.",
    "subprocess": "Static here: this cell starts a process (the command line), which a page cannot do.",
    "dask": "Static here: this cell needs dask, which this page does not load.",
    "timing": "Static here: timings measured by the build; a browser's would not be comparable.",
    "files": "Static here: this cell reads the repository's files, which the page does not carry.",
    "above": "Static here: this cell uses what a cell above that stays static defines.",
    "calls": "Static here: this cell calls a function defined above whose body needs what a page lacks (a process, the network, files).",
    "widgets": "Static here: this cell builds ipywidgets, which run in JupyterLab (\u201cOpen as a notebook\u201d); the page's explorer is their live form.",
    "skip": "Static here: the notebook's tests do not run this cell (slow, or not a test).",
    "threads": "Static here: this cell starts threads, which a browser's Python cannot.",
    "": "Static here.",
  };

  document.addEventListener("DOMContentLoaded", () => {
    const explorers = document.querySelectorAll(".u1630-explorer");
    cellsOf(document);
    if (explorers.length) { explorers.forEach(explorer); }
    else status("Code cells run in your browser: press Run (Python loads on first use).", "idle");
  });
})();
