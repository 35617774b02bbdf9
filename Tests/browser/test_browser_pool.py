"""A browser given back to the worker's pool (Tests/conftest.py `browser_pool`,
bindery_support.reset_browser) is as fresh as a new one for the next test: whatever a test leaves
in it — cookies of two ports of 127.0.0.1, localStorage, sessionStorage, IndexedDB, a cached
response, extra tabs, an open alert, a resized window, DevTools overrides (offline, blocked URLs,
device metrics, dark mode, user agent, geolocation, a script on every new document) — is gone, and
a browser that cannot be reset is not handed out again."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.wait import WebDriverWait

from bindery_support import BrowserPool

PAGE = b"<!doctype html><title>plain</title><p>plain</p>"


@pytest.fixture
def plain_origin():
    """A second origin on 127.0.0.1 (another port): a page cacheable for an hour, each GET counted."""
    hits = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Cache-Control", "max-age=3600")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


LEAVE_STATE = """
const done = arguments[arguments.length - 1];
document.cookie = 'left=' + location.port + '; max-age=3600; path=/';
localStorage.setItem('left', '1');
sessionStorage.setItem('left', '1');
const open = indexedDB.open('left', 1);
open.onupgradeneeded = () => open.result.createObjectStore('s');
open.onsuccess = () => { open.result.close(); done(true); };
open.onerror = () => done(false);
"""

READ_STATE = """
const done = arguments[arguments.length - 1];
indexedDB.databases().then((dbs) => done({cookie: document.cookie, local: localStorage.length,
  session: sessionStorage.length, idb: dbs.map((d) => d.name), history: history.length,
  online: navigator.onLine, dark: matchMedia('(prefers-color-scheme: dark)').matches,
  width: innerWidth, height: innerHeight, focus: document.hasFocus(), ua: navigator.userAgent, injected: window.injected || null}));
"""


def dirty(driver, base, plain):
    """Everything a test may leave behind."""
    for url in (f"{base}/healthz", f"{plain}/page"):
        driver.get(url)
        assert driver.execute_async_script(LEAVE_STATE)
    driver.execute_cdp_cmd("Network.setCookie", {"name": "unvisited", "value": "1", "url": "http://localhost:9/"})
    driver.switch_to.new_window("tab")
    driver.get(f"{plain}/page")
    driver.set_window_size(390, 844)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/healthz*"]})
    driver.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": "left-behind"})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 300, "height": 500, "deviceScaleFactor": 2, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 1, "longitude": 2, "accuracy": 3})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "window.injected = 'left';"})
    driver.execute_script("setTimeout(() => alert('left open'), 0)")
    WebDriverWait(driver, 5).until(expected_conditions.alert_is_present())


def test_a_browser_given_back_is_as_fresh_as_a_new_one(base_url, plain_origin):
    plain, hits = plain_origin
    pool = BrowserPool()
    try:
        with_new = pool.take()
        assert with_new.fresh[2:4] == [1280, 900], with_new.fresh  # what a reset is checked against: --window-size
        fresh = {}
        for url in (f"{base_url}/healthz", f"{plain}/page"):
            with_new.get(url)
            fresh[url] = with_new.execute_async_script(READ_STATE)
        pool.give_back(with_new)
        assert pool.idle == [with_new]

        driver = pool.take()
        assert driver is with_new and pool.reused == 1
        dirty(driver, base_url, plain)
        pages = hits.count("/page")
        assert pages == 2, "the second tab's page came from the cache: so a reset must clear it"
        pool.give_back(driver)
        assert pool.idle == [driver], "the reset failed: the browser was quit"

        again = pool.take()
        assert again is driver
        assert again.window_handles == [again.current_window_handle] and again.current_url == "about:blank"
        assert again.execute_cdp_cmd("Network.getAllCookies", {})["cookies"] == []
        for url in (f"{base_url}/healthz", f"{plain}/page"):
            again.get(url)
            assert again.execute_async_script(READ_STATE) == fresh[url], url
        assert hits.count("/page") == pages + 1, "the cached page was not fetched again: the HTTP cache is left"
        pool.give_back(again)
    finally:
        pool.close()


def test_a_browser_that_cannot_be_reset_is_not_handed_out_again():
    pool = BrowserPool()
    try:
        driver = pool.take()
        driver.quit()  # as if it crashed
        pool.give_back(driver)
        assert pool.idle == [] and pool.discarded == 1
        replacement = pool.take()
        assert replacement is not driver and pool.started == 2
        pool.give_back(replacement)
    finally:
        pool.close()

