"""Check the built site as a reader meets it: offline, maths typeset, everything fits.

    python .ci/check_site.py [_build/html] [--width 1400] [--pages intro laplace ...]
                             [--shots DIR] [--dark]

1. Static scan of every page: no script, stylesheet, image, frame or media file is loaded from
   another host, and every local one exists in the site; no stylesheet of the site pulls a
   ``url()`` or ``@import`` from another host.
2. Serve the site on 127.0.0.1 and open each page in headless Chromium (Selenium, a real
   window, 1400 CSS pixels wide by default) with no network: every other host is unresolvable
   and every non-loopback connection goes to a closed proxy port, so IP addresses fail too.
   - The page requests nothing from another host (DevTools network events), and the browser
     console shows no uncaught JavaScript error (``Uncaught ...``, e.g. a script declared twice).
   - After MathJax has run, every math element holds typeset output (``mjx-container``), with
     no MathJax error and no undefined macro, and no text outside code and maths holds TeX
     source: a ``\\command`` (``\\frac``, ``\\ell``), a ``\\(``, or a stray ``$`` (a formula
     Markdown broke up, or a link text copied from a heading with maths in it).
   - Every notebook page shows its figures.
   - With every fold opened (code toggles, solution dropdowns, the checks' details), no code
     block, cell output, table or display formula is wider than its box (it would scroll
     sideways) or sticks out of the text column, the page itself does not scroll sideways, and
     no figure is shown below two thirds of its natural width (its text would be too small).
3. Prints each page's height with its folds closed, the length a reader scrolls (the API
   reference's pages, book/reference/, as one line: their number, total and tallest).

``--pages`` checks only those pages (a page's name is its path under book/ without .html:
``laplace``, ``reference/rvm/RVMClassifier``); ``--shots DIR`` saves a full-page screenshot of
each (folds closed), ``--dark`` in the theme's dark mode; ``--width 390`` looks at a phone's
width (the width checks are meant for 1400).

Exit status 1 on any failure, with one line per problem naming the page.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import re
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urljoin, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import chromium  # noqa: E402

MATH_OPEN = re.compile(r'<(span|div) class="math notranslate nohighlight">')
RESOURCE = re.compile(
    r'<(script|img|link|iframe|source|video|audio|embed)\b[^>]*?\b(src|href)="([^"]+)"[^>]*>'
)
EXTRA_URLS = re.compile(r'<(?:img|source|video)\b[^>]*?\b(?:srcset|poster)="([^"]+)"')
LINK_RESOURCE = re.compile(r'\brel="[^"]*\b(stylesheet|preload|modulepreload|icon)\b')
CSS_REMOTE = re.compile(
    r'(?:url\(\s*["\']?|@import\s+["\']?)((?:https?:)?//[^"\')\s]+)'
)
MIN_FIGURE_RATIO = 2 / 3  # a figure shown narrower than this has unreadable text

# In the page, after MathJax: text outside code and maths that holds TeX source.
JS_RAW_TEX = r"""
const SKIP = 'pre, code, kbd, samp, script, style, noscript, textarea, svg, math,'
  + ' mjx-container, mjx-assistive-mml, .highlight, .MathJax';
const TEX = /\\(?:[A-Za-z]+|[()\[\]])|\$/;
const found = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode, el = node.parentElement;
  if (!el || el.closest(SKIP) || !TEX.test(node.textContent)) continue;
  const block = el.closest('p, li, td, th, dt, dd, h1, h2, h3, h4, h5, a, figcaption') || el;
  const text = block.textContent.replace(/\s+/g, ' ');
  const at = text.search(TEX);
  // slice whole characters: maths italic letters are two UTF-16 units each
  const before = Array.from(text.slice(0, at)).slice(-50).join('');
  found.push(before + Array.from(text.slice(at)).slice(0, 40).join(''));
}
return [...new Set(found)];
"""

JS_MATH = """
const math = document.querySelectorAll('span.math.notranslate, div.math.notranslate');
let typeset = 0;
math.forEach(m => { if (m.querySelector(':scope > mjx-container')) typeset++; });
return [math.length, typeset,
        Array.from(document.querySelectorAll('mjx-merror'))
             .map(e => e.getAttribute('data-mjx-error')).slice(0, 3)];
