"""Where the URL corpus is — the one place that knows (the tests import it; so does `bench/run.py`).

`$URI1630_CORPUS` if set, else `../shared/corpus` next to the project root; where neither holds the corpus files,
the small vendored sample `tests/data/corpus_sample.txt` (provenance in `tests/data/PROVENANCE.md`)."""
from __future__ import annotations
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "data" / "corpus_sample.txt"
WEB, FILES = ("kasztp.txt", "userbait.txt"), ("node_files.txt", "isaacs_files.txt")


def corpus_dir() -> Path | None:
    "The directory of the full corpus: `$URI1630_CORPUS`, else `../shared/corpus` from the project root; None if absent"
    env = os.environ.get("URI1630_CORPUS")
    d = Path(env) if env else HERE.parent.parent / "shared" / "corpus"
    return d if any((d / n).is_file() for n in WEB + FILES) else None


def corpus_files(names: tuple[str, ...] = WEB + FILES) -> list[Path]:
    "The corpus files called `names` that exist, or `[SAMPLE]` when the full corpus is absent"
    d = corpus_dir()
    found = [d / n for n in names if (d / n).is_file()] if d else []
    return found or [SAMPLE]


def corpus_lines(names: tuple[str, ...] = WEB + FILES) -> list[str]:
    "The non-empty lines of `corpus_files(names)`, stripped (a leading BOM removed)"
    return [l.strip() for p in corpus_files(names) for l in p.read_text(encoding="utf-8-sig").splitlines() if l.strip()]


def is_full() -> bool:
    "True when the full corpus (not the vendored sample) is at hand"
    return corpus_dir() is not None
