"""Sessions survive `kill -9` (issue 10): the real binary on a SQLite file drives 30 sessions
(forms, lists, a gallery position), is killed with SIGKILL while one client is writing, is started
again on the same file and port, and every acknowledged write must be there — but the password,
a sensitive input, which never reaches the store (issue 37): it is empty after the restart.

One scenario (module fixture `scenario`) does the driving, the kill and the restart, and reads
every session back once right after the restart (the lazy restore); the tests below each check
one promise. Tests that write use their own sessions, so they do not depend on their order.
"""

from __future__ import annotations

import http.client
import json
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest
import requests

from bindery_process import upstream_patch

SESSIONS = 30
WRITER = 0                      # its form is PATCHed in a loop while the server is killed
IF_MATCH = range(1, 10)         # sessions whose form is PATCHed with the pre-kill ETag
SSE = range(10, 20)             # sessions whose list and form streams are resumed with Last-Event-ID
LONG = 20                       # its list is PATCHed more times than the store's version log keeps
GALLERY = range(0, SESSIONS, 5)  # sessions that opened gallery/photos/3
INTERRUPTED = SESSIONS - 1      # its list load is running (30 s upstream latency) at the kill
TIMEOUT = 5                     # seconds, every HTTP request
MERGE = "application/merge-patch+json"
LOG_REACH = 64                  # the store's version log keeps this many versions per view model


@dataclass
class Ack:
    """A view model's state as the server last acknowledged it (a 2xx answer)."""
    version: int
    etag: str
    body: dict


@dataclass
class Client:
    index: int
    token: str
    form: list[Ack] = field(default_factory=list)   # every acknowledged form version, in order
    lists: list[Ack] = field(default_factory=list)  # every acknowledged list version, in order
    list: Ack | None = None                         # the last of them
    photo: Ack | None = None
    in_flight: dict | None = None                   # the form write that got no answer (the kill)

    @property
    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}


def call(base: str, method: str, path: str, client: Client | None = None, body=None, headers=None,
         content_type: str = MERGE) -> requests.Response:
    all_headers = {"Accept": "application/json", **(client.auth if client else {}), **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body)
        all_headers["Content-Type"] = content_type
    return requests.request(method, base + path, data=data, headers=all_headers, timeout=TIMEOUT)


def ack(response: requests.Response) -> Ack:
    body = response.json()
    assert response.headers["ETag"] == f'"{body["version"]}"', response.headers
    return Ack(body["version"], response.headers["ETag"], body)


def expect(response: requests.Response, status: int) -> requests.Response:
    assert response.status_code == status, f"{response.request.method} {response.url}: {response.status_code} {response.text[:300]}"
    return response


def item_ids(snapshot: dict) -> list[str]:
    return [item["id"] for item in snapshot["outputs"]["items"]]


def new_session(base: str, index: int) -> Client:
    response = expect(requests.post(base + "/api/sessions", timeout=TIMEOUT), 201)
    return Client(index, response.json()["token"])


def drive(base: str, client: Client) -> None:
    """Before the kill: form PATCHes, a list with a city, a load and another city, maybe a photo."""
    i = client.index
    for patch in ({"phone": f"186{i:02d}"}, {"password": f"secret{i}"}, {"phone": f"186{i:02d}{i:03d}"}):
        client.form.append(ack(expect(call(base, "PATCH", "/api/views/form", client, patch), 200)))
    cities = [c["id"] for c in expect(call(base, "GET", "/api/views/list", client), 200).json()["outputs"]["cities"]]
    assert len(cities) >= 3, cities
    first = cities[1 + i % (len(cities) - 1)]
    client.lists.append(ack(expect(call(base, "PATCH", "/api/views/list", client, {"currentCityId": first}), 200)))
    loaded = ack(expect(call(base, "POST", "/api/views/list/commands/load", client, headers={"Prefer": "wait=5"}), 200))
    assert loaded.body["outputs"]["items"], loaded.body
    assert not loaded.body["commands"]["load"]["executing"]
    client.lists.append(loaded)
    # A different city after the load: the scenic cells' right footers follow it.
    client.lists.append(ack(expect(call(base, "PATCH", "/api/views/list", client, {"currentCityId": cities[i % 2]}), 200)))
    assert client.lists[-1].body["inputs"]["currentCityId"] == cities[i % 2]
    assert item_ids(client.lists[-1].body) == item_ids(loaded.body)
    if i == LONG:  # more versions than the store's log keeps: each PATCH names another city
        for n in range(LOG_REACH + 16):
            city = cities[n % 2] if client.lists[-1].body["inputs"]["currentCityId"] != cities[n % 2] else cities[2]
            client.lists.append(ack(expect(call(base, "PATCH", "/api/views/list", client, {"currentCityId": city}), 200)))
    client.list = client.lists[-1]
    if i in GALLERY:
        client.photo = ack(expect(call(base, "GET", "/api/views/gallery/photos/3", client), 200))
        assert client.photo.body["outputs"]["initialPhotoIndex"] == 3