"""

JS_OPEN_FOLDS = """
document.querySelectorAll('details').forEach(d => { d.open = true; });
document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
"""

# What must fit: code blocks, cell outputs, tables, display maths; measured against their own
# box (scrollWidth > clientWidth: it scrolls) and against the text column (it sticks out).
JS_WIDTHS = """
const column = document.querySelector('article.bd-article') || document.querySelector('main');
const right = column.getBoundingClientRect().right;
const kinds = [
  ['output', 'div.cell_output pre, div.cell_output .output, div.cell_output'],
  ['code', 'div.highlight pre, div.highlight'],
  ['table', '.pst-scrollable-table-container, .table-wrapper, table'],
  ['display maths', 'div.math, mjx-container[display="true"]'],
];
function excerpt(el, kind) {
  let text = (el.innerText || el.textContent || '');
  if (kind === 'display maths' && window.MathJax && MathJax.startup.document) {
    const items = MathJax.startup.document.getMathItemsWithin(el);
    if (items.length) text = items[0].math;  // the TeX source names the formula best
  }
  return Array.from(text.trim().replace(/\\s+/g, ' ')).slice(0, 70).join('');
}
const seen = new Set(), wide = [];
for (const [kind, selector] of kinds) {
  for (const el of column.querySelectorAll(selector)) {
    if (!el.clientWidth) continue;
    const box = el.getBoundingClientRect();
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    const sticksOut = box.right > right + 1;
    if (!scrolls && !sticksOut) continue;
    // one line per block (a cell's code, a cell's output, a table, a formula)
    const block = el.closest('div.cell_output, div.cell_input, div.math')
      || (el.querySelector && el.querySelector(':scope > table')) || el.closest('table') || el;
    if (seen.has(block)) continue;
    seen.add(block);
    const excess = Math.max(el.scrollWidth - el.clientWidth, box.right - right);
    wide.push([kind, Math.round(excess), excerpt(el, kind)]);
  }
}
const page = document.documentElement;
return JSON.stringify({wide: wide, pageScrolls: page.scrollWidth > page.clientWidth + 1,
                       column: Math.round(column.getBoundingClientRect().width)});
"""

JS_FIGURES = """
const column = document.querySelector('article.bd-article') || document.querySelector('main');
return Array.from(column.querySelectorAll('img'))
  .filter(i => i.naturalWidth >= 120 && i.clientWidth > 0)
  .map(i => [i.getAttribute('src').split('/').pop(), i.naturalWidth, i.clientWidth]);
"""

JS_MATHJAX_DONE = """
const done = arguments[arguments.length - 1];
const start = Date.now();
function ready() {
  const images = Array.from(document.images).every(i => i.complete);
  if (document.readyState !== 'complete' || !images) return false;
  if (!document.querySelector('.math')) return true;
  return window.MathJax && MathJax.startup && MathJax.startup.promise;
}
(function poll() {
  const r = ready();
  if (r === true) return done('ok');
  if (r) return r.then(() => done('ok'), e => done('MathJax failed: ' + e));
  if (Date.now() - start > 60000) return done('timed out waiting for the page and MathJax');
  setTimeout(poll, 100);
})();
"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def static_problems(site: Path) -> list[str]:
    problems = []
    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).parts[0] in ("_static", "_sources", "mathjax"):
            continue  # theme templates and downloads, not pages
        html = page.read_text(encoding="utf-8")
        found = [(m.group(1), m.group(3), m.group(0)) for m in RESOURCE.finditer(html)]
        found += [
            ("srcset/poster", url.split()[0], "")
            for value in EXTRA_URLS.findall(html)
            for url in value.split(",")
            if url.strip()
        ]
        for tag, url, full in found:
            if tag == "link" and not LINK_RESOURCE.search(full):
                continue  # <link rel="next"> etc. are navigation, not resources
            parsed = urlparse(url)
            if parsed.scheme in ("http", "https") or url.startswith("//"):
                problems.append(
                    f"{page.relative_to(site)}: loads {tag} from the network: {url}"
                )
            elif not parsed.scheme and parsed.path:
                target = (page.parent / parsed.path).resolve()
                if not target.exists():
                    problems.append(
                        f"{page.relative_to(site)}: missing local {tag}: {url}"
                    )
    for css in sorted(site.rglob("*.css")):
        for url in CSS_REMOTE.findall(
            css.read_text(encoding="utf-8", errors="replace")
        ):
            problems.append(
                f"{css.relative_to(site)}: stylesheet loads from the network: {url}"
            )
    return problems


