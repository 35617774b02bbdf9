"""What the pytest suites that start `bindery serve` share: where the binary, the thin client and
the artifacts directory are, a free loopback port, waiting for a server to answer and stopping it,
the seed server's demo accounts and signing a session or a browser in as one of them."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"


def binary_path() -> Path:
    """The server binary under test: `BINDERY_BIN`, or the debug build."""
    path = Path(os.environ.get("BINDERY_BIN", ".build/debug/bindery"))
    return path if path.is_absolute() else REPO / path


def public_dir() -> Path:
    """The thin client's directory: `BINDERY_PUBLIC`, or the repository's `Public/`."""
    path = Path(os.environ.get("BINDERY_PUBLIC", "Public"))
    return path if path.is_absolute() else REPO / path


def free_port() -> int:
    """A loopback port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_healthy(process: subprocess.Popen, base: str, timeout: float, log: str) -> None:
    """Returns once `base`/healthz answers 200; raises if the process exits first (naming `log`,
    where its output went) or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"bindery exited with status {process.returncode} before answering /healthz (see {log})")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"bindery did not answer {base}/healthz within {timeout:.0f} s (see {log})")


def wait_on(changed: threading.Condition, holds, timeout: float) -> bool:
    """Waits on `changed` (notified whenever what `holds()` reads changes) until `holds()` is
    true; False when `timeout` seconds passed first. The event-stream clients' `wait_for`."""
    deadline = time.monotonic() + timeout
    with changed:
        while not holds():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            changed.wait(min(left, 0.2))
    return True


def stop_process(process: subprocess.Popen | None) -> None:
    """SIGTERM (a clean stop), then SIGKILL if it has not ended within 15 s."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


def chrome_driver():
    """A headless Debian Chromium driven by chromedriver (Selenium), 1280×900, English: the one
    place that knows how the browser tests start a browser. The caller quits it (or gives it back
    to the `BrowserPool` it came from). `driver.origins` collects the origins it was sent to with
    `get`, for `reset_browser` to clear."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    class Chrome(webdriver.Chrome):
        def get(self, url: str) -> None:
            if url.startswith("http"):
                self.origins.add(_origin(url))
            super().get(url)

    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROME_BIN", "/usr/bin/chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900", "--lang=en-US"):
        options.add_argument(arg)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = Chrome(service=service, options=options)
    driver.origins = set()
    driver.set_page_load_timeout(30)
    driver.fresh = _looks(driver)  # what reset_browser checks a reused browser against
    return driver


def _origin(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


# What a tab of a fresh browser shows of its settings; a reset browser must show the same.
_LOOKS = ("return [innerWidth, innerHeight, outerWidth, outerHeight, devicePixelRatio, navigator.userAgent,"
          " navigator.language, navigator.onLine, matchMedia('(prefers-color-scheme: dark)').matches,"
          " document.hasFocus(), document.visibilityState]")


def _looks(driver) -> list:
    return driver.execute_script(_LOOKS)


def reset_browser(driver) -> None:
    """Makes a used browser what `chrome_driver()` starts, or raises (the caller then quits it).

    The test's pages go as a user's would (their tabs close: `pagehide`, so presence says goodbye
    and the tab leader lets go), in a new blank tab that is then the only one: a new tab has no
    sessionStorage, no history and none of the DevTools overrides the tests set on theirs (network
    conditions, offline, blocked URLs, device metrics, emulated media, scripts on new documents:
    they belong to a tab's DevTools session). What is the browser's, not a tab's, is cleared: every
    cookie (cookies are per host, not per port, and every test server is 127.0.0.1), the HTTP
    cache, and each visited origin's storage (localStorage, IndexedDB, Cache Storage, service
    workers…); the window gets its first size back and the tab the focus. Last, the tab is checked
    against what the fresh browser showed (sizes, user agent, language, online, colour scheme,
    focus) and the cookies are counted."""
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.action_chains import ActionChains

    origins = set(driver.origins)
    old = driver.window_handles
    for handle in old:  # the origins reached by links and scripts too
        driver.switch_to.window(handle)
        with contextlib.suppress(NoAlertPresentException):
            driver.switch_to.alert.dismiss()  # a dialog left open blocks the tab's other commands
        history = driver.execute_cdp_cmd("Page.getNavigationHistory", {})
        origins |= {_origin(entry["url"]) for entry in history["entries"] if entry["url"].startswith("http")}
    driver.switch_to.new_window("tab")
    fresh = driver.current_window_handle
    for handle in old:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(fresh)
    if driver.window_handles != [fresh]:
        raise RuntimeError("a tab would not close (a beforeunload prompt?)")
    driver.execute_cdp_cmd("Page.bringToFront", {})  # a new tab is visible but has no focus: a first tab has
    ActionChains(driver).reset_actions()  # no key or button the test's actions left pressed
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    for origin in origins:
        driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    driver.origins.clear()
    driver.set_window_size(*driver.fresh[2:4])  # the window is not the tab's: a test's set_window_size stays
    looks = _looks(driver)
    if looks != driver.fresh:
        raise RuntimeError(f"the reset browser shows {looks}, a fresh one {driver.fresh}")
    if driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]:
        raise RuntimeError("cookies left after Network.clearBrowserCookies")


def _quit(driver) -> None:
    with contextlib.suppress(Exception):
        driver.quit()


