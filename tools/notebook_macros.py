"""Keep the MathJax macros of the notebooks in step with ``_config.yml``.

The web site gets its macros (``\\bx``, ``\\T``, ``\\E``, …) from ``_config.yml``; JupyterLab does
not read that file. So every chapter notebook starts with a markdown cell tagged ``remove-cell``
(hidden on the site) that defines the same macros with ``\\newcommand``. This module generates
that cell from ``_config.yml``; ``tests/test_book.py`` checks that every notebook has it.

Usage::

    python tools/notebook_macros.py book/*.ipynb   # insert or refresh the cell
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- mathjax macros from _config.yml"


def macros(config: Path = ROOT / "_config.yml") -> dict:
    cfg = yaml.safe_load(config.read_text())
    return cfg["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]


def macro_cell_source(config: Path = ROOT / "_config.yml") -> str:
    lines = [f"{MARKER}; regenerate with: python tools/notebook_macros.py -->", "$$"]
    for name, body in macros(config).items():
        if isinstance(body, list):
            body, nargs = body
            lines.append(f"\\newcommand{{\\{name}}}[{nargs}]{{{body}}}")
        else:
            lines.append(f"\\newcommand{{\\{name}}}{{{body}}}")
    lines.append("$$")
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


def has_current_macros(nb: dict) -> bool:
    """The first cell is the macro cell, tagged remove-cell, with the current definitions.

    Its first line is a comment (the marker and how to regenerate the cell): only the marker is
    required there, so a cell written when this tool lived elsewhere still counts as current.
    """
    src = _first_cell_source(nb)
    if src is None:
        return False
    first, _, body = src.partition("\n")
    current_body = macro_cell_source().partition("\n")[2]
    return (
        first.startswith(MARKER)
        and body == current_body
        and "remove-cell" in nb["cells"][0]["metadata"].get("tags", [])
    )


def sync(path: Path) -> bool:
    """Insert or refresh the macro cell of the notebook at `path`; True if it changed."""
    nb = json.loads(path.read_text())
    if _first_cell_source(nb) == macro_cell_source() and has_current_macros(nb):
        return False
    cells = nb["cells"]
    if cells and MARKER in "".join(cells[0].get("source", "")):
        cells[0] = macro_cell()
    else:
        cells.insert(0, macro_cell())
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return True


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        if sync(Path(arg)):
            print(f"updated {arg}")
