// The site for every reader (#27): furo's drawers opened and closed from the keyboard, wide tables that use the
// window, and search excerpts that lead with prose. Checked by docs/a11y_check.py.
(function () {
  "use strict";

  // ---------------------------------------------------------------- drawers
  // furo opens its navigation and contents drawers with <label for=checkbox>, and the checkbox is not displayed:
  // neither can be reached by Tab. The labels become buttons (Enter or Space toggles), Escape closes an open drawer.
  const DRAWERS = [["navigation", "__navigation", ".nav-overlay-icon", ".sidebar-drawer", "Navigation"],
                   ["contents", "__toc", ".toc-overlay-icon", ".toc-drawer", "Contents of this page"]];
  function drawers() {
    for (const [name, id, labels, drawer, what] of DRAWERS) {
      const box = document.getElementById(id);
      if (!box) continue;
      const toggles = [...document.querySelectorAll(labels)];
      const sync = () => toggles.forEach(t => t.setAttribute("aria-expanded", String(box.checked)));
      for (const t of toggles) {
        t.tabIndex = 0;
        t.setAttribute("role", "button");
        t.setAttribute("aria-label", what);
        t.dataset.u1630Toggle = name;
        t.addEventListener("keydown", e => {
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault();
          box.checked = !box.checked; sync();
          if (box.checked) {   // into the drawer, once it is visible
            const first = document.querySelector(`${drawer} a[href], ${drawer} input`);
            if (first) setTimeout(() => first.focus(), 50);
          }
        });
      }
      box.addEventListener("change", sync);
      sync();
      document.addEventListener("keydown", e => {
        if (e.key !== "Escape" || !box.checked) return;
        box.checked = false; sync();
        const back = toggles.find(t => t.getClientRects().length);
        if (back) back.focus();
      });
    }
  }

  // ---------------------------------------------------------------- wide tables
  // A table wider than the text column grows to the right, into the window's free width (over the contents
  // column, when it is shown); where there is no room it scrolls inside its own box, never the page.
  // In a table's prose, a word stays whole (uri1630.css); a long token that is no word (an identifier, a call with a
  // URL in it: 17 characters or more) may break anywhere, as code does, so it never holds a column wider than the window
  function longTokens(article) {
    for (const cell of article.querySelectorAll("td, th")) {
      const w = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), nodes = [];
      for (let n = w.nextNode(); n; n = w.nextNode())
        if (/\S{17,}/.test(n.data) && !n.parentElement.closest("code, pre, .u1630-long")) nodes.push(n);
      for (const n of nodes) {
        const frag = document.createDocumentFragment();
        for (const part of n.data.split(/(\S{17,})/)) {
          if (!part) continue;
          if (/^\S{17,}$/.test(part)) { const s = document.createElement("span"); s.className = "u1630-long"; s.textContent = part; frag.appendChild(s); }
          else frag.appendChild(document.createTextNode(part));
        }
        n.replaceWith(frag);
      }
    }
  }
  // code in a table may break anywhere (its column stays narrow); it breaks first after a '_', '.', '/' or '-'
  // (`00a_front_|matter`, `uri1630.|schemes.|gopher`), where a reader expects a name to continue
  function codeBreaks(article) {
    for (const code of article.querySelectorAll("td code, th code")) {
      if (code.closest(".u1630-wide-wrap")) continue;   // a wide table sizes its columns with its code whole
      const w = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), nodes = [];
      for (let n = w.nextNode(); n; n = w.nextNode()) if (n.data.length >= 12 && /[_./-]./.test(n.data)) nodes.push(n);
      for (const n of nodes) {
        const frag = document.createDocumentFragment();
        n.data.split(/(?<=[_./-])/).forEach((p, i) => { if (i) frag.appendChild(document.createElement("wbr")); frag.appendChild(document.createTextNode(p)); });
        n.replaceWith(frag);
      }
    }
  }
  function wideTables() {
    const article = document.querySelector("article[role=main]");
    if (!article) return;
    longTokens(article);
    const wraps = [];
    for (const t of article.querySelectorAll("table")) {
      if (t.closest(".u1630-explorer, .u1630-wide-wrap")) continue;
      // uri1630.css's "wide tables" (`tr > :nth-child(7)`): 7 columns or more in a row (not the head's and the
      // body's first rows added up: a table of 4 columns is no wide table)
      if (![...t.rows].some(r => r.cells.length >= 7)) continue;
      const w = document.createElement("div");
      w.className = "u1630-wide-wrap";
      t.before(w); w.appendChild(t);
      wraps.push(w);
    }
    codeBreaks(article);   // after the wide tables are wrapped: theirs keep their own rule
    if (!wraps.length) return;
    function fit() {
      // to the window's right edge: over the contents column where furo shows one (the table is opaque, above it)
      const limit = document.documentElement.clientWidth - 24;
      for (const w of wraps) {
        const t = w.firstElementChild;
        w.classList.remove("u1630-roomy", "u1630-tight", "u1630-wrapcode"); w.style.removeProperty("--u1630-room");
        for (let a = w.parentElement; a && a.tagName !== "ARTICLE"; a = a.parentElement) a.classList.remove("u1630-wide-host");
        const col = w.getBoundingClientRect();
        // the table's natural width: its width with the code on one line, no narrower than the column
        w.classList.add("u1630-roomy"); w.style.setProperty("--u1630-room", "max-content");
        const natural = t.getBoundingClientRect().width;
        const room = Math.floor(limit - col.left);
        if (natural <= col.width + 1 || room <= col.width + 32) {   // fits already, or no room to grow
          w.classList.remove("u1630-roomy"); w.style.removeProperty("--u1630-room"); continue;
        }
        w.style.setProperty("--u1630-room", Math.min(room, Math.ceil(natural)) + "px");
        for (let a = w.parentElement; a && a.tagName !== "ARTICLE"; a = a.parentElement)   // outputs clip sideways
          if (getComputedStyle(a).overflowX !== "visible") a.classList.add("u1630-wide-host");
        if (natural > room) {   // still too wide with its code on one line: let the code wrap, if the table fits then
          w.classList.add("u1630-wrapcode");
          if (t.getBoundingClientRect().width > room + 1) {   // not even so (the clients' tables, a column each)
            w.classList.remove("u1630-wrapcode"); w.classList.add("u1630-tight");   // the box scrolls sideways
          }
        }
      }
    }
    fit();
    let pending = null;
    window.addEventListener("resize", () => { clearTimeout(pending); pending = setTimeout(fit, 100); });
  }

  // ---------------------------------------------------------------- search excerpts
  // Sphinx shows, under each result, the text around the first match in the page: often an import line of a code
  // cell, and the banner's sentences run together (textContent of blocks). Excerpts are taken from the prose only.
  function searchExcerpts() {
    if (typeof Search === "undefined" || !Search.htmlToText) return;
    const DROP = ".headerlink, script, style, .cell_input, .u1630-banner, .u1630-static-note, .u1630-form, " +
                 ".u1630-live-status, .u1630-hidden, div.signature";
    const BLOCK = "p, li, td, th, h1, h2, h3, h4, h5, h6, pre, blockquote, dt, dd, div, tr, caption";
    Search.htmlToText = (htmlString, anchor) => {
      const doc = new DOMParser().parseFromString(htmlString, "text/html");
      doc.querySelectorAll(DROP).forEach(e => e.remove());
      doc.querySelectorAll(BLOCK).forEach(e => e.append(" "));   // blocks end with a space: no run-together text
      const main = (anchor && doc.querySelector(`[role="main"] ${anchor}`)) || doc.querySelector('[role="main"]');
      return main ? main.textContent.replace(/\s+/g, " ").trim() : "";
    };
  }

  // ---------------------------------------------------------------- small repairs of the theme's markup
  // furo's sidebar captions are role=heading without a level (WCAG 4.1.2); a box that scrolls sideways (a wide output,
  // a table too wide for a phone) must be reachable by keyboard to be scrolled (WCAG 2.1.1): it takes focus.
  function repairs() {
    document.querySelectorAll("[role=heading]:not([aria-level])").forEach(e => e.setAttribute("aria-level", "2"));
    const scrollers = () => {
      for (const e of document.querySelectorAll("article pre, .cell_output, .output, .u1630-explorer-out, .u1630-wide-wrap, .u1630-run-out")) {
        const scrolls = e.scrollWidth > e.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(e).overflowX);
        if (scrolls && !e.hasAttribute("tabindex") && !e.isContentEditable && !e.querySelector("a[href], button, input, select, textarea")) {
          e.tabIndex = 0; e.dataset.u1630Scroll = "";
          if (!e.hasAttribute("role")) { e.setAttribute("role", "region"); e.setAttribute("aria-label", "scrolls sideways"); }
        } else if (!scrolls && e.dataset.u1630Scroll !== undefined) {
          e.removeAttribute("tabindex"); e.removeAttribute("role"); e.removeAttribute("aria-label"); delete e.dataset.u1630Scroll;
        }
      }
    };
    scrollers();
    let pending = null;
    window.addEventListener("resize", () => { clearTimeout(pending); pending = setTimeout(scrollers, 150); });
    new MutationObserver(() => { clearTimeout(pending); pending = setTimeout(scrollers, 150); })
      .observe(document.querySelector("article") || document.body, {childList: true, subtree: true});
  }

  searchExcerpts();   // before Search.init runs (on DOMContentLoaded): this script is deferred, searchtools.js is not
  document.addEventListener("DOMContentLoaded", () => { drawers(); wideTables(); repairs(); });
})();
