"""Keep the maths macros of the notebooks in step with ``_config.yml``.

The web site gets its macros (``\\bx``, ``\\T``, ``\\E``, …) from ``_config.yml``; JupyterLab does
not read that file. So every chapter notebook starts with a markdown cell tagged ``remove-cell``
(never shown on the site) that gives the same macros as YAML front matter, ``math:``, which is
where jupyterlab-myst (the notebooks' Markdown renderer in JupyterLab and on Binder, with KaTeX)
reads a notebook's macros. KaTeX does not keep a ``\\newcommand`` beyond the one formula, and
refuses to redefine its own ``\\bm``: a ``$$\\newcommand…$$`` cell, which plain JupyterLab's
MathJax honours, leaves every macro undefined there. This module generates the cell from
``_config.yml``; ``tests/test_book.py`` checks that every notebook has it.

Usage::

    python tools/notebook_macros.py book/*.ipynb   # insert or refresh the cell
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- maths macros from _config.yml"
# the marker of the cell as this tool wrote it before (MathJax \newcommand lines): sync replaces it
OLD_MARKERS = ("<!-- mathjax macros from _config.yml",)


def macros(config: Path = ROOT / "_config.yml") -> dict:
    cfg = yaml.safe_load(config.read_text())
    return cfg["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]


def macro_cell_source(config: Path = ROOT / "_config.yml") -> str:
    """YAML front matter ``math:`` with every macro (single-quoted: TeX as it is), then the
    marker comment. KaTeX infers a macro's arguments from its ``#1``, ``#2``."""
    lines = ["---", "math:"]
    for name, body in macros(config).items():
        if isinstance(body, list):
            body = body[0]
        lines.append(f"  '\\{name}': '{body}'")
    lines += ["---", f"{MARKER}; regenerate with: python tools/notebook_macros.py -->"]
    return "\n".join(lines)


def macro_cell() -> dict:
    return {
        "cell_type": "markdown",
        "id": "mathjax-macros",
        "metadata": {"tags": ["remove-cell"]},
        "source": macro_cell_source(),
    }


def _first_cell_source(nb: dict) -> str | None:
    cells = nb.get("cells", [])
    if not cells:
        return None
    src = cells[0].get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _without_comments(src: str) -> list[str]:
    return [line for line in src.splitlines() if not line.startswith("<!--")]


def has_current_macros(nb: dict) -> bool:
    """The first cell is the macro cell, tagged remove-cell, with the current definitions.

    Its comment line (the marker and how to regenerate the cell) may differ: only the marker is
    required there, so a cell written when this tool lived elsewhere still counts as current.
    """
    src = _first_cell_source(nb)
    if src is None:
        return False
    return (
        MARKER in src
        and _without_comments(src) == _without_comments(macro_cell_source())
        and "remove-cell" in nb["cells"][0]["metadata"].get("tags", [])
    )


def sync(path: Path) -> bool:
    """Insert or refresh the macro cell of the notebook at `path`; True if it changed."""
    nb = json.loads(path.read_text())
    if _first_cell_source(nb) == macro_cell_source() and has_current_macros(nb):
        return False
    cells = nb["cells"]
    first = "".join(cells[0].get("source", "")) if cells else ""
    if any(marker in first for marker in (MARKER, *OLD_MARKERS)):
        cells[0] = macro_cell()
    else:
        cells.insert(0, macro_cell())
    # the repository's format, as tools/run_notebook.py writes it
    path.write_text(json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n")
    return True


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        if sync(Path(arg)):
            print(f"updated {arg}")
