"""Headless Chromium for the CI checks (Selenium with Debian's chromium and chromedriver).

The browser has no network: every host name except 127.0.0.1 fails to resolve, and every
connection except to loopback goes to a closed proxy port, so IP literals fail too.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
from pathlib import Path

NO_NETWORK = [
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9",
]
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    *NO_NETWORK,
]


def find(names: tuple[str, ...], what: str, apt: str) -> str:
    for name in names:
        if path := shutil.which(name):
            return path
    raise SystemExit(f"{what} not found (Debian: apt-get install {apt})")


def chromium(
    width: int = 1400,
    height: int = 1000,
    extra: tuple[str, ...] = (),
    profile: Path | None = None,
    dark: bool = False,
    perf_log: bool = False,
):
    """A Selenium Chrome driver on Debian's chromium, `width` x `height` CSS pixels, with the
    browser's console kept (``driver.get_log("browser")``). `profile` is its user-data
    directory (a fresh temporary one by default); `dark` asks pages for their dark scheme;
    `perf_log` keeps the DevTools events (``driver.get_log("performance")``: the requests)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = find(
        ("chromium", "chromium-browser", "google-chrome"), "Chromium", "chromium"
    )
    profile = profile or Path(tempfile.mkdtemp(prefix="ci-chromium-"))
    profile.mkdir(parents=True, exist_ok=True)
    for flag in [
        *FLAGS,
        f"--window-size={width},{height}",
        f"--user-data-dir={profile}",
        *extra,
    ]:
        options.add_argument(flag)
    if dark:
        options.add_argument("--force-dark-mode")
        options.add_argument("--blink-settings=preferredColorScheme=0")
    logs = {"browser": "ALL", **({"performance": "ALL"} if perf_log else {})}
    options.set_capability("goog:loggingPrefs", logs)
    service = Service(
        find(("chromedriver",), "chromedriver", "chromium-driver"),
        log_output=str(profile / "chromedriver.log"),
    )
    driver = webdriver.Chrome(service=service, options=options)
    # the window size includes the browser's frame: make the page's viewport the size asked
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    return driver


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