class Writer(threading.Thread):
    """PATCHes one session's form (its phone) as fast as it can until a request fails (the kill)."""

    def __init__(self, base: str, client: Client):
        super().__init__(daemon=True)
        self.base, self.client = base, client
        self.acks = 0
        self.error: BaseException | None = None
        self.unexpected: list[str] = []

    def run(self) -> None:
        n = 0
        while True:
            n += 1
            patch = {"phone": str(13800000000 + n)}
            self.client.in_flight = patch
            try:
                response = call(self.base, "PATCH", "/api/views/form", self.client, patch)
            except requests.RequestException as error:
                self.error = error
                return
            if response.status_code != 200:
                self.unexpected.append(f"{response.status_code} {response.text[:200]}")
                return
            self.client.form.append(ack(response))
            self.client.in_flight = None
            self.acks += 1


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


@dataclass
class Scenario:
    base: str
    clients: list[Client]
    writer_acks: int
    deferred: Ack                   # the 202 of the load that was running at the kill
    restored_form: dict[int, Ack]
    restored_list: dict[int, Ack]
    restored_photo: dict[int, Ack]
    kill_to_ready_s: float


@pytest.fixture(scope="module")
def scenario(bindery_factory) -> Scenario:
    # The scenario slows the fake upstream down (PATCH /api/upstream): this server lets anyone.
    server = bindery_factory("restart", ["--open-upstream-control"])
    server.start()
    base = server.base
    clients = [new_session(base, i) for i in range(SESSIONS)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda c: drive(base, c), clients))

    writer = Writer(base, clients[WRITER])
    writer.start()
    wait_until(lambda: writer.acks >= 20 or not writer.is_alive(), 20, "20 acknowledged writes")
    # A deferred load that cannot finish before the kill: the travel endpoint now takes 30 s.
    upstream_patch(base, {"travel": {"latencyMs": 30000}})
    running = expect(call(base, "POST", "/api/views/list/commands/load", clients[INTERRUPTED]), 202)
    deferred = ack(running)
    assert deferred.body["commands"]["load"]["executing"] is True
    # Many writes, then the kill in the middle of one.
    wait_until(lambda: writer.acks >= LOG_REACH + 16 or not writer.is_alive(), 20, f"{LOG_REACH + 16} writes")
    assert writer.is_alive(), f"the writer stopped before the kill: {writer.error or writer.unexpected}"

    killed_at = time.monotonic()
    server.kill9()
    writer.join(timeout=TIMEOUT + 5)
    assert not writer.is_alive(), "the writer did not notice the kill"
    assert not writer.unexpected, writer.unexpected
    server.start()
    kill_to_ready = time.monotonic() - killed_at

    def read_back(client: Client):
        form = ack(expect(call(base, "GET", "/api/views/form", client), 200))
        lst = ack(expect(call(base, "GET", "/api/views/list", client), 200))
        photo = ack(expect(call(base, "GET", "/api/views/gallery/photos/3", client), 200)) if client.photo else None
        return client.index, form, lst, photo

    # Read back concurrently: many sessions restored lazily at once.
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(read_back, clients))
    return Scenario(
        base, clients, writer.acks, deferred,
        {i: f for i, f, _, _ in results}, {i: l for i, _, l, _ in results},
        {i: p for i, _, _, p in results if p}, kill_to_ready,
    )


# ---------------------------------------------------------------------------------- the checks

