"""Execute chapter notebooks in place, as CONTRIBUTING's "restart, Run All, save" does.

    python tools/run_notebook.py book/rvm_regression.ipynb [more notebooks]
    python tools/run_notebook.py --fold-only book/*.ipynb   # only the folds, no execution

Runs every cell top to bottom in a fresh kernel from the notebook's own folder (so the execution
counts are 1, 2, 3, …) and saves the outputs in the repository's format: nbformat's JSON, with the
maths-macro cell kept as one string, as ``tools/notebook_macros.py`` writes it. Stops with the
name of the first notebook whose cell raises; that notebook is left unchanged.

It also folds in JupyterLab what the site folds (:func:`sync_folding`): a cell tagged
``hide-input`` or ``hide-cell`` opens with its code collapsed, one tagged ``hide-output`` or
``hide-cell`` with its output collapsed (``jupyter.source_hidden``/``outputs_hidden``).
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


FOLD_SOURCE = {"hide-input", "hide-cell"}
FOLD_OUTPUT = {"hide-output", "hide-cell"}


def sync_folding(cell, in_solution: bool = False) -> None:
    """Collapse in JupyterLab what the site's toggles fold, from the cell's tags; a code cell
    inside a ``solution-start``/``solution-end`` pair (`in_solution`) opens collapsed too,
    code and output (on the site the whole solution sits in a closed dropdown)."""
    tags = set(cell.get("metadata", {}).get("tags", []))
    if in_solution and cell.get("cell_type") == "code":
        tags.add("hide-cell")
    jupyter = cell.setdefault("metadata", {}).setdefault("jupyter", {})
    for key, fold in (("source_hidden", FOLD_SOURCE), ("outputs_hidden", FOLD_OUTPUT)):
        if cell.get("cell_type") != "code" and key == "outputs_hidden":
            continue
        if tags & fold:
            jupyter[key] = True
        else:
            jupyter.pop(key, None)
    if not jupyter:
        del cell["metadata"]["jupyter"]


def sync_notebook_folding(nb) -> None:
    """:func:`sync_folding` on every cell, solutions' code cells collapsed."""
    in_solution = False
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            # the last marker in the cell decides: a cell often ends one solution, states
            # the next exercise and starts its solution
            text = "".join(cell["source"])
            start, end = text.rfind("{solution-start}"), text.rfind("{solution-end}")
            if max(start, end) >= 0:
                in_solution = start > end
        sync_folding(cell, in_solution)


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
    sync_notebook_folding(nb)
    out = json.loads(nbformat.writes(nb))
    first = out["cells"][0]
    if MARKER in "".join(first["source"]):
        first["source"] = "".join(first["source"])
    path.write_text(
        json.dumps(out, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    )


def fold_only(path: Path) -> bool:
    """Sync the folds of the notebook at `path` without running it; True if they changed."""
    text = path.read_text()
    nb = json.loads(text)
    sync_notebook_folding(nb)
    new = json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    if new != text:
        path.write_text(new)
    return new != text


def main(paths: list[str]) -> int:
    if paths[:1] == ["--fold-only"]:
        for name in paths[1:]:
            if fold_only(Path(name)):
                print(f"{name}: folds synced")
        return 0
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
