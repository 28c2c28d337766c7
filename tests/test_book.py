"""The book's structure: the table of contents, the notebooks and the configuration agree."""

import functools
import http.server
import json
import re
import shutil
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))  # the Sphinx extensions
sys.path.insert(0, str(ROOT / "tools"))  # notebook_macros, a command-line tool
import notebook_macros  # noqa: E402
import thumbnails  # noqa: E402
from run_notebook import sync_notebook_folding  # noqa: E402


def toc_files():
    """Every page _toc.yml names, at any depth (a ``glob`` entry names none)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())

    def walk(entries):
        for entry in entries:
            if "file" in entry:
                yield entry["file"]
            yield from walk(entry.get("sections", []))

    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += list(walk(part["chapters"]))
    return files


def resolve(entry):
    for ext in (".ipynb", ".md"):
        if (ROOT / (entry + ext)).exists():
            return ROOT / (entry + ext)
    raise AssertionError(
        f"_toc.yml lists {entry!r} but neither {entry}.ipynb nor {entry}.md exists"
    )


NOTEBOOKS = sorted(p for p in (ROOT / "book").glob("*.ipynb"))
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())


def test_toc_and_book_folder_agree():
    listed = {resolve(e) for e in toc_files()}
    pages = set((ROOT / "book").glob("*.ipynb")) | set((ROOT / "book").glob("*.md"))
    assert pages - listed == set(), (
        f"pages not in _toc.yml: {sorted(p.name for p in pages - listed)}"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_executed_top_to_bottom(path):
    nb = json.loads(path.read_text())
    counts = [c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"]
    assert counts, f"{path.name} has no code cells"
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} — run it with 'Restart Kernel and Run All'"
        " and save"
    )
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    errors = [
        o
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if o["output_type"] == "error"
    ]
    assert not errors, f"{path.name} was saved with an error output"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_defines_the_shared_macros(path):
    nb = json.loads(path.read_text())
    assert notebook_macros.has_current_macros(nb), (
        f"{path.name}: first cell must define the _config.yml macros; run "
        f"python tools/notebook_macros.py {path.relative_to(ROOT)}"
    )


def test_macro_cell_check_and_sync(tmp_path):
    """The check wants the current definitions (the comment line only needs the marker); sync
    writes the whole current cell, comment included, and is then a no-op."""
    cell = {"cell_type": "markdown", "metadata": {"tags": ["remove-cell"]}}
    current = notebook_macros.macro_cell_source()
    stale_hint = current.replace(
        "tools/notebook_macros.py", "book/_ext/notebook_macros.py"
    )
    assert stale_hint != current
    nb = {"cells": [dict(cell, source=stale_hint)]}
    assert notebook_macros.has_current_macros(nb)
    nb["cells"][0]["source"] = current.replace("\\mathbf{x}", "\\mathbf{X}", 1)
    assert nb["cells"][0]["source"] != current
    assert not notebook_macros.has_current_macros(nb)
    path = tmp_path / "chapter.ipynb"
    path.write_text(json.dumps({"cells": [dict(cell, source=stale_hint)]}))
    assert notebook_macros.sync(path) is True
    assert json.loads(path.read_text())["cells"][0]["source"] == current
    assert notebook_macros.sync(path) is False


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_chapter_skeleton(path):
    nb = json.loads(path.read_text())
    text = "\n".join("".join(c["source"]) for c in nb["cells"])
    md = "\n".join(
        "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"
    )
    first = next(c for c in nb["cells"][1:] if c["cell_type"] == "markdown")
    assert "".join(first["source"]).startswith("# "), (
        f"{path.name}: must open with a '# Title' cell"
    )
    for heading in ("## Summary", "## Exercises"):
        assert heading in md, f"{path.name}: missing '{heading}' section"
    assert "{exercise}" in md and "{solution" in md, (
        f"{path.name}: needs exercises with solutions"
    )
    assert ":class: dropdown" in md, f"{path.name}: solutions should be dropdowns"
    first_code = "".join(
        next(c for c in nb["cells"] if c["cell_type"] == "code")["source"]
    )
    assert "threadpool_limits(1)" in first_code, (
        f"{path.name}: first code cell must cap BLAS threads"
    )
    assert "check_close" in text or "check_equal" in text or "assert " in text, (
        f"{path.name}: has no check cell"
    )


def test_config_launch_download_and_offline_math():
    repo = CONFIG["repository"]
    assert repo["branch"] == "main" and repo["url"].startswith("https://github.com/")
    buttons = CONFIG["launch_buttons"]
    assert buttons["binderhub_url"] and buttons["thebe"]
    # no placeholder hub: an instructor adds their own (README, "For instructors")
    assert "jupyterhub_url" not in buttons
    sphinx = CONFIG["sphinx"]
    assert sphinx["local_extensions"]["offline_mathjax"] == "book/_ext"
    assert sphinx["config"]["nb_execution_raise_on_error"] is True
    assert sphinx["config"]["nb_ipywidgets_js"] == {}
    assert sphinx["config"]["html_theme_options"]["use_download_button"] is True
    assert CONFIG["execute"]["execute_notebooks"] == "force"
    for bib in CONFIG["bibtex_bibfiles"]:
        assert (ROOT / bib).exists()
    assert not (ROOT / "_static").exists(), (
        "no _static/: Jupyter Book injects its .js into every page"
    )


def test_offline_mathjax_files_are_installed():
    import offline_mathjax

    assert (offline_mathjax.mathjax_dir() / "tex-chtml.js").exists()
    assert (offline_mathjax.mathjax_dir() / "output/chtml/fonts/woff-v2").is_dir()


def test_requirements_install_the_package_and_the_book():
    req = (ROOT / "requirements.txt").read_text().splitlines()
    lines = [r.split("#")[0].strip() for r in req if r.split("#")[0].strip()]
    assert "-e ." in lines
    assert "jupyter-book>=1.0.4,<2" in lines
    for pkg in (
        "numpy",
        "scipy",
        "matplotlib",
        "ipywidgets",
        "nbval",
        "pytest",
        "scikit-learn",
        "sphinx-exercise",
        "sphinx-mathjax-offline",
        "threadpoolctl",
    ):
        assert any(line.startswith(pkg + "==") for line in lines), f"{pkg} not pinned"


def test_config_execution_and_macros():
    """A change to these settings would otherwise go unnoticed (the build would still pass)."""
    execute = CONFIG["execute"]
    assert execute["allow_errors"] is False, "a raising cell must stop the notebook"
    assert 0 < execute["timeout"] <= 120, (
        "per-cell timeout in seconds (nbval allows 120 s)"
    )
    sphinx = CONFIG["sphinx"]
    assert sphinx["config"]["nb_execution_raise_on_error"] is True, "and fail the build"
    macros = sphinx["config"]["mathjax3_config"]["tex"]["macros"]
    for name in (
        "bx",
        "bw",
        "bPhi",
        "bSigma",
        "T",
        "E",
        "N",
        "argmax",
        "TP",
        "FP",
        "TN",
        "FN",
    ):
        assert name in macros, f"MathJax macro \\{name} missing from _config.yml"
    # without it every page declares the thebe/togglebutton settings twice (a JavaScript error)
    assert sphinx["local_extensions"]["inline_scripts_once"] == "book/_ext"


def test_inline_scripts_are_given_to_the_builder_once():
    import inline_scripts_once

    class Builder:
        def __init__(self):
            self.files = []

        def add_js_file(self, filename, **kwargs):
            if (filename, kwargs) not in self.files:  # Sphinx's duplicate check
                self.files.append((filename, kwargs))

    class App:
        builder = Builder()

    inline_scripts_once._normalise_inline_scripts(App)
    App.builder.add_js_file(
        None, body="const x = 1"
    )  # app.add_js_file after builder init
    App.builder.add_js_file(
        "", body="const x = 1"
    )  # the builder re-adding it before writing
    assert App.builder.files == [("", {"body": "const x = 1"})]


def _check_site_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "check_site", ROOT / ".ci" / "check_site.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_check_site_static_scan_finds_remote_resources(tmp_path):
    """The offline check's static half must see remote frames, preloads and CSS url()s."""
    cs = _check_site_module()
    (tmp_path / "book").mkdir()
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "ok.css").write_text("a { color: red }")
    (tmp_path / "book" / "page.html").write_text(  # each link is judged by its own tag
        '<link rel="next" href="https://example.org/next.html">'  # navigation: fine
        '<link rel="stylesheet" href="../_static/ok.css">'
        '<link rel="prev" href="https://example.org/prev.html">'  # navigation: fine
        '<script src="../_static/missing.js"></script>'
        '<link rel="stylesheet" href="https://cdn.example.org/theme.css">'
        '<iframe src="https://example.org/frame.html"></iframe>'
        '<link rel="preload" as="font" href="//fonts.example.org/a.woff2">'
        '<img alt="" srcset="https://img.example.org/c.png 2x, ../_static/ok.css 1x">'
    )
    (tmp_path / "_static" / "theme.css").write_text(
        'a { background: url("https://x.org/b.png") }'
    )
    problems = "\n".join(cs.static_problems(tmp_path))
    for remote in ("theme.css", "frame.html", "a.woff2", "b.png", "c.png"):
        assert f"{remote}" in problems, remote
    assert "missing local script" in problems
    assert (
        "next.html" not in problems
        and "prev.html" not in problems
        and "ok.css" not in problems
    )


