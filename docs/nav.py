"""The site's navigation, declared once: the parts of the edition and their notebooks, in reading order.

The front page (`index`) is the root of the site and holds these parts as captioned tables of contents.
`docs/build.py` fails when a notebook of `nbs/` is in no part, or a name here is neither a notebook nor
listed in `PENDING` (notebooks announced but not yet written: left out until they exist).

A scheme's notebook (one whose first cell is `#| default_exp schemes.<name>`) that is named in no part is
placed by a rule, not by a line here: in the part `SCHEMES_PART`, in the order of its number (a scheme from
neither RFC, added by its notebook alone; see "Adding a scheme" in nbs/index.ipynb).
"""
from pathlib import Path

FRONT = "index"

NAV = (
    ("RFC 1630", (                       # the memo in its own order, heading by heading
        "00a_front_matter",
        "01_introduction", "02_design_criteria", "03_uri_syntax", "04_reserved_characters", "05_unsafe_characters",
        "06_encoding", "07_partial_form", "08_fragment_id", "09_specific_schemes", "10_http", "11_ftp", "12_gopher",
        "13_mailto", "14_news", "15_telnet", "16_urn", "17_wais", "18_file", "19_message_id", "20_further_study",
        "21_prospero", "22_registration", "23_bnf_generic", "24_bnf_url",
        "26_references", "27_security_considerations", "28_authors_address", "29_page_index",
    )),
    ("What RFC 1738 adds", (             # RFC 1738's sections that RFC 1630 has no heading for
        "31_urls_in_context",            # RFC 1738, APPENDIX: Recommendations for URLs in Context
        "37_rfc1738_not_quoted",
    )),
    ("The apparatus", (                  # what the edition builds around the text
        "00_errors", "00b_testing",
        "06a_encoding_explorer", "07a_resolution_explorer", "09a_scheme_records", "24a_parse_explorer", "24b_render",
        "30_cli", "32a_transport", "32_retrieval", "25_security", "33_then_and_now", "34_performance", "35_scale", "36_architecture",
    )),
)

PENDING: set = set()   # every announced notebook is written
SCHEMES_PART = "Schemes from neither RFC"   # the scheme notebooks no part names, by the rule above


def is_scheme(path: Path) -> bool:
    "Whether the notebook at `path` exports a scheme slice (`#| default_exp schemes.<name>` in its first code cell)"
    import json
    try: cells = json.loads(Path(path).read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError): return False
    first = next((c for c in cells if c.get("cell_type") == "code"), None)
    src = "".join(first.get("source", "")) if first else ""
    return any(line.strip().startswith("#| default_exp schemes.") for line in src.splitlines())

# pages docs/build.py writes itself (no notebook), after the parts: the RFCs page by page (`build.rfc_pages`)
GENERATED = (
    ("The RFCs", ("rfc1630", "rfc1738")),
)


def notebooks(nbs: Path) -> list:
    "The notebooks of `nbs` as nbdev sees them (names starting with `_` or `.` are skipped), by stem"
    return sorted(p.stem for p in Path(nbs).glob("*.ipynb") if not p.name.startswith(("_", ".")))


def parts(nbs: Path) -> list:
    "[(caption, [stem, ...]), ...]: NAV restricted to the notebooks that exist; raises ValueError if `nbs` and NAV disagree"
    have = set(notebooks(nbs))
    listed = [n for _, names in NAV for n in names]
    schemes = sorted(n for n in have - set(listed) - {FRONT} if is_scheme(Path(nbs) / f"{n}.ipynb"))
    nav = NAV + (((SCHEMES_PART, tuple(schemes)),) if schemes else ())
    listed += schemes
    dup = sorted({n for n in listed if listed.count(n) > 1})
    missing = sorted(have - set(listed) - {FRONT})
    unknown = sorted(set(listed) - have - PENDING)
    problems = ([f"in no part of the navigation (add them to docs/nav.py): {missing}"] if missing else []) + \
               ([f"named in docs/nav.py but not in nbs/: {unknown}"] if unknown else []) + \
               ([f"listed twice in docs/nav.py: {dup}"] if dup else []) + \
               ([f"no front page: nbs/{FRONT}.ipynb"] if FRONT not in have else [])
    if problems: raise ValueError("; ".join(problems))
    return [(caption, [n for n in names if n in have]) for caption, names in nav]


def order(nbs: Path) -> list:
    "Every notebook in reading order: the front page, then each part's"
    return [FRONT] + [n for _, names in parts(nbs) for n in names]


if __name__ == "__main__":   # python docs/nav.py: the navigation as the site will show it (fails as parts() does)
    import sys
    root = Path(__file__).resolve().parent.parent / "nbs"
    try: got = parts(root)
    except ValueError as e: sys.exit(f"docs/nav.py: {e}")
    for caption, names in got: print(f"{caption}: {' '.join(names)}")
