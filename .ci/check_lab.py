"""Check the chapters as a student meets them in JupyterLab: MyST rendered, a slider live.

    python .ci/check_lab.py [chapter ...] [--slider CHAPTER] [--shots DIR]

1. ``jupyter labextension list`` must report jupyterlab-myst enabled and OK. (A JupyterLab it
   does not fit, e.g. 4.6 against jupyterlab-myst 2.7's ``@jupyter/ydoc`` 3, reports a conflict,
   and Lab then shows the book's MyST as raw text.)
2. A token-less JupyterLab is started on 127.0.0.1 (a free port) on a temporary copy of
   ``book/`` (so Lab's autosave never writes to the repository), with its settings, workspaces
   and runtime files in the same temporary directory; headless Chromium (Selenium, no
   network) opens every chapter (or those named) in it. Once MyST has rendered every Markdown
   cell, it fails on:
   - raw MyST in the rendered text outside code and maths: a role (``{ref}`…```,
     ``{cite:p}`…```, ``{doc}`…```), a directive (``{exercise}``, ``{solution-start}``, a
     fence), a directive option (``:label:``, ``:class:``), a target ``(label)=``;
   - TeX that KaTeX could not typeset (it shows the source: ``\\bw``, ``$``);
   - a cross-reference MyST could not resolve (it shows the bare label): a ``{ref}`` to
     another notebook needs its own text, ``{ref}`text <label>```;
   - a solution open on arrival: a ``{solution}`` dropdown that is open, or a code cell of a
     ``{solution-start}`` … ``{solution-end}`` block whose source is not collapsed.
   Citations render as their key (jupyterlab-myst reads no .bib file): counted, not failed.
3. In one chapter (``--slider``, default ``evaluation``) it runs every cell, moves the first
   slider of its live (``remove-cell``) ``interact`` cell one step with the keyboard, and
   checks that the figure changes.

Exit status 1 on any failure, with one line per problem.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import chromium, free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")

# raw MyST, as it would show if the renderer did not know it (searched in the rendered
# text of Markdown cells, with code, maths and KaTeX's output removed)
RAW_MYST = [
    (re.compile(r"\{[a-zA-Z][\w:+-]*\}`"), "a role"),
    (
        re.compile(
            r"\{(?:exercise|solution|solution-start|solution-end|note|admonition)"
            r"|\{math\}"
        ),
        "a directive",
    ),
    (re.compile(r"```|~~~|^\s*:::", re.M), "a fence"),
    (re.compile(r"^\s*:(?:label|class|name|tags):", re.M), "a directive option"),
    (re.compile(r":(?:label|class):\s"), "a directive option"),
    (re.compile(r"^\([\w.:-]+\)=\s*$", re.M), "a target"),
    (re.compile(r"\\[a-zA-Z]+|\$"), "TeX source (KaTeX could not typeset it)"),
]

SETTINGS = {
    # every cell in the DOM (not only those scrolled into view), so every cell is checked
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    # no "get news?" pop-up, no request for news or updates
    "@jupyterlab/apputils-extension/notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}

# JavaScript run in the page --------------------------------------------------------------

CELLS = (
    "[...new Set(document.querySelectorAll("
    "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Notebook-cell'))]"
)

JS_STATE = f"""
let rendered = 0, size = 0;
const cells = {CELLS};
for (const c of cells) {{
  if (!c.classList.contains('jp-MarkdownCell')) continue;
  const m = c.querySelector('.myst');
  if (c.classList.contains('jp-mod-rendered') && m) {{ rendered++; size += m.innerHTML.length; }}
}}
return [cells.length, rendered, size];
"""

JS_SCAN = (
    f"return {CELLS}.map((c, i) => {{"
    + """
  if (!c.classList.contains('jp-MarkdownCell')) {
    return {i: i, code: true, collapsed: !!c.querySelector('.jp-InputPlaceholder')};
  }
  const m = c.querySelector('.myst');
  if (!m) return {i: i, text: null};
  const clone = m.cloneNode(true);
  clone.querySelectorAll('.katex, .katex-display, code, pre, svg').forEach(e => e.remove());
  return {
    i: i,
    text: clone.textContent,
    unresolved: Array.from(m.querySelectorAll('[title="Cross Reference Not Found"]'))
                  .map(e => e.textContent.trim()),
    citations: m.querySelectorAll('[title="Citation Not Found"]').length,
    open: m.querySelectorAll('details.myst-exercise[open]').length,
  };
});
"""
)


def wait(what: str, predicate, timeout: float, interval: float = 0.25):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


# 1. the extension ------------------------------------------------------------------------


def extension_problems() -> list[str]:
    out = subprocess.run(
        [str(BIN / "jupyter"), "labextension", "list"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    text = ANSI.sub("", out.stdout + out.stderr)
    line = next((ln for ln in text.splitlines() if "jupyterlab-myst" in ln), "")
    if "enabled" in line and "OK" in line:
        return []
    conflict = (
        text[text.find("is not compatible") - 40 :].strip()
        if ("is not compatible" in text)
        else ""
    )
    return [
        "jupyterlab-myst is not loaded by this JupyterLab: "
        + (line.strip() or "not installed")
        + (f"\n  {conflict}" if conflict else "")
    ]


# 2. the server ---------------------------------------------------------------------------


class Lab:
    """A token-less JupyterLab on 127.0.0.1 serving a temporary copy of book/."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.root = tmp / "book"
        shutil.copytree(
            ROOT / "book",
            self.root,
            ignore=shutil.ignore_patterns("_build", ".ipynb_checkpoints"),
        )
        for name, values in SETTINGS.items():
            plugin, file = name.rsplit("/", 1)
            target = tmp / "settings" / plugin / f"{file}.jupyterlab-settings"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        env = dict(
            os.environ,
            JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
            JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
            JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
            JUPYTER_CONFIG_DIR=str(tmp / "config"),
            IPYTHONDIR=str(tmp / "ipython"),
        )
        args = [
            str(BIN / "jupyter"),
            "lab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--port-retries=0",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={self.root}",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: run its commands
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--allow-root")  # CI containers run as root
        self.log = open(tmp / "lab.log", "w")
        self.proc = subprocess.Popen(
            args, env=env, stdout=self.log, stderr=subprocess.STDOUT
        )

        def up():
            if self.proc.poll() is not None:
                raise RuntimeError(
                    "JupyterLab exited:\n" + (tmp / "lab.log").read_text()[-2000:]
                )
            try:
                with urllib.request.urlopen(self.url + "api/status", timeout=2) as r:
                    return r.status == 200
            except OSError:
                return False

        wait("JupyterLab to start", up, 60)

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


# 3. the pages ----------------------------------------------------------------------------


def lab_command(driver, command: str, args: dict | None = None):
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.jupyterapp.commands.execute(arguments[0], arguments[1])"
        ".then(() => done(null), e => done(String(e)));",
        command,
        args or {},
    )


