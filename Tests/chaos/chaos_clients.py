"""The clients of the chaos suite: writers that retry every unacknowledged write with its
Idempotency-Key, SSE watchers that resume with Last-Event-ID (whole snapshots, or JSON Patch
events with ?patches=1), and a browser that types into the login form.

Every client records what it did with `time.monotonic()` stamps, so the checks (chaos_checks.py)
can judge it afterwards; every wait is bounded, and every client stops when told.
"""

from __future__ import annotations

import copy
import http.client
import json
import random
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import requests

from bindery_support import wait_on

JSON = "application/json"
MERGE = "application/merge-patch+json"
CONNECT_TIMEOUT = 1.0           # seconds: nginx or a node on loopback answers at once, or is down
READ_TIMEOUT = 6.0              # seconds: a PATCH, a GET
COMMAND_WAIT = 5                # seconds of `Prefer: wait` on addStep (then 202: still running)
RETRYABLE = {502, 503, 504}     # no answer from a node: the write may or may not have happened
REFUSED = {412, 422}            # a definite "no": the write did not happen and must not be retried
# A 409 without Retry-After is a definite "no" too: "nothing changed, try again" (a conflict with
# another write) — the writer moves on to a new logical write instead of replaying this one's key.
BACKOFF_FIRST, BACKOFF_CAP = 0.05, 0.25   # seconds between retries of one write (doubling, capped)
RETRY_AFTER_CAP = 1.0           # seconds: the longest a writer honours a 409's Retry-After
GIVE_UP = 30.0                  # seconds a writer keeps retrying one write after being told to stop


def new_session(base: str) -> str:
    """A session of its own at `base` (nginx or a node), returned as its bearer token."""
    return _token(base, "/api/sessions", None, 201, "no session")


def signed_in_session(base: str, account) -> str:
    """A session of its own at `base`, made by signing in as `account` (a bindery_support.Account:
    adding steps to the shared recipe needs a user), returned as its bearer token."""
    return _token(base, "/api/session/sign-in", account.credentials, 200, f"no sign-in as {account.name}")