def remote_requests(entries: list[dict], origin: str) -> list[str]:
    """URLs requested from other hosts, from the DevTools events of Chromium's "performance"
    log (``driver.get_log("performance")``); the browser's own pages (``chrome://``, its start
    page) are not requests of the site."""
    urls = set()
    for entry in entries:
        message = json.loads(entry["message"])["message"]
        if message.get("method") != "Network.requestWillBeSent":
            continue
        url = message["params"]["request"]["url"]
        if urlparse(url).scheme in (
            "http",
            "https",
            "ws",
            "wss",
            "ftp",
        ) and not url.startswith(origin + "/"):
            urls.add(url)
    return sorted(urls)


UNCAUGHT = re.compile(r"^(\S+) (\d+):\d+ (Uncaught .*)$", re.S)


def js_errors(entries: list[dict]) -> list[str]:
    """Uncaught JavaScript errors in the browser's console (``driver.get_log("browser")``),
    e.g. ``http://…/page.html 63:5 Uncaught SyntaxError: …``, each with its file and line."""
    errors = []
    for entry in entries:
        if entry["level"] != "SEVERE" or "Uncaught" not in entry["message"]:
            continue
        m = UNCAUGHT.match(entry["message"])
        if m:
            source, line, message = m.groups()
            errors.append(f"{message} ({source.rsplit('/', 1)[-1]}, line {line})")
        else:
            errors.append(entry["message"])
    return errors


def _name(site: Path, page: Path) -> str:
    """A page's name: its path under book/, without .html (``laplace``, ``reference/rvm``)."""
    return page.relative_to(site / "book").with_suffix("").as_posix()


def page_problems(
    driver, name: str, url: str, source: str, is_notebook: bool, width: int
):
    """Open `url` and return (problems, its height with the folds closed, the text column's
    width)."""
    origin = "{0.scheme}://{0.netloc}".format(urlparse(url))
    driver.get(url)
    problems = []
    status = driver.execute_async_script(JS_MATHJAX_DONE)
    if status != "ok":
        problems.append(f"{name}: {status}")
    remote = remote_requests(driver.get_log("performance"), origin)
    problems += [f"{name}: requested from the network: {u}" for u in remote]
    problems += [
        f"{name}: JavaScript error: {m}" for m in js_errors(driver.get_log("browser"))
    ]

    n_source = len(MATH_OPEN.findall(source))
    n_math, typeset, errors = driver.execute_script(JS_MATH)
    if typeset != n_source or n_math != n_source:
        problems.append(
            f"{name}: {typeset} of {n_source} math elements typeset by MathJax"
        )
    if errors:
        problems.append(f"{name}: MathJax could not typeset some math: {errors}")
    # an undefined macro (e.g. a typo, or one missing from _config.yml) is drawn in red
    undefined = sorted(
        set(re.findall(r'<mtext mathcolor="red">(\\[^<]*)</mtext>', driver.page_source))
    )
    if undefined:
        problems.append(f"{name}: undefined TeX macros {undefined}")
    for text in driver.execute_script(JS_RAW_TEX):
        problems.append(f"{name}: raw TeX in the text: …{text}…")
    if is_notebook and not driver.execute_script(
        "return !!document.querySelector('article img[src*=\"_images/\"]')"
    ):
        problems.append(f"{name}: notebook page shows no figure")

    height = driver.execute_script("return document.documentElement.scrollHeight")

    driver.execute_script(JS_OPEN_FOLDS)
    time.sleep(0.2)  # let the opened folds lay out
    widths = json.loads(driver.execute_script(JS_WIDTHS))
    for kind, excess, text in widths["wide"]:
        problems.append(
            f"{name}: {kind} {excess} px wider than the column at {width} px: {text}"
        )
    if widths["pageScrolls"]:
        problems.append(f"{name}: the page scrolls sideways at {width} px")
    for src, natural, shown in driver.execute_script(JS_FIGURES):
        if shown < MIN_FIGURE_RATIO * natural:
            problems.append(
                f"{name}: figure {src} shown at {shown} of its {natural} px "
                f"({shown / natural:.0%}; at least {MIN_FIGURE_RATIO:.0%})"
            )
    return problems, height, widths["column"]