def open_notebook(driver, lab: Lab, name: str, n_cells: int, timeout: float = 60):
    """Open `name` in Lab, alone, and wait until MyST has rendered every Markdown cell and
    the rendering has settled (cross-references are resolved after the cells render)."""
    if driver.current_url.startswith(lab.url + "lab"):
        lab_command(driver, "docmanager:save")  # no "unsaved changes" dialog on close
        lab_command(driver, "application:close-all")
        lab_command(driver, "docmanager:open", {"path": name, "factory": "Notebook"})
    else:
        driver.get(f"{lab.url}lab/tree/{name}")
        wait(
            "the JupyterLab application",
            lambda: driver.execute_script("return !!window.jupyterapp"),
            60,
        )
    last = []

    def settled():
        state = driver.execute_script(JS_STATE)
        total, rendered, _ = state
        ready = total == n_cells and rendered == n_markdown[name]
        stable = ready and last and last[-1] == state
        last.append(state)
        return stable

    wait(f"{name} to render ({n_cells} cells)", settled, timeout, interval=0.5)


n_markdown: dict[str, int] = {}


def solution_code_cells(cells: list[dict]) -> set[int]:
    """Indices of the code cells between a {solution-start} and its {solution-end}."""
    inside, found = False, set()
    for i, cell in enumerate(cells):
        text = "".join(cell["source"])
        if cell["cell_type"] == "code":
            if inside:
                found.add(i)
            continue
        if "{solution-start}" in text:
            inside = True
        if "{solution-end}" in text:
            inside = "{solution-start}" in text.split("{solution-end}")[-1]
    return found


def page_problems(name: str, scan: list[dict], cells: list[dict]) -> tuple[list, int]:
    problems, citations = [], 0
    in_solution = solution_code_cells(cells)
    for cell in scan:
        i = cell["i"]
        if cell.get("code"):
            if i in in_solution and not cell["collapsed"]:
                problems.append(
                    f"{name} cell {i}: a solution's code is open on arrival"
                )
            continue
        if cell["text"] is None:
            problems.append(f"{name} cell {i}: Markdown cell not rendered by MyST")
            continue
        text = cell["text"]
        for pattern, what in RAW_MYST:
            for m in pattern.finditer(text):
                around = text[max(0, m.start() - 40) : m.end() + 40]
                around = " ".join(around.split())
                problems.append(f"{name} cell {i}: raw MyST ({what}): …{around}…")
                break
        for label in cell["unresolved"]:
            problems.append(
                f"{name} cell {i}: cross-reference not resolved in Lab, shows "
                f"{label!r}: give the {{ref}} its own text, {{ref}}`text <{label}>`"
            )
        if cell["open"]:
            problems.append(f"{name} cell {i}: a solution is open on arrival")
        citations += cell["citations"]
    return problems, citations