def test_check_site_reports_uncaught_javascript_errors():
    """Uncaught errors in Chromium's console, with file and line; other messages are not."""
    cs = _check_site_module()
    entries = [
        {
            "level": "SEVERE",
            "message": "http://127.0.0.1:8000/book/page.html 63:5 Uncaught SyntaxError: "
            "Identifier 'A' has already been declared",
        },
        {
            "level": "SEVERE",
            "message": "http://127.0.0.1:8000/_static/a.js 12:1 Uncaught ReferenceError: "
            "x is not defined",
        },
        {
            "level": "INFO",
            "message": "[togglebutton]: Adding toggle buttons to 0 items",
        },
        {
            "level": "SEVERE",
            "message": "http://127.0.0.1:8000/favicon.ico - Failed to load resource: 404",
        },
    ]
    problems = cs.js_errors(entries)
    assert len(problems) == 2
    assert "SyntaxError" in problems[0] and "page.html, line 63" in problems[0]
    assert "ReferenceError" in problems[1] and "a.js, line 12" in problems[1]


def test_check_site_reads_page_requests_from_devtools_events():
    """Requests the page made to other hosts count; its own and the browser's pages do not."""
    cs = _check_site_module()
    origin = "http://127.0.0.1:8000"

    def event(method, url):
        message = {"method": method, "params": {"request": {"url": url}}}
        return {"message": json.dumps({"message": message})}

    entries = [
        event("Network.requestWillBeSent", origin + "/book/page.html"),
        event("Network.requestWillBeSent", "https://cdn.example.org/m.js"),
        event("Network.requestWillBeSent", "chrome://new-tab-page/"),
        event("Network.requestWillBeSent", "data:image/png;base64,AAAA"),
        event("Network.responseReceived", "https://cdn.example.org/other.js"),
    ]
    assert cs.remote_requests(entries, origin) == ["https://cdn.example.org/m.js"]


