"""How long the thin client takes to show a screen at a given round-trip time.

    scripts/load-timing [--rtt-ms 150] [--runs 3] [--smoke] BASE_URL [PATH ...]

For each page (default: /form /list /recipes), loads it in headless Chromium with the network
emulated at `--rtt-ms` of latency per request (Chrome DevTools' emulation), first with an empty
cache, then again (a repeat visit), and prints the median time from navigation start until the
screen shows its first snapshot (`<html data-loading>` removed), the requests made and the bytes
transferred. Needs the repository's venv (Selenium) and Debian's chromium + chromedriver.
--smoke: one run at 20 ms, /form only (unless paths are given).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from .binary import REPO

sys.path.insert(0, str(REPO / "Tests"))
from bindery_support import chrome_driver  # noqa: E402

# Set before any page script runs: the moment the page stops saying it is loading.
READY_PROBE = """
(() => {
  const done = () => { const html = document.documentElement;
    if (html && !html.hasAttribute('data-loading') && window.__readyAt === undefined
      && document.querySelector('#main [data-screen], #main > *:not(.placeholder)')) {
    window.__readyAt = performance.now(); } };
  new MutationObserver(done).observe(document, {subtree: true, childList: true, attributes: true});
})();
"""


def load(driver, url: str, timeout: float = 30) -> tuple[float, int, int]:
    """(ms until ready, requests, bytes transferred) of one navigation to `url`."""
    driver.get("about:blank")
    driver.get(url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready = driver.execute_script("return window.__readyAt")
        if ready is not None:
            entries = driver.execute_script(
                "return performance.getEntriesByType('resource').filter(e => e.startTime <= window.__readyAt)"
                ".map(e => e.transferSize)")
            return ready, len(entries) + 1, sum(entries)
        time.sleep(0.02)
    raise TimeoutError(f"{url} was not ready within {timeout} s")


def main(argv: list[str], smoke: bool = False) -> int:
    parser = argparse.ArgumentParser(prog="scripts/load-timing", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rtt-ms", type=float, default=20 if smoke else 150)
    parser.add_argument("--runs", type=int, default=1 if smoke else 3)
    parser.add_argument("base")
    parser.add_argument("paths", nargs="*", default=["/form"] if smoke else ["/form", "/list", "/recipes"])
    args = parser.parse_args(argv)
    driver = chrome_driver()
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": args.rtt_ms, "downloadThroughput": -1, "uploadThroughput": -1})
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": READY_PROBE})
        print(f"{'page':<10} {'first visit ms':>15} {'requests':>9} {'KB':>7} {'repeat ms':>10} {'requests':>9} {'KB':>7}")
        for path in args.paths:
            first, repeat = [], []
            for _ in range(args.runs):
                driver.execute_cdp_cmd("Network.clearBrowserCache", {})
                first.append(load(driver, args.base + path))
                repeat.append(load(driver, args.base + path))
            cold = statistics.median(ms for ms, _, _ in first)
            warm = statistics.median(ms for ms, _, _ in repeat)
            print(f"{path:<10} {cold:>15.0f} {first[-1][1]:>9} {first[-1][2] / 1024:>7.1f} "
                  f"{warm:>10.0f} {repeat[-1][1]:>9} {repeat[-1][2] / 1024:>7.1f}")
    finally:
        driver.quit()
    return 0
