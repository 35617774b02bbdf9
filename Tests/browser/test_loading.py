"""Loading like a product (issue 29, item 4): the page is revalidated, everything it loads is
fingerprinted and cached for a year, text is gzip-compressed, the modules come in one request
(blob URLs behind an import map) and the style sheets in one more, and a repeat visit fetches
no asset at all. How long that takes at 150 ms per round trip is measured by
`scripts/load-timing`, not here (no timed assertions in tests)."""

from __future__ import annotations

import re
import urllib.request

from pages import settled, wait

FINGERPRINTED = re.compile(r"^/_v/[0-9a-f]{16}/")


def fetch(url: str, headers: dict[str, str] | None = None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/_v/[^"]+)"', html) + re.findall(r"prefix \+ '(_bundle/[^']+)'", html)


def test_the_page_is_revalidated_and_its_assets_are_fingerprinted_compressed_and_immutable(base_url):
    status, headers, body = fetch(base_url + "/form", {"Accept": "text/html", "Accept-Encoding": "gzip"})
    assert status == 200 and headers["Cache-Control"] == "no-cache" and headers["Content-Encoding"] == "gzip"
    assert headers["Vary"] == "Accept-Encoding"
    again = fetch(base_url + "/form", {"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]})
    assert again[0] == 304
    _, _, plain = fetch(base_url + "/form")
    html = plain.decode()
    prefix = re.search(r"const prefix = '(/_v/[0-9a-f]{16}/)'", html).group(1)
    # Nothing the page loads is named by a bare path any more.
    assert not re.search(r'<(?:link|script)\b[^>]*(?:href|src)="/(?!_v/)', html), "an asset outside /_v/"
    urls = [url if url.startswith("/") else prefix + url for url in asset_urls(html)]
    assert {prefix + "_bundle/styles.css", prefix + "_bundle/modules.json"} <= set(urls)
    for url in urls:
        status, headers, body = fetch(base_url + url, {"Accept-Encoding": "gzip"})
        assert status == 200, url
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable", url
        if not url.endswith(".png"):
            assert headers.get("Content-Encoding") == "gzip", url
    # Under a fingerprint that is not the current one, a file is served but revalidated.
    stale = fetch(base_url + "/_v/0000000000000000/_bundle/modules.json")
    assert stale[0] == 200 and stale[1]["Cache-Control"] == "no-cache"


def ready(driver):
    """Waits until the screen shows its first snapshot and nothing loads."""
    wait(driver, lambda: not driver.execute_script("return document.documentElement.hasAttribute('data-loading')")
         and settled(driver), message="the screen did not load")


def resources(driver):
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => ({name: new URL(e.name).pathname,"
        " transfer: e.transferSize, size: e.decodedBodySize, type: e.initiatorType}))")


def test_a_first_visit_loads_in_a_few_requests_and_a_repeat_visit_fetches_no_asset(driver, base_url):
    driver.get(base_url + "/form")
    ready(driver)
    first = [r for r in resources(driver) if not r["name"].startswith("/api/")]
    assert first, "the page loaded no asset"
    assert all(FINGERPRINTED.match(r["name"]) for r in first), first
    # The style sheets and the modules: one file each (plus the icon, and images a screen shows).
    assert len([r for r in first if r["name"].endswith((".js", ".json", ".css"))]) == 2, first
    imports = driver.execute_script(
        "const map = document.querySelector('script[type=importmap]');"
        " return map ? JSON.parse(map.textContent).imports : null")
    assert imports and imports["bindery/js/app.js"].startswith("blob:")
    assert imports["/js/trace.js"] == imports["bindery/js/trace.js"], "a module by its path is the page's module"
    assert len(imports) > 20, "every module of the client is in the bundle"

    driver.get(base_url + "/list")
    ready(driver)
    repeat = [r for r in resources(driver) if not r["name"].startswith("/api/") and r["name"].endswith((".js", ".json", ".css"))]
    assert repeat and all(r["transfer"] == 0 and r["size"] > 0 for r in repeat), f"fetched again: {repeat}"


def test_without_the_bundle_the_modules_load_one_by_one(driver, base_url):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*_bundle/modules.json"]})
    try:
        driver.get(base_url + "/form")
        ready(driver)
        wait(driver, lambda: driver.execute_script("return document.querySelector('.screen-form h1') !== null"),
             message="the form did not show without the bundle")
        names = [r["name"] for r in resources(driver)]
        assert any(FINGERPRINTED.match(name) and name.endswith("/js/app.js") for name in names), names
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