def test_check_site_finds_raw_tex_wide_blocks_and_shrunk_figures(tmp_path):
    """The in-browser checks, on a page with one of each problem and its harmless twin."""
    if not shutil.which("chromium") or not shutil.which("chromedriver"):
        pytest.skip("needs Debian's chromium and chromedriver (CI installs them)")
    from PIL import Image

    cs = _check_site_module()
    Image.new("RGB", (900, 300), "white").save(tmp_path / "fig.png")
    wide = "x" * 400
    (tmp_path / "page.html").write_text(
        "<html><style>pre, div.pst-scrollable-table-container {overflow: auto}</style>"
        '<body style="margin:0"><main><article class="bd-article" style="width:600px">'
        "<p>a link text copied from a heading: what \\ell does</p>"
        "<p>a stray $ left by Markdown</p>"
        "<p><code>\\frac{a}{b}</code> is code, not raw TeX</p>"
        f'<div class="cell_input"><div class="highlight"><pre>{wide}</pre></div></div>'
        '<div class="highlight"><pre>short</pre></div>'
        f'<div class="pst-scrollable-table-container"><table><tr><td>{wide}</td></tr>'
        "</table></div>"
        '<img src="fig.png" style="width:500px"><img src="fig.png" style="width:620px">'
        "</article></main></body></html>"
    )
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(cs.QuietHandler, directory=str(tmp_path))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = cs.chromium(1400, 800, perf_log=True)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/page.html"
        problems, height, column = cs.page_problems(
            driver, "page", url, "", False, 1400
        )
    finally:
        driver.quit()
        server.shutdown()
    text = "\n".join(problems)
    assert column == 600 and height > 0
    assert "raw TeX in the text: …a link text copied from a heading: what \\ell" in text
    assert "a stray $" in text and "frac" not in text
    assert sum(": code " in p for p in problems) == 1
    assert sum(": table " in p for p in problems) == 1
    assert "fig.png shown at 500 of its 900 px" in text
    assert "shown at 620" not in text
    assert len(problems) == 5, text


# --- folding: the site shows prose, equations, figures and results; the checks are a click away


# a bare check call; an exercise's EXERCISES[...].check(answer) is the student's own cell
CHECK_CALL = re.compile(
    r"(?<![.\w])(?:check|check_close|check_equal|summary)\(|^\s*assert\b", re.M
)
FOLDS = {"hide-input", "hide-cell", "remove-cell", "remove-input"}