def slider_problems(driver, name: str, cells: list[dict]) -> list[str]:
    live = next(
        (
            i
            for i, c in enumerate(cells)
            if c["cell_type"] == "code"
            and "remove-cell" in c["metadata"].get("tags", [])
            and "interact" in "".join(c["source"])
        ),
        None,
    )
    if live is None:
        return [f"{name}: no live interact cell (tagged remove-cell) to move"]
    cell_js = f"const c = {CELLS}[{live}];"
    # the stored outputs go first: what shows next was drawn by this kernel
    lab_command(driver, "notebook:clear-all-cell-outputs")
    t0 = time.monotonic()
    lab_command(driver, "notebook:run-all-cells")  # returns when the last cell has run
    wait(
        f"{name}: Run All to draw the live cell's slider and figure",
        lambda: driver.execute_script(
            cell_js + "return !!(c && c.querySelector('.widget-slider .noUi-handle')"
            " && c.querySelector('.jp-OutputArea img'));"
        ),
        90,
    )
    run_all = time.monotonic() - t0
    before = driver.execute_script(
        cell_js + "return c.querySelector('.jp-OutputArea img').src;"
    )
    handle = driver.execute_script(
        cell_js + "const h = c.querySelector('.widget-slider .noUi-handle');"
        "h.scrollIntoView({block: 'center'}); h.focus(); return h;"
    )
    readout = (
        cell_js
        + "return c.querySelector('.widget-slider .widget-readout').textContent;"
    )
    value = driver.execute_script(readout)
    from selenium.webdriver.common.keys import Keys

    handle.send_keys(Keys.ARROW_RIGHT)
    t1 = time.monotonic()
    try:
        wait(
            "the figure to change",
            lambda: driver.execute_script(
                cell_js + "const i = c.querySelector('.jp-OutputArea img');"
                "return i && i.src !== arguments[0];",
                before,
            ),
            20,
        )
    except TimeoutError:
        now = driver.execute_script(readout)
        return [
            f"{name}: moving the slider (from {value} to {now}) did not change the figure "
            "within 20 s"
        ]
    print(
        f"check_lab: {name}: Run All {run_all:.1f} s; slider moved from {value} to "
        f"{driver.execute_script(readout)}, figure redrawn in "
        f"{time.monotonic() - t1:.2f} s"
    )
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", help="chapter names (default: all)")
    parser.add_argument(
        "--slider", default="evaluation", help="chapter whose slider moves"
    )
    parser.add_argument(
        "--shots", type=Path, help="save a screenshot of each chapter here"
    )
    args = parser.parse_args()
    chapters = args.chapters or sorted(p.stem for p in (ROOT / "book").glob("*.ipynb"))
    t_start = time.monotonic()
    problems = extension_problems()
    if problems:
        for p in problems:
            print("FAIL", p)
        return 1
    citations = 0
    with tempfile.TemporaryDirectory(prefix="check-lab-") as tmp:
        lab = Lab(Path(tmp))
        driver = None
        try:
            driver = chromium(1400, 1000, profile=Path(tmp) / "chromium")
            for name in [
                *chapters,
                *([args.slider] if args.slider not in chapters else []),
            ]:
                nb = json.loads((ROOT / "book" / f"{name}.ipynb").read_text())
                cells = nb["cells"]
                n_markdown[f"{name}.ipynb"] = sum(
                    c["cell_type"] == "markdown" for c in cells
                )
                t0 = time.monotonic()
                open_notebook(driver, lab, f"{name}.ipynb", len(cells))
                if name in chapters:
                    found, cites = page_problems(
                        name, driver.execute_script(JS_SCAN), cells
                    )
                    problems += found
                    citations += cites
                    if args.shots:
                        args.shots.mkdir(parents=True, exist_ok=True)
                        driver.save_screenshot(str(args.shots / f"lab-{name}.png"))
                    print(
                        f"check_lab: {name}: {n_markdown[f'{name}.ipynb']} Markdown cells "
                        f"rendered in {time.monotonic() - t0:.1f} s, {len(found)} problem(s)"
                    )
                if name == args.slider:
                    problems += slider_problems(driver, name, cells)
        except (TimeoutError, RuntimeError) as err:
            problems.append(str(err))
        finally:
            if driver is not None:
                driver.quit()
            lab.close()
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(
            f"check_lab: {len(chapters)} chapter(s) in JupyterLab with jupyterlab-myst: no raw "
            f"MyST or TeX, every cross-reference resolved, solutions collapsed; "
            f"{citations} citations shown as their keys; the {args.slider} slider redraws "
            f"({time.monotonic() - t_start:.0f} s)"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
