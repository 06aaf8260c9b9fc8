"""The `show_doc` renderer of the read-along site (docs/build.py sets nbdev's `renderer` to it in its scratch copy).

nbdev's own markdown renderer writes every signature as `def name(` (classes too), with the docments as
`#` comments inside a code block, where their markdown (backticks) shows raw, and links its source to a
repository that does not exist. This one writes `class Name(...)` or `def name(...)`, the docstring, and a
table of the parameters whose descriptions are rendered as markdown; the heading carries the anchor nbdev's
doc links use (`page.html#name`).
"""
import html, inspect
from fastcore.docments import ShowDocRenderer, docments, _show_param


class Renderer(ShowDocRenderer):
    def _repr_markdown_(self):
        sym, nm = self.sym, self.nm
        kind = "class" if inspect.isclass(sym) else "def"
        anchor = nm.lower()
        head = f'<h3 class="u1630-symbol" id="{html.escape(anchor)}"><code>{html.escape(nm)}</code></h3>\n\n'
        params, ret, descs = [], "", {}
        if self.sig is not None:
            try: descs = docments(sym, full=True)
            except Exception: descs = {}
            params = [p for n, p in self.sig.parameters.items() if not (kind == "class" and n == "self")]
            if self.sig.return_annotation is not inspect._empty and kind == "def":
                ret = " -> " + inspect.formatannotation(self.sig.return_annotation).strip("'")
        ps = ", ".join(_show_param(p) for p in params)
        sig = f"{kind} {nm.split('.')[-1] if kind == 'class' else nm}({ps}){ret}"
        if len(sig) > 88 and params:
            sig = f"{kind} {nm.split('.')[-1] if kind == 'class' else nm}(\n" + "".join(f"    {_show_param(p)},\n" for p in params) + f"){ret}"
        doc = head + f'<div class="signature">\n\n```python\n{sig}\n```\n\n</div>\n\n'
        if self.docs: doc += f"*{self.docs.splitlines()[0]}*" + ("\n" + "\n".join(self.docs.splitlines()[1:]) if "\n" in self.docs else "") + "\n\n"
        rows = []
        for p in params:
            d = descs.get(p.name) or {}
            text = (d.get("docment") if isinstance(d, dict) else None) or ""
            if not text: continue
            anno = "" if p.annotation is inspect._empty else inspect.formatannotation(p.annotation).strip("'")
            default = "" if p.default is inspect._empty else repr(p.default)
            cell = lambda s: s.replace("|", "\\|").replace("\n", " ")
            rows.append(f"| `{p.name}` | {('`' + cell(anno) + '`') if anno else ''} | {('`' + cell(default) + '`') if default else ''} | {cell(text)} |")
        if rows:
            doc += "| Parameter | Type | Default | Details |\n|---|---|---|---|\n" + "\n".join(rows) + "\n"
        return doc