def code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_check_cell_is_folded(path):
    """A cell that checks (calls check, check_close, check_equal, summary or assert) shows its
    outcome on the site, and its code behind the theme's toggle (CONTRIBUTING: folding)."""
    nb = json.loads(path.read_text())
    open_checks = [
        i
        for i, c in enumerate(nb["cells"])
        if c["cell_type"] == "code"
        and CHECK_CALL.search("".join(c["source"]))
        and not FOLDS & set(c.get("metadata", {}).get("tags", []))
    ]
    assert not open_checks, (
        f"{path.name}: check cells {open_checks} (cell indices) show their code on the "
        "site; tag them hide-input (CONTRIBUTING: folding)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_jupyterlab_folds_what_the_site_folds(path):
    """tools/run_notebook.py sets jupyter.source_hidden/outputs_hidden from the tags, so the
    notebook opens in JupyterLab as the page reads on the site."""
    nb = json.loads(path.read_text())
    synced = json.loads(json.dumps(nb))
    sync_notebook_folding(synced)
    stale = [
        i
        for i, (a, b) in enumerate(zip(nb["cells"], synced["cells"]))
        if a.get("metadata") != b.get("metadata")
    ]
    assert not stale, (
        f"{path.name}: cells {stale} are folded differently in JupyterLab than on the site; "
        f"run python tools/run_notebook.py {path.relative_to(ROOT)}"
    )


def test_solution_code_cells_open_collapsed_in_lab():
    """A solution's code cells open collapsed in JupyterLab, code and output, also when one
    Markdown cell ends a solution and starts the next; code after the last end stays open."""

    def md(text):
        return {"cell_type": "markdown", "metadata": {}, "source": text}

    def code():
        return {"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": []}

    start = "```{solution-start} ex-1\n:class: dropdown\n```\n"
    end = "```{solution-end}\n```\n"
    nb = {
        "cells": [md(start), code(), md(end + "```{exercise}\n```\n" + start), code()]
    }
    nb["cells"] += [md(end), code()]
    sync_notebook_folding(nb)
    folded = [
        c["metadata"].get("jupyter") for c in nb["cells"] if c["cell_type"] == "code"
    ]
    both = {"source_hidden": True, "outputs_hidden": True}
    assert folded == [both, both, None]


@pytest.mark.parametrize("path", thumbnails.chapters(), ids=lambda p: p.stem)
def test_thumbnail_is_the_chapters_own_figure(path):
    """The landing page's thumbnail of a chapter is the figure stored by its one cell tagged
    'thumbnail', shrunk by tools/thumbnails.py: pixel for pixel, so a changed figure needs a
    new thumbnail (python tools/thumbnails.py)."""
    target = thumbnails.target(path)
    assert target.exists(), (
        f"{target.relative_to(ROOT)} is missing: python tools/thumbnails.py"
    )
    assert thumbnails.is_current(path), (
        f"{target.relative_to(ROOT)} is not {path.name}'s tagged figure: "
        "python tools/thumbnails.py"
    )
    intro = (ROOT / "book" / "intro.md").read_text()
    assert f"images/thumbnails/{path.stem}.png" in intro, (
        f"book/intro.md does not show {path.stem}'s thumbnail"
    )


def test_thumbnail_shrinks_by_block_averages():
    """A whole factor k, the smallest that fits the box; each pixel the mean of a k x k block."""
    pixels = np.arange(6 * 8 * 4, dtype=np.uint8).reshape(6, 8, 4)
    small = thumbnails.shrink(pixels, box=(4, 4))  # k = 2: 8 / 2 <= 4 and 6 / 2 <= 4
    assert small.shape == (3, 4, 4)
    expected = pixels.astype(float).reshape(3, 2, 4, 2, 4).mean(axis=(1, 3))
    assert np.array_equal(small, np.rint(expected).astype(np.uint8))
    assert thumbnails.shrink(pixels, box=(8, 6)).shape == pixels.shape  # fits: k = 1
    with pytest.raises(ValueError, match="tagged 'thumbnail'"):
        thumbnails.tagged_png({"cells": []}, "empty.ipynb")


# A function or lambda named like a tolerance helper: a copy of mlcourse.checks' names, or
# what the chapters used to call their copies (sig1, up1, *_tolerances, *_rounding, …).
TOLERANCE_HELPER = re.compile(
    r"(^|_)(tol|tols|tolerance|tolerances|rounding|bound|bounds)($|_)|^(sig|up)\d$|^round"
)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_defines_no_tolerance_helper_of_its_own(path):
    """Tolerances are derived with mlcourse.checks, one copy for the book and the tests."""
    import ast

    from mlcourse import checks

    found = []
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            names = []
            if isinstance(node, ast.FunctionDef):
                names = [node.name]
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            found += [
                (i, name)
                for name in names
                if name in checks.__all__ or TOLERANCE_HELPER.search(name)
            ]
    assert not found, (
        f"{path.name}: cells define their own tolerance helpers {found}; use (or add to) "
        "mlcourse.checks"
    )
