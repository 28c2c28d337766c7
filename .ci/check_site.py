"""Check the built site works offline: math typeset by the local MathJax, figures present.

    python .ci/check_site.py [_build/html]

1. Static scan of every page: no script, stylesheet, image, frame or media file is loaded from
   another host, and every local one exists in the site; no stylesheet of the site pulls a
   ``url()`` or ``@import`` from another host.
2. Serve the site on 127.0.0.1 and open each chapter page in headless Chromium with no network:
   every other host is unresolvable and every non-loopback connection goes to a closed proxy
   port, so IP addresses fail too. Chromium's network log must show no request from the page
   to another host (e.g. a script fetching a font or an extension from a CDN at run time).
   After MathJax has run, every math element of the page must
   contain typeset output (``mjx-container``), with no MathJax error and no undefined macro;
   every notebook page must show its figures; and the browser console must show no uncaught
   JavaScript error (``Uncaught ...``, e.g. a script declared twice).

Exit status 1 on any failure, with one line per problem.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urljoin, urlparse

MATH_OPEN = re.compile(r'<(span|div) class="math notranslate nohighlight">')
RESOURCE = re.compile(
    r'<(script|img|link|iframe|source|video|audio|embed)\b[^>]*?\b(src|href)="([^"]+)"[^>]*>'
)
EXTRA_URLS = re.compile(r'<(?:img|source|video)\b[^>]*?\b(?:srcset|poster)="([^"]+)"')
LINK_RESOURCE = re.compile(r'\brel="[^"]*\b(stylesheet|preload|modulepreload|icon)\b')
CSS_REMOTE = re.compile(
    r'(?:url\(\s*["\']?|@import\s+["\']?)((?:https?:)?//[^"\')\s]+)'
)
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--virtual-time-budget=30000",
    # no network: every host name except the local server fails to resolve
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    # ... and every connection except to loopback goes to a closed port (IP literals too)
    "--proxy-server=http://127.0.0.1:9",
    # the page's console messages go to stderr, one line each, e.g.
    # [...:INFO:CONSOLE:63] "Uncaught SyntaxError: ...", source: http://127.0.0.1:.../page.html (63)
    "--enable-logging=stderr",
    "--v=0",
]
UNCAUGHT = re.compile(
    r':CONSOLE[^\]]*\] "(Uncaught .*?)"(?:, source: (\S*) \((\d+)\))?$', re.M
)


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


def find_chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    raise SystemExit(
        "check_site: Chromium not found (Debian: apt-get install chromium)"
    )


def remote_requests(net_log: Path, origin: str) -> list[str]:
    """URLs the page (not the browser's own background services) requested from other hosts,
    read from a Chromium NetLog: URL_REQUEST_START_JOB events initiated by ``origin``."""
    log = json.loads(net_log.read_text(encoding="utf-8"))
    start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = set()
    for event in log["events"]:
        params = event.get("params") or {}
        url = params.get("url", "")
        if (
            event["type"] == start_job
            and params.get("initiator") == origin
            and not url.startswith(origin + "/")
            and not url.startswith("data:")
        ):
            urls.add(url)
    return sorted(urls)


def rendered_dom(chromium: str, url: str) -> tuple[str, str, list[str]]:
    """The page's DOM after its scripts have run, Chromium's log (with the console), and the
    URLs the page requested from other hosts."""
    origin = "{0.scheme}://{0.netloc}".format(urlparse(url))
    with tempfile.TemporaryDirectory() as profile:
        net_log = Path(profile) / "netlog.json"
        out = subprocess.run(
            [
                chromium,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                f"--log-net-log={net_log}",
                "--dump-dom",
                url,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if out.returncode != 0 or "<html" not in out.stdout:
            raise RuntimeError(f"Chromium failed on {url}: {out.stderr[-500:]}")
        remote = remote_requests(net_log, origin)
    return out.stdout, out.stderr, remote


def page_problems(
    name: str, source_html: str, dom: str, is_notebook: bool, log: str = "", remote=()
) -> list[str]:
    problems = [f"{name}: requested from the network: {url}" for url in remote]
    for message, source, line in UNCAUGHT.findall(log):
        where = f" ({source.rsplit('/', 1)[-1]}, line {line})" if source else ""
        problems.append(f"{name}: JavaScript error: {message}{where}")
    n_math = len(MATH_OPEN.findall(source_html))
    typeset = 0
    for m in MATH_OPEN.finditer(dom):
        if dom[m.end() : m.end() + 200].lstrip().startswith("<mjx-container"):
            typeset += 1
    if typeset != n_math:
        problems.append(
            f"{name}: {typeset} of {n_math} math elements typeset by MathJax"
        )
    if "<mjx-merror" in dom:
        errors = re.findall(r'<mjx-merror[^>]*data-mjx-error="([^"]*)"', dom)[:3]
        problems.append(f"{name}: MathJax could not typeset some math: {errors}")
    # an undefined macro (e.g. a typo, or one missing from _config.yml) is drawn in red
    undefined = sorted(
        set(re.findall(r'<mtext mathcolor="red">(\\[^<]*)</mtext>', dom))
    )
    if undefined:
        problems.append(f"{name}: undefined TeX macros {undefined}")
    if is_notebook and not re.search(r'<img [^>]*src="[^"]*_images/', dom):
        problems.append(f"{name}: notebook page shows no figure")
    return problems


def main(site: Path) -> int:
    site = site.resolve()
    problems = static_problems(site)
    pages = sorted((site / "book").glob("*.html"))
    notebooks = {p.stem for p in (site / "_sources" / "book").glob("*.ipynb")}
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    chromium = find_chromium()
    total_math = 0
    try:
        for page in pages:
            rel = page.relative_to(site).as_posix()
            source = page.read_text(encoding="utf-8")
            dom, log, remote = rendered_dom(chromium, urljoin(base, rel))
            total_math += len(MATH_OPEN.findall(source))
            problems += page_problems(
                rel, source, dom, page.stem in notebooks, log, remote
            )
    finally:
        server.shutdown()
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(
            f"check_site: {len(pages)} pages offline OK — {total_math} math elements typeset "
            f"by the local MathJax, {len(notebooks)} notebook page(s) with figures, "
            "no resource from or request to another host, no uncaught JavaScript error"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html")))
