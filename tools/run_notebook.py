"""Execute chapter notebooks in place, as CONTRIBUTING's "restart, Run All, save" does.

    python tools/run_notebook.py book/rvm_regression.ipynb [more notebooks]

Runs every cell top to bottom in a fresh kernel from the notebook's own folder (so the execution
counts are 1, 2, 3, …) and saves the outputs in the repository's format: nbformat's JSON, with the
MathJax macro cell kept as one string, as ``tools/notebook_macros.py`` writes it. Stops with the
name of the first notebook whose cell raises; that notebook is left unchanged.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebook_macros import MARKER  # noqa: E402


def coalesce_streams(cell) -> None:
    """Join consecutive outputs of one stream into one, as Jupyter's own save does."""
    merged = []
    for out in cell.get("outputs", []):
        if (
            merged
            and out.output_type == "stream" == merged[-1].output_type
            and out.name == merged[-1].name
        ):
            merged[-1].text += out.text
        else:
            merged.append(out)
    cell.outputs = merged


def run(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    for cell in nb.cells:
        if cell.cell_type == "code":
            coalesce_streams(cell)
    out = json.loads(nbformat.writes(nb))
    first = out["cells"][0]
    if MARKER in "".join(first["source"]):
        first["source"] = "".join(first["source"])
    path.write_text(
        json.dumps(out, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    )


def main(paths: list[str]) -> int:
    for name in paths:
        try:
            run(Path(name))
        except CellExecutionError as err:
            print(
                f"{name}: a cell raised; the notebook is unchanged.\n{err}",
                file=sys.stderr,
            )
            return 1
        print(f"{name}: executed and saved")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