def without_password(inputs: dict) -> dict:
    """A form's inputs as a restart shows them: the password is a sensitive input, never stored."""
    return {**inputs, "password": ""}


def test_every_acknowledged_form_write_is_there(scenario):
    for client in scenario.clients:
        last, restored = client.form[-1], scenario.restored_form[client.index]
        if restored.version == last.version:
            assert restored.body["inputs"] == without_password(last.body["inputs"]), f"session {client.index}"
        else:
            # Only the write in flight at the kill may have been committed without an answer.
            assert client.index == WRITER and client.in_flight is not None, (
                f"session {client.index}: version {restored.version} after the last acknowledged {last.version}")
            assert restored.version == last.version + 1
            assert restored.body["inputs"] == without_password({**last.body["inputs"], **client.in_flight})
    assert scenario.writer_acks >= LOG_REACH + 16


def test_a_typed_password_is_empty_after_the_restart(scenario):
    """Every session but the writer's typed a password before the kill (`secret<i>`), and its
    answers showed it; the restart shows the password empty, in the inputs and in the outputs that
    echo it, and the validity that depends on it follows."""
    for client in scenario.clients:
        if client.index == WRITER:
            continue
        assert client.form[-1].body["inputs"]["password"] == f"secret{client.index}"
        restored = scenario.restored_form[client.index].body
        assert restored["inputs"]["password"] == "", f"session {client.index}: {restored['inputs']}"
        assert restored["outputs"]["output"].endswith("密码:"), restored["outputs"]
        assert restored["outputs"]["passwordValid"] is False


def test_lists_keep_their_city_and_items(scenario):
    for client in scenario.clients:
        restored = scenario.restored_list[client.index].body
        assert restored["inputs"] == client.list.body["inputs"], f"session {client.index}"
        assert item_ids(restored) == item_ids(client.list.body), f"session {client.index}"
        if client.index != INTERRUPTED:
            assert restored == client.list.body, f"session {client.index}: the restored list differs"


def test_versions_continue_never_lower(scenario):
    for client in scenario.clients:
        assert scenario.restored_form[client.index].version >= client.form[-1].version
        restored_list = scenario.restored_list[client.index]
        if client.index == INTERRUPTED:
            assert restored_list.version > scenario.deferred.version
        else:
            assert restored_list.version == client.list.version
    for index, photo in scenario.restored_photo.items():
        assert photo.version >= scenario.clients[index].photo.version
        assert photo.body["outputs"]["initialPhotoIndex"] == 3


def test_a_deferred_command_running_at_the_kill_comes_back_interrupted(scenario):
    restored = scenario.restored_list[INTERRUPTED].body
    load = restored["commands"]["load"]
    assert load["executing"] is False, load
    assert load["error"] is not None and "interrupted" in load["error"]["message"].lower(), load
    # What the earlier successful load brought is still there.
    assert item_ids(restored) == item_ids(scenario.clients[INTERRUPTED].list.body)


def test_an_etag_from_before_the_kill_still_matches(scenario):
    for index in IF_MATCH:
        client = scenario.clients[index]
        last, older = client.form[-1], client.form[-2]
        stale = call(scenario.base, "PATCH", "/api/views/form", client, {"phone": "1860"}, {"If-Match": older.etag})
        expect(stale, 412)
        patched = ack(expect(call(scenario.base, "PATCH", "/api/views/form", client, {"phone": "18699999999"},
                                  {"If-Match": last.etag}), 200))
        assert patched.version == last.version + 1
        assert patched.body["inputs"] == without_password({**last.body["inputs"], "phone": "18699999999"})
    # The writer's: it matches exactly when the write in flight at the kill was not committed.
    writer = scenario.clients[WRITER]
    response = call(scenario.base, "PATCH", "/api/views/form", writer, {"phone": "1"},
                    {"If-Match": writer.form[-1].etag})
    committed_in_flight = scenario.restored_form[WRITER].version > writer.form[-1].version
    expect(response, 412 if committed_in_flight else 200)