def screenshot(driver, url: str, path: Path, width: int, dark: bool):
    driver.get(url)
    driver.execute_async_script(JS_MATHJAX_DONE)
    if dark:
        driver.execute_script("document.documentElement.dataset.theme = 'dark';")
        time.sleep(0.3)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(height, 30000))
    time.sleep(0.5)
    driver.save_screenshot(str(path))
    driver.set_window_size(width, 1000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default="_build/html", type=Path)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--pages", nargs="*", help="page names (default: every page)")
    parser.add_argument("--shots", type=Path, help="save full-page screenshots here")
    parser.add_argument("--dark", action="store_true", help="screenshots in dark mode")
    args = parser.parse_args()
    site = args.site.resolve()
    problems = static_problems(site)
    # the chapters and front and back matter, then the API reference's pages (book/reference/)
    pages = sorted((site / "book").glob("*.html"))
    pages += sorted((site / "book" / "reference").rglob("*.html"))
    if args.pages:
        pages = [p for p in pages if _name(site, p) in args.pages]
    notebooks = {p.stem for p in (site / "_sources" / "book").glob("*.ipynb")}
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    driver = chromium(args.width, 1000, perf_log=True)
    driver.set_script_timeout(90)
    driver.get_log("performance")  # drop the start page's events
    heights, column, total_math = {}, None, 0
    try:
        for page in pages:
            rel = page.relative_to(site).as_posix()
            source = page.read_text(encoding="utf-8")
            total_math += len(MATH_OPEN.findall(source))
            found, heights[_name(site, page)], column = page_problems(
                driver,
                _name(site, page),
                urljoin(base, rel),
                source,
                _name(site, page) in notebooks,
                args.width,
            )
            problems += found
            if args.shots:
                args.shots.mkdir(parents=True, exist_ok=True)
                suffix = f"-{args.width}" + ("-dark" if args.dark else "")
                screenshot(
                    driver,
                    urljoin(base, rel),
                    args.shots / f"{_name(site, page).replace('/', '.')}{suffix}.png",
                    args.width,
                    args.dark,
                )
    finally:
        driver.quit()
        server.shutdown()

    print(
        f"page heights at a {args.width}-px window (folds closed; text column {column} px):"
    )
    print(f"  {'page':<28}{'height px':>10}")
    reference = {n: h for n, h in heights.items() if n.startswith("reference/")}
    for name, height in heights.items():
        if name not in reference:
            print(f"  {name + (' *' if name in notebooks else ''):<28}{height:>10,}")
    if reference:
        tallest = max(reference, key=reference.get)
        print(
            f"  {f'reference ({len(reference)} pages)':<28}{sum(reference.values()):>10,}"
            f"  (tallest {tallest}, {reference[tallest]:,})"
        )
    nb_total = sum(h for n, h in heights.items() if n in notebooks)
    print(f"  {'notebook pages (*)':<28}{nb_total:>10,}")
    print(f"  {'all pages':<28}{sum(heights.values()):>10,}")
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(
            f"check_site: {len(pages)} pages OK at {args.width} px: offline, {total_math} math "
            f"elements typeset by the local MathJax and no raw TeX, nothing wider than the "
            f"column, figures at ≥ {MIN_FIGURE_RATIO:.0%} of their width, no request to "
            "another host, no uncaught JavaScript error"
        )
    else:
        print(f"check_site: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