def _token(base: str, path: str, body: dict | None, expected: int, failure: str) -> str:
    """POSTs `body` to `path` until it is answered `expected` (10 s at most); its `token`."""
    deadline = time.monotonic() + 10
    while True:
        try:
            response = requests.post(base + path, json=body, timeout=(CONNECT_TIMEOUT, READ_TIMEOUT))
            if response.status_code == expected:
                return response.json()["token"]
            problem = f"status {response.status_code}: {response.text[:200]}"
        except requests.RequestException as error:
            problem = str(error)
        if time.monotonic() > deadline:
            raise RuntimeError(f"{failure} at {base}: {problem}")
        time.sleep(0.1)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def seeded_key(rng: random.Random) -> str:
    """A version-4 UUID drawn from the writer's seeded generator: fresh for every logical write,
    the same ones on every run with the same seed (keys are scoped to a session, and every run
    has fresh sessions on a fresh database)."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


# ------------------------------------------------------------------------------------ writers

@dataclass
class Attempt:
    """One HTTP request of a writer: when it left and came back, and how it was answered."""
    sent: float
    answered: float
    status: int                 # 0: no HTTP answer (connection refused or reset, timeout)
    error: str = ""
    replayed: bool = False      # the answer carried `Idempotent-Replayed: true`
    retry_after: str | None = None


@dataclass
class Write:
    """One logical write (a PATCH of the form or an addStep), sent until acknowledged or refused,
    every attempt with the same Idempotency-Key and the same body."""
    writer: str
    kind: str                   # "patch" or "addStep"
    key: str
    body: dict
    if_match: str | None = None
    attempts: list[Attempt] = field(default_factory=list)
    outcome: str = "pending"    # "acknowledged" (2xx), "refused" (412/422, 409 without Retry-After),
                                # "unexpected" (another status), "abandoned" (unanswered when the run ended)
    status: int = 0             # the final answer's status
    answer: dict | None = None  # the final answer's JSON
    etag: str | None = None

    @property
    def retries(self) -> int:
        return max(0, len(self.attempts) - 1)

    @property
    def replayed(self) -> bool:
        return bool(self.attempts) and self.attempts[-1].replayed

    @property
    def acknowledged_at(self) -> float | None:
        return self.attempts[-1].answered if self.outcome == "acknowledged" else None

    @property
    def step_name(self) -> str | None:
        return self.body.get("name") if self.kind == "addStep" else None

    def answer_facts(self) -> dict:
        """What the final answer said, in short: the version, and for addStep the recipe version,
        the command's state and whether the answer shows this write's step."""
        answer = self.answer or {}
        facts = {k: answer[k] for k in ("version", "title", "detail") if k in answer}
        if self.kind == "addStep" and "outputs" in answer:
            facts["recipeVersion"] = answer["outputs"].get("recipeVersion")
            facts["shows its step"] = any(s.get("inputs", {}).get("name") == self.step_name
                                          for s in answer["outputs"].get("steps", []))
            facts["addStep"] = (answer.get("commands") or {}).get("addStep")
        elif self.kind == "patch" and "inputs" in answer:
            facts["phone"] = answer["inputs"].get("phone")
        return facts

    def summary(self) -> dict:
        return {"writer": self.writer, "kind": self.kind, "key": self.key, "body": self.body, "ifMatch": self.if_match,
                "outcome": self.outcome, "status": self.status, "replayed": self.replayed, "answer": self.answer_facts(),
                "attempts": [(round(a.sent, 3), round(a.answered - a.sent, 3), a.status, a.error[:80], a.replayed)
                             for a in self.attempts]}


class ChaosWriter(threading.Thread):
    """One signed-in session through nginx, writing until stopped: PATCHes its own form's phone with
    If-Match (the last ETag it saw), or adds a uniquely named step to the shared recipe with
    addStep. Each logical write has a fresh Idempotency-Key and is sent again — same key, same
    body, same headers — after a connection error, a timeout, 502/503/504 or a 409 with
    Retry-After, until it is acknowledged (2xx) or refused (412/422, or a 409 without
    Retry-After). After anything but an acknowledged PATCH it reads the form again for the
    current ETag. Told to stop, it finishes the write in hand (retrying for up to GIVE_UP)."""

    def __init__(self, index: int, base: str, token: str, recipe: str, seed: int, step_share: float = 0.3):
        super().__init__(daemon=True, name=f"writer{index}")
        self.index, self.base, self.token, self.recipe = index, base, token, recipe
        self.rng = random.Random(seed)
        self.step_share = step_share
        self.http = requests.Session()
        self.writes: list[Write] = []
        self.reads: list[Attempt] = []          # GETs of the form (the ETag after a 412, at start)
        self.etag: str | None = None
        self.crashed: str | None = None
        self._halt = threading.Event()
        self._n = 0

    # -- the loop

    def stop(self) -> None:
        self._halt.set()

    def run(self) -> None:
        try:
            self.etag = self._read_form()
            while not self._halt.is_set():
                if self.rng.random() < self.step_share:
                    self._add_step()
                else:
                    self._patch_form()
                self._halt.wait(self.rng.uniform(0.03, 0.12))
        except Exception as error:  # recorded and failed by the checks: a thread must not die silently
            self.crashed = f"{type(error).__name__}: {error}"

    def _patch_form(self) -> None:
        self._n += 1
        write = Write(self.name, "patch", seeded_key(self.rng), {"phone": f"w{self.index}-{self._n:05d}"}, self.etag)
        headers = {"Content-Type": MERGE}
        if self.etag:
            headers["If-Match"] = self.etag
        self._send(write, "PATCH", "/api/views/form", headers)
        if write.outcome == "acknowledged":
            self.etag = write.etag or self.etag
        else:   # 412: another version came first (or this write's first attempt did); read it
            self.etag = self._read_form() or self.etag

    def _add_step(self) -> None:
        self._n += 1
        body = {"name": f"chaos-w{self.index}-{self._n:05d}", "durationSeconds": 1 + self._n % 600}
        write = Write(self.name, "addStep", seeded_key(self.rng), body)
        headers = {"Content-Type": JSON, "Prefer": f"wait={COMMAND_WAIT}"}
        self._send(write, "POST", f"/api/views/recipes/{self.recipe}/edit/commands/addStep", headers)

    # -- one logical write, retried

    def _send(self, write: Write, method: str, path: str, headers: dict) -> None:
        self.writes.append(write)
        headers = {"Accept": JSON, **bearer(self.token), "Idempotency-Key": write.key, **headers}
        data = json.dumps(write.body)
        stop_by: float | None = None
        retry = 0
        while True:
            attempt, response = self._request(method, path, headers, data,
                                              timeout=READ_TIMEOUT + (COMMAND_WAIT if method == "POST" else 0))
            write.attempts.append(attempt)
            status = attempt.status
            if 200 <= status < 300:
                write.outcome, write.status = "acknowledged", status
                write.answer, write.etag = _json(response), response.headers.get("ETag")
                return
            if status in REFUSED or (status == 409 and attempt.retry_after is None):
                write.outcome, write.status, write.answer = "refused", status, _json(response)
                return
            if not (status == 0 or status in RETRYABLE or status == 409):
                write.outcome, write.status, write.answer = "unexpected", status, _json(response)
                return
            if self._halt.is_set():
                stop_by = stop_by or time.monotonic() + GIVE_UP
                if time.monotonic() > stop_by:
                    write.outcome, write.status = "abandoned", status
                    return
            retry += 1
            pause = min(BACKOFF_FIRST * 2 ** (retry - 1), BACKOFF_CAP) * self.rng.uniform(0.6, 1.0)
            if status == 409:
                pause = max(pause, min(_seconds(attempt.retry_after), RETRY_AFTER_CAP))
            time.sleep(pause)

    def _request(self, method: str, path: str, headers: dict, data: str | None, timeout: float):
        sent = time.monotonic()
        try:
            response = self.http.request(method, self.base + path, headers=headers, data=data,
                                         timeout=(CONNECT_TIMEOUT, timeout))
        except requests.RequestException as error:
            return Attempt(sent, time.monotonic(), 0, f"{type(error).__name__}: {error}"[:300]), None
        return Attempt(sent, time.monotonic(), response.status_code,
                       "" if response.ok else response.text[:300],
                       response.headers.get("Idempotent-Replayed", "").lower() == "true",
                       response.headers.get("Retry-After")), response

    def _read_form(self) -> str | None:
        """The form's current ETag, read until answered 200 (None when GIVE_UP seconds pass first)."""
        stop_by = time.monotonic() + GIVE_UP
        retry = 0
        while time.monotonic() < stop_by:
            attempt, response = self._request("GET", "/api/views/form", {"Accept": JSON, **bearer(self.token)}, None,
                                              READ_TIMEOUT)
            self.reads.append(attempt)
            if attempt.status == 200:
                return response.headers.get("ETag")
            retry += 1
            time.sleep(min(BACKOFF_FIRST * 2 ** (retry - 1), BACKOFF_CAP))
        return None

    # -- figures

    def attempts(self) -> list[Attempt]:
        """Every request this writer sent, writes and reads, in order."""
        return sorted([a for w in self.writes for a in w.attempts] + self.reads, key=lambda a: a.sent)

    def successes_after(self, moment: float) -> list[float]:
        """When each of this writer's 2xx answers arrived, for requests answered at or after `moment`."""
        return [a.answered for a in self.attempts() if 200 <= a.status < 300 and a.answered >= moment]

    def answers_after(self, moment: float) -> list[float]:
        """When each answer from a node (any status but 502/503/504) arrived, at or after `moment`."""
        return [a.answered for a in self.attempts() if a.status and a.status not in RETRYABLE and a.answered >= moment]