def read_events(base: str, client: Client, path: str, last_event_id: int, timeout: float = 5.0) -> list[dict]:
    """Opens `path`'s event stream resuming after `last_event_id` and reads events until one
    carries the version a GET answers once the stream is open; returns [{id, data}]."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        conn.request("GET", f"/api/views/{path}/events", headers={
            **client.auth, "Accept": "text/event-stream", "Last-Event-ID": str(last_event_id)})
        response = conn.getresponse()
        assert response.status == 200, response.read()[:300]
        # The stream is registered (and the view model active) once its headers are sent.
        target = ack(expect(call(base, "GET", f"/api/views/{path}", client), 200)).version
        events, event, deadline = [], {}, time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = response.readline().decode().rstrip("\n")
            if line.startswith("id: "):
                event["id"] = int(line[4:])
            elif line.startswith("data: "):
                event["data"] = json.loads(line[6:])
            elif line == "" and event:
                events.append(event)
                if event.get("id") == target:
                    return events
                event = {}
        raise AssertionError(f"no event with id {target} within {timeout} s: got {[e.get('id') for e in events]}")
    finally:
        conn.close()


def check_resumed(events: list[dict], after: int, at_least: int) -> str:
    ids = [e["id"] for e in events]
    for event in events:
        assert event["data"]["version"] == event["id"]
    assert all(b > a for a, b in zip(ids, ids[1:])), f"an id went backwards: {ids}"
    assert ids[0] > after and ids[-1] >= at_least, ids
    if ids == list(range(after + 1, ids[-1] + 1)):
        return "replayed"
    assert len(ids) == 1, f"neither consecutive from {after + 1} nor one full snapshot: {ids}"
    return "snapshot"


def test_event_streams_resume_without_a_gap(scenario):
    for index in SSE:
        client = scenario.clients[index]
        after = client.lists[0].version
        events = read_events(scenario.base, client, "list", after)
        assert check_resumed(events, after, client.lists[-1].version) == "replayed", [e["id"] for e in events]
        # The missed versions are the acknowledged ones, state and all.
        by_id = {e["id"]: e["data"] for e in events}
        for acked in client.lists[1:]:
            assert by_id[acked.version]["inputs"] == acked.body["inputs"]


def test_a_stream_of_a_view_model_with_a_sensitive_input_resumes_with_one_snapshot(scenario):
    """The form logs no versions (its password is sensitive: a logged snapshot would keep it), so
    a stream resuming after the restart gets the current snapshot, password empty, whatever it
    missed."""
    for index in SSE:
        client = scenario.clients[index]
        after = client.form[0].version
        events = read_events(scenario.base, client, "form", after)
        assert check_resumed(events, after, client.form[-1].version) == "snapshot", [e["id"] for e in events]
        assert events[0]["data"]["inputs"] == without_password(client.form[-1].body["inputs"])


def test_an_event_stream_resuming_before_the_log_gets_one_full_snapshot(scenario):
    long = scenario.clients[LONG]
    after = long.lists[0].version       # more than LOG_REACH versions ago
    events = read_events(scenario.base, long, "list", after)
    assert check_resumed(events, after, long.lists[-1].version) == "snapshot", [e["id"] for e in events]
    # A resume inside the log replays from there.
    recent = long.lists[-5]
    events = read_events(scenario.base, long, "list", recent.version)
    assert check_resumed(events, recent.version, long.lists[-1].version) == "replayed"


def test_an_invented_token_gets_401(scenario):
    invented = Client(-1, secrets.token_hex(16))
    for method, path, body in (("GET", "/api/views/form", None), ("PATCH", "/api/views/form", {"phone": "1"}),
                               ("GET", "/api/views/list", None)):
        expect(call(scenario.base, method, path, invented, body), 401)
    # And the real ones still work after all of the above.
    expect(call(scenario.base, "GET", "/api/views/form", scenario.clients[WRITER]), 200)


def test_restart_is_quick(scenario):
    writer = scenario.clients[WRITER]
    in_flight = "none" if writer.in_flight is None else (
        "committed" if scenario.restored_form[WRITER].version > writer.form[-1].version else "lost (never acknowledged)")
    print(f"kill -9 to ready: {scenario.kill_to_ready_s:.2f} s; writer acknowledged {scenario.writer_acks} writes; "
          f"write in flight at the kill: {in_flight}")
    assert scenario.kill_to_ready_s < 15