class BrowserPool:
    """The browsers of one pytest process (one pytest-xdist worker): starting Chromium costs about
    0.8 s of CPU, a reset a small part of it. A test takes a browser (reused when one is idle, else
    started) and gives it back at its end, when `reset_browser` makes it a fresh one again; one that
    cannot be reset (crashed, hung, a tab that would not close) is quit, and the next test gets a
    new one. Tests that need several browsers at once take several: idle browsers are kept up to
    `keep` (the most a test takes: `driver` and `two_browsers`), so they do not start each time
    either."""

    def __init__(self, keep: int = 3):
        self.keep = keep
        self.idle: list = []
        self.started = self.reused = self.discarded = 0

    def take(self):
        while self.idle:
            driver = self.idle.pop()
            try:
                driver.window_handles  # alive?
            except Exception:
                _quit(driver)
                self.discarded += 1
                continue
            self.reused += 1
            return driver
        self.started += 1
        return chrome_driver()

    def give_back(self, driver) -> None:
        try:
            reset_browser(driver)
        except Exception as error:
            print(f"BrowserPool: a browser could not be reset, quit: {error!r}"[:500])
            _quit(driver)
            self.discarded += 1
            return
        if len(self.idle) < self.keep:
            self.idle.append(driver)
        else:
            _quit(driver)

    def close(self) -> None:
        while self.idle:
            _quit(self.idle.pop())


@contextlib.contextmanager
def browsers(count: int, pool: BrowserPool | None = None):
    """`count` headless browsers (each its own session: another user), from `pool` (fresh ones
    reused, given back and reset at the end), else started here and closed at the end the way a
    user leaves: each loads `about:blank` first, so its pages' `pagehide` says goodbye (presence
    is gone at once instead of after 30 s)."""
    if pool is not None:
        drivers = []
        try:
            for _ in range(count):
                drivers.append(pool.take())
            yield drivers
        finally:
            for driver in drivers:
                pool.give_back(driver)
        return
    drivers = [chrome_driver() for _ in range(count)]
    try:
        yield drivers
    finally:
        for driver in drivers:
            try:
                driver.get("about:blank")
            except Exception:
                pass
            driver.quit()


@dataclass(frozen=True)
class Account:
    """A demo account of the seed server (its fake upstream's `accounts` endpoint): the phone
    number is the username."""
    phone: str
    password: str
    name: str
    user_id: str
    roles: tuple[str, ...] = ()

    @property
    def credentials(self) -> dict:
        """The body of POST /api/session/sign-in."""
        return {"username": self.phone, "password": self.password}


# The seed server's two demo accounts (listed on its home page). Li Lei is an administrator: she
# may change /api/upstream and delete the recipes nobody owns (c41, d76).
LI_LEI = Account("18612345678", "passw0rd", "Li Lei", "u-lilei", ("admin",))
HAN_MEIMEI = Account("13800000000", "hunter22", "Han Meimei", "u-hanmeimei")


def sign_in(base: str, account: Account = LI_LEI, token: str | None = None, headers: dict | None = None) -> str:
    """Signs the session `token` in as `account` (or, without a token, a new session made by the
    sign-in) with POST /api/session/sign-in, and answers the session's new token: the old one is
    refused from then on. Raises on anything but 200. Each sign-in costs the server's upstream
    latency (1 s by default) and about 60 ms of bcrypt."""
    all_headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {}),
                   **(headers or {})}
    request = urllib.request.Request(f"{base}/api/session/sign-in", data=json.dumps(account.credentials).encode(),
                                     method="POST", headers=all_headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.loads(response.read())
    assert answer["user"]["name"] == account.name, answer
    return answer["token"]


def api_session(base: str, account: Account | None = None):
    """A session of its own for the HTTP API (another user, not a browser's cookie), signed in as
    `account` when one is given: `call(method, path, body)` answers the parsed JSON (commands wait
    up to 10 s); `call.token` is the session's bearer token."""
    if account is not None:
        token = sign_in(base, account)
    else:
        request = urllib.request.Request(f"{base}/api/sessions", data=b"", method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            token = json.loads(response.read())["token"]

    def call(method, path, body=None, content_type="application/json"):
        headers = {"Authorization": f"Bearer {token}", "Content-Type": content_type, "Prefer": "wait=10"}
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{base}{path}", data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=15) as response:
            return json.loads(response.read() or b"null")
    call.token = token
    return call


def sign_in_browser(driver, base: str, account: Account = LI_LEI) -> None:
    """Signs a browser in as `account` the way a page of the app would: a same-origin fetch of
    POST /api/session/sign-in from a page of `base`, whose answer sets the session cookie (the
    browser's session, made by the sign-in when it had none). Pages opened afterwards are the
    user's. Raises unless the sign-in answered 200 as that user."""
    driver.get(f"{base}/healthz")
    answer = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        " fetch('/api/session/sign-in', {method: 'POST', credentials: 'same-origin',"
        " headers: {'Content-Type': 'application/json'}, body: JSON.stringify(arguments[0])})"
        " .then(async (r) => done({status: r.status, body: await r.text()}), (e) => done({status: 0, body: String(e)}));",
        account.credentials)
    assert answer["status"] == 200 and json.loads(answer["body"])["user"]["name"] == account.name, (
        f"signing the browser in as {account.name} at {base}: {answer}")