def _json(response) -> dict | None:
    if response is None:
        return None
    try:
        return response.json()
    except ValueError:
        return {"text": response.text[:300]}


def _seconds(retry_after: str | None) -> float:
    try:
        return max(0.0, float(retry_after))
    except (TypeError, ValueError):
        return BACKOFF_CAP


# ------------------------------------------------------------------------------------ JSON Patch

def _tokens(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise ValueError(f"not a JSON Pointer: {path}")
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def apply_patch(document, operations: list[dict]):
    """RFC 6902 `test`, `add`, `remove`, `replace` applied to a copy of `document` (what the
    browser client's patch.js does). Raises ValueError when an operation does not apply."""
    result = copy.deepcopy(document)
    for operation in operations:
        op, keys, value = operation["op"], _tokens(operation["path"]), operation.get("value")
        if not keys:
            if op == "test":
                if result != value:
                    raise ValueError("test of the whole document failed")
            else:
                result = copy.deepcopy(value)
            continue
        parent = result
        for key in keys[:-1]:
            try:
                parent = parent[int(key)] if isinstance(parent, list) else parent[key]
            except (KeyError, IndexError, ValueError, TypeError):
                raise ValueError(f"no {operation['path']}") from None
        last = keys[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if not 0 <= index <= len(parent) or (op != "add" and index == len(parent)):
                raise ValueError(f"bad index in {operation['path']}")
            if op == "test":
                if parent[index] != value:
                    raise ValueError(f"test of {operation['path']} failed: {parent[index]!r} != {value!r}")
            elif op == "add":
                parent.insert(index, copy.deepcopy(value))
            elif op == "replace":
                parent[index] = copy.deepcopy(value)
            elif op == "remove":
                del parent[index]
            else:
                raise ValueError(f"unsupported op {op}")
        elif isinstance(parent, dict):
            if op == "test":
                if parent.get(last) != value or last not in parent:
                    raise ValueError(f"test of {operation['path']} failed: {parent.get(last)!r} != {value!r}")
            elif op in ("add", "replace"):
                if op == "replace" and last not in parent:
                    raise ValueError(f"replace of missing {operation['path']}")
                parent[last] = copy.deepcopy(value)
            elif op == "remove":
                if last not in parent:
                    raise ValueError(f"remove of missing {operation['path']}")
                del parent[last]
            else:
                raise ValueError(f"unsupported op {op}")
        else:
            raise ValueError(f"{operation['path']} is below a value")
    return result


def patch_base(operations: list[dict]) -> int | None:
    """The version a patch event was made against: the value its first operation tests at /version."""
    if operations and operations[0].get("op") == "test" and operations[0].get("path") == "/version":
        return operations[0].get("value")
    return None


# ------------------------------------------------------------------------------------ watchers

@dataclass
class Seen:
    """One version a watcher received."""
    at: float
    version: int
    event_id: int | None
    kind: str                   # "snapshot" (a whole one) or "patch"
    base: int | None            # a patch's base: the version its first op tests
    connection: int
    first_of_connection: bool
    recipe_version: int | None  # outputs.recipeVersion (the recipe editor): the shared record's version
    phone: str | None           # inputs.phone (the form)


class ChaosWatcher(threading.Thread):
    """Follows `/api/views/{path}/events` of one session on one node directly (never through
    nginx) until stopped, reconnecting with Last-Event-ID (the last version received) whenever
    the stream ends or the node is away. With `patches`, follows `?patches=1`: after the first
    whole snapshot the events are JSON Patches, applied to the document held here; one that does
    not apply (or whose base is not the version received last) is recorded, and the stream is
    opened again without Last-Event-ID for a whole snapshot."""

    def __init__(self, name: str, base: str, token: str, path: str, patches: bool, heartbeat: float):
        super().__init__(daemon=True, name=name)
        parts = urlsplit(base)
        self.host, self.port, self.base = parts.hostname, parts.port, base
        self.token, self.path, self.patches = token, path, patches
        self.read_timeout = 3 * heartbeat
        self.seen: list[Seen] = []
        self.problems: list[str] = []       # patch bases that did not match, patches that did not apply
        self.errors: list[str] = []         # dropped connections, refused streams (expected while a node is away)
        self.statuses: list[int] = []
        self.connections = 0
        self.document: dict | None = None   # the view model as this watcher holds it (patch streams)
        self._halt = threading.Event()
        self._changed = threading.Condition()
        self._conn: http.client.HTTPConnection | None = None
        self._resume = True

    @property
    def last(self) -> Seen | None:
        return self.seen[-1] if self.seen else None

    def run(self) -> None:
        while not self._halt.is_set():
            try:
                self._stream()
            except (OSError, http.client.HTTPException, ValueError) as error:
                if not self._halt.is_set():
                    self.errors.append(f"{time.monotonic():.3f} {type(error).__name__}: {error}"[:200])
            self._halt.wait(0.1)

    def _stream(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.read_timeout)
        self._conn = conn
        try:
            headers = {**bearer(self.token), "Accept": "text/event-stream"}
            if self.last is not None and self._resume:
                headers["Last-Event-ID"] = str(self.last.version)
            self._resume = True
            self.connections += 1
            number = self.connections
            conn.request("GET", f"/api/views/{self.path}/events" + ("?patches=1" if self.patches else ""), headers=headers)
            response = conn.getresponse()
            self.statuses.append(response.status)
            if response.status != 200:
                self.errors.append(f"{time.monotonic():.3f} status {response.status}: {response.read(200)!r}")
                return
            first, fields = True, {}
            while not self._halt.is_set():
                raw = response.readline()
                if not raw:
                    return          # the stream ended (the node stopped): resume
                line = raw.decode("utf-8").rstrip("\r\n")
                if line.startswith(":"):
                    continue        # a heartbeat
                if line == "":
                    if "data" in fields and fields.get("event", "message") in ("message", "patch"):
                        if not self._receive(fields, number, first):
                            return  # a patch that does not apply: start again from a whole snapshot
                        first = False
                    fields = {}
                    continue
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "data":
                    fields["data"] = fields["data"] + "\n" + value if "data" in fields else value
                elif name in ("event", "id"):
                    fields[name] = value
        finally:
            self._conn = None
            conn.close()

    def _receive(self, fields: dict, connection: int, first: bool) -> bool:
        data = json.loads(fields["data"])
        event_id = int(fields["id"]) if fields.get("id", "").isdigit() else None
        kind, base = "snapshot", None
        if fields.get("event") == "patch":
            kind, base = "patch", patch_base(data)
            previous = self.last.version if self.last else None
            if self.document is None or base is None or base != previous:
                self.problems.append(f"connection {connection}: a patch to version {event_id} made against {base}, "
                                     f"but the version received last is {previous}")
                self._resume = False
                return False
            try:
                document = apply_patch(self.document, data)
            except ValueError as error:
                self.problems.append(f"connection {connection}: the patch to version {event_id} does not apply: {error}")
                self._resume = False
                return False
        else:
            document = data
        self.document = document
        outputs, inputs = document.get("outputs") or {}, document.get("inputs") or {}
        seen = Seen(time.monotonic(), document["version"], event_id, kind, base, connection, first,
                    outputs.get("recipeVersion"), inputs.get("phone"))
        with self._changed:
            self.seen.append(seen)
            self._changed.notify_all()
        return True

    def wait_for(self, condition, timeout: float) -> bool:
        """Waits until `condition(self)` holds; False when `timeout` seconds passed first."""
        return wait_on(self._changed, lambda: condition(self), timeout)

    def stop(self, timeout: float = 5.0) -> None:
        self._halt.set()
        conn = self._conn
        if conn is not None and conn.sock is not None:
            try:
                conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.join(timeout)


# ------------------------------------------------------------------------------------ the browser

class Typist(threading.Thread):
    """A headless Chromium on the login form through nginx, typing one character at a time into
    the phone field at the planned moments (seeded), whatever the servers are doing. What it
    typed is `typed`; the field starts as the form's initial "186"."""

    def __init__(self, driver, base: str, plan: list[tuple[float, str]]):
        super().__init__(daemon=True, name="typist")
        self.driver, self.base, self.plan = driver, base, plan
        self.typed = ""
        self.keys: list[tuple[float, str]] = []
        self.states: list[tuple[float, dict]] = []     # the page's state after each key
        self.crashed: str | None = None
        self.cookie = ""                                # the page's session cookie (a Cookie header)
        self._halt = threading.Event()

    def open(self, timeout: float = 20.0) -> None:
        """Loads /form and waits until its event stream is open and the phone field shows "186"."""
        from selenium.webdriver.support.ui import WebDriverWait
        self.driver.get(self.base + "/form")
        WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(
            lambda d: d.execute_script("return document.documentElement.dataset.stream") == "open"
            and d.execute_script("const p = document.getElementById('phone'); return p && p.value") == "186")

    def run(self) -> None:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        try:
            phone = self.driver.find_element(By.ID, "phone")
            phone.click()
            phone.send_keys(Keys.END)
            for moment, key in self.plan:
                if self._halt.wait(max(0.0, moment - time.monotonic())):
                    return
                for _ in range(3):
                    try:
                        phone.send_keys(key)
                        break
                    except StaleElementReferenceException:   # the screen was rendered again
                        phone = self.driver.find_element(By.ID, "phone")
                        phone.send_keys(Keys.END)
                self.typed += key
                self.keys.append((time.monotonic(), key))
                try:
                    self.states.append((time.monotonic(), self.page_state()))
                except Exception as error:  # a page being rendered again: only a record is missed
                    self.states.append((time.monotonic(), {"error": str(error)[:200]}))
        except Exception as error:
            self.crashed = f"{type(error).__name__}: {error}"[:500]

    def stop(self) -> None:
        self._halt.set()
        self.join(10)

    def page_state(self) -> dict:
        """The field's value, the stream's state, the version the page shows, whether its writers
        hold unsent edits, and whether it decided the server forgot its session (the version went
        back) and is asking the user what to do."""
        return self.driver.execute_script("""
            const b = window.__bindery && window.__bindery.binder;
            const writers = b && b.writers ? [...b.writers.values()] : [];
            return {value: document.getElementById('phone').value,
                    stream: document.documentElement.dataset.stream,
                    version: b ? b.version : null,
                    unsent: writers.some((w) => w.unsent || w.recovering),
                    forgotten: b && b.forgotten ? b.forgotten.version : null,
                    asking: !!document.querySelector('.session-keep')};""")

    def cookie_header(self) -> str:
        return "; ".join(f"{c['name']}={c['value']}" for c in self.driver.get_cookies())
