"""The chaos run itself: writers through nginx, watchers on every node, a browser typing, and the
faults in order — kill -9 a node and start it again, restart every node in turn (SIGTERM, start),
cut nginx for 10 s — then the clients are stopped and the final state is read back for the checks.

`run_chaos` never leaves a client running: writers, watchers and the browser's typing are
stopped in `finally` blocks; the servers belong to the fixtures (conftest.py)."""

from __future__ import annotations

import json
import random
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from bindery_support import HAN_MEIMEI, LI_LEI
from chaos_clients import (JSON, READ_TIMEOUT, ChaosWatcher, ChaosWriter, Typist, bearer, new_session,
                           signed_in_session)
from multinode_cluster import ARTIFACTS

BUDGET = 180.0          # seconds for the whole directory (Tests/chaos), set-up and tear-down included
WRITERS = 4
WARM_UP = 8.0           # seconds of load before the first fault
KILL_DOWN = 4.0         # seconds the killed node stays down
SETTLE = 8.0            # seconds of load after the kill and after the rolling restart
ROLL_SETTLE = 4.0       # seconds between two nodes' restarts
CUT = 10.0              # seconds nginx is away
AFTER_CUT = 12.0        # seconds of load after nginx is back
PLANNED = WARM_UP + KILL_DOWN + SETTLE + 3 * ROLL_SETTLE + SETTLE + CUT + AFTER_CUT + 6   # + node starts
KEYS_TYPED = 60         # the phone input takes 64 characters; it starts as "186"
CATCH_UP = 10.0         # seconds watchers get to reach the final versions
CONVERGE = 15.0         # seconds the nodes get to agree on the final state
BROWSER_SETTLE = 25.0   # seconds the page gets to send what it holds (its back-off reaches 15 s)


@dataclass
class Phase:
    name: str
    began: float
    ended: float
    detail: str = ""

    @property
    def seconds(self) -> float:
        return self.ended - self.began


@dataclass
class ChaosRun:
    seed: int
    recipe: str
    original_steps: list[str]
    writers: list[ChaosWriter]
    watchers: list[ChaosWatcher]
    typist: Typist | None
    phases: list[Phase] = field(default_factory=list)
    started: float = 0.0
    cut_over: float | None = None             # when nginx accepted connections again
    cut_restarting: float | None = None       # when nginx was started again
    stopped: float = 0.0                      # when the writers were told to stop
    final_steps: list[str] = field(default_factory=list)
    final_phones: dict[str, str | None] = field(default_factory=dict)   # writer name -> phone read back
    final_versions: dict[str, int] = field(default_factory=dict)        # watcher name -> version read back
    caught_up: dict[str, bool] = field(default_factory=dict)
    browser: dict = field(default_factory=dict)
    final_recipe_version: int = 0
    convergence: dict[str, float] = field(default_factory=dict)         # seconds until the nodes agreed
    disagreements: list[str] = field(default_factory=list)              # what the nodes never agreed on
    node_exits: list[str] = field(default_factory=list)                 # exits nobody asked for, bad exit codes
    nginx_statuses: dict[str, int] = field(default_factory=dict)
    nginx_5xx: list[str] = field(default_factory=list)

    def writes(self):
        return [w for writer in self.writers for w in writer.writes]


# ------------------------------------------------------------------------------------ set-up

def _call(base: str, method: str, path: str, token: str, body=None, headers=None, timeout: float = READ_TIMEOUT):
    data = None if body is None else json.dumps(body)
    all_headers = {"Accept": JSON, **bearer(token), **({"Content-Type": JSON} if body is not None else {}), **(headers or {})}
    return requests.request(method, base + path, data=data, headers=all_headers, timeout=(1.0, timeout))


def create_recipe(base: str, name: str) -> str:
    """A new recipe (no steps) on the node `base`, added by Li Lei signed in there; answers its id."""
    token = signed_in_session(base, LI_LEI)
    response = _call(base, "POST", "/api/views/recipes/commands/add", token, {"name": name}, {"Prefer": "wait=10"}, 15)
    assert response.status_code == 200, f"adding the chaos recipe: {response.status_code} {response.text[:300]}"
    match = re.fullmatch(r"/recipes/([^/]+)/edit", response.json().get("navigate", ""))
    assert match, f"adding a recipe should navigate to its editor: {response.text[:300]}"
    return match.group(1)


def read_json(base: str, path: str, token: str | None = None, cookie: str | None = None, timeout: float = 10.0) -> dict:
    """GET `path` at `base` until it answers 200 (bounded)."""
    headers = {"Accept": JSON, **(bearer(token) if token else {}), **({"Cookie": cookie} if cookie else {})}
    deadline, last = time.monotonic() + timeout, ""
    while time.monotonic() < deadline:
        try:
            response = requests.get(base + path, headers=headers, timeout=(1.0, READ_TIMEOUT))
            if response.status_code == 200:
                return response.json()
            last = f"{response.status_code} {response.text[:200]}"
        except requests.RequestException as error:
            last = str(error)
        time.sleep(0.1)
    raise AssertionError(f"GET {base}{path} did not answer 200 within {timeout} s: {last}")


def step_names(snapshot: dict) -> list[str]:
    return [step["inputs"]["name"] for step in snapshot["outputs"]["steps"]]


def typing_plan(rng: random.Random, start: float) -> list[tuple[float, str]]:
    """KEYS_TYPED digits at seeded moments spread over the planned run (so some fall in each fault)."""
    moments = sorted(rng.uniform(1.0, PLANNED - 4.0) for _ in range(KEYS_TYPED))
    return [(start + moment, str(rng.randrange(10))) for moment in moments]


# ------------------------------------------------------------------------------------ faults

class Faults:
    """Runs the faults against the cluster, timing each, and notices a node that exits when
    nobody asked it to (a crash) — it is recorded and started again, so the run goes on."""

    def __init__(self, cluster, run: ChaosRun):
        self.cluster, self.run = cluster, run
        self.down: set[str] = set()     # the nodes a fault is taking down right now

    def hold(self, seconds: float) -> None:
        """Lets the load run for `seconds`, watching for nodes that exit by themselves."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for node in self.cluster.nodes:
                if node.process is not None and not node.running and node.name not in self.down:
                    self.run.node_exits.append(f"{node.name} exited by itself with status {node.process.returncode} "
                                               f"at +{time.monotonic() - self.run.started:.1f} s (log {node.log_path})")
                    node.stop()
                    node.start()
            time.sleep(0.05)

    def phase(self, name: str, began: float, detail: str = "") -> None:
        self.run.phases.append(Phase(name, began, time.monotonic(), detail))

    def kill_and_restart(self, node) -> None:
        began = time.monotonic()
        self.down.add(node.name)
        node.kill9()
        time.sleep(KILL_DOWN)
        starting = time.monotonic()
        node.start()
        node.wait_ready()
        self.down.discard(node.name)
        self.phase(f"kill -9 {node.name}, {KILL_DOWN:.0f} s down, start", began,
                   f"starting took {time.monotonic() - starting:.2f} s")

    def restart_in_turn(self) -> None:
        for node in self.cluster.nodes:
            began = time.monotonic()
            self.down.add(node.name)
            node.stop()
            stopped = time.monotonic()
            status = node.process.returncode
            if status != 0:
                self.run.node_exits.append(f"{node.name} exited with status {status} on SIGTERM (log {node.log_path})")
            node.start()
            node.wait_ready()
            self.down.discard(node.name)
            self.phase(f"restart {node.name} (SIGTERM, start)", began,
                       f"exit status {status}, stopping took {stopped - began:.2f} s, "
                       f"starting {time.monotonic() - stopped:.2f} s")
            self.hold(ROLL_SETTLE)

    def cut_network(self) -> None:
        """nginx stops (SIGTERM: every client connection through it is closed) and starts again
        on the same port after CUT seconds; `run.cut_over` is when it accepts again."""
        nginx = self.cluster.nginx
        began = time.monotonic()
        nginx.process.send_signal(signal.SIGTERM)
        nginx.process.wait(timeout=10)
        stopped = time.monotonic()
        self.hold(CUT)
        restarting = time.monotonic()
        nginx.start()
        started = time.monotonic()
        # nginx accepts a little before start() sees it (it polls every 50 ms): the cut is over at
        # the first request sent after the restart began that got an HTTP answer, if that is earlier.
        self.run.cut_over = started
        self.run.cut_restarting = restarting
        self.refine_cut_over(restarting)
        self.phase("nginx away (the network cut)", began,
                   f"stopping took {stopped - began:.2f} s, away {restarting - stopped:.2f} s, "
                   f"starting took {started - restarting:.2f} s")

    def refine_cut_over(self, restarting: float) -> None:
        """Called again once the run is over (the answers are all in)."""
        answered = [a.sent for w in self.run.writers for a in w.attempts() if a.status and a.sent >= restarting]
        if answered:
            self.run.cut_over = min(self.run.cut_over, min(answered))


# ------------------------------------------------------------------------------------ the run

def run_chaos(cluster, driver, seed: int, heartbeat: float) -> ChaosRun:
    rng = random.Random(seed)
    base = cluster.base
    # Signed in and added on one node (a request with the new token right away on another node
    # may be refused 503: see the users suite's test_a_session_signed_in_on_one_node_is_served_by_another).
    recipe = create_recipe(cluster.nodes[0].base, f"Chaos {seed}")
    token = new_session(cluster.nodes[0].base)
    original = step_names(read_json(cluster.nodes[0].base, f"/api/views/recipes/{recipe}/edit", token))
    # Each writer signs in (the steps it adds need a user), as the two demo accounts in turn.
    accounts = [(LI_LEI, HAN_MEIMEI)[i % 2] for i in range(WRITERS)]
    writers = [ChaosWriter(i + 1, base, signed_in_session(base, account), recipe, rng.randrange(2**32))
               for i, account in enumerate(accounts)]
    watchers = []
    for i, node in enumerate(cluster.nodes):
        # On every node: the shared recipe in a session of its own (node 2's with ?patches=1).
        watchers.append(ChaosWatcher(f"recipe@{node.name}{'+patches' if i == 1 else ''}", node.base,
                                     new_session(node.base), f"recipes/{recipe}/edit", i == 1, heartbeat))
    for i, writer in enumerate(writers):
        # Each writer's form, in its session, on a node of its own (round): half with ?patches=1.
        node = cluster.nodes[i % len(cluster.nodes)]
        watchers.append(ChaosWatcher(f"form-{writer.name}@{node.name}{'+patches' if i % 2 == 0 else ''}", node.base,
                                     writer.token, "form", i % 2 == 0, heartbeat))
    typist = Typist(driver, base, []) if driver is not None else None
    run = ChaosRun(seed, recipe, original, writers, watchers, typist)
    faults = Faults(cluster, run)
    poller = None
    try:
        for watcher in watchers:
            watcher.start()
        for watcher in watchers:
            assert watcher.wait_for(lambda w: bool(w.seen), 10), f"{watcher.name}: no first event within 10 s: {watcher.errors}"
        if typist:
            typist.open()
            typist.cookie = typist.cookie_header()   # read here: the driver is the typist's once it types
        run.started = time.monotonic()
        if typist:
            typist.plan = typing_plan(rng, run.started)
            typist.start()
        for writer in writers:
            writer.start()
        faults.hold(WARM_UP)
        faults.kill_and_restart(rng.choice(cluster.nodes))
        faults.hold(SETTLE)
        faults.restart_in_turn()
        faults.hold(SETTLE - ROLL_SETTLE)
        faults.cut_network()
        if typist:
            poller = BrowserRecovery(cluster.nodes[0].base, typist.cookie, typist.typed, run.cut_over)
            poller.start()
        faults.hold(AFTER_CUT)
    finally:
        run.stopped = time.monotonic()
        for writer in writers:
            writer.stop()
        if typist:
            typist.stop()
        for writer in writers:
            writer.join(45)
        try:
            finish(run, cluster)
        finally:
            if poller:
                poller.stop()
                run.browser["server held every key typed by the end of the cut after (s)"] = poller.recovered_after
            for watcher in watchers:
                watcher.stop()
    if run.cut_restarting is not None:
        faults.refine_cut_over(run.cut_restarting)
    run.phases.append(Phase("the run (writers started to writers stopped)", run.started, run.stopped))
    return run


def finish(run: ChaosRun, cluster) -> None:
    """Reads the final state back directly from the nodes, once every node agrees on it (a node
    hears of another's commits through the change feed, a moment later): the recipe's steps and
    each writer's form; then the browser's form (with its cookie); then waits for every watcher to
    reach the final version of what it follows."""
    reader = new_session(cluster.nodes[0].base)
    recipe = converged(cluster, f"/api/views/recipes/{run.recipe}/edit", reader,
                       lambda s: (s["outputs"]["recipeVersion"], step_names(s)), run, "the recipe")
    run.final_recipe_version, run.final_steps = recipe
    forms = {}
    for writer in run.writers:
        forms[writer.token] = converged(cluster, "/api/views/form", writer.token,
                                        lambda s: (s["version"], s["inputs"]["phone"]), run, f"{writer.name}'s form")
        run.final_phones[writer.name] = forms[writer.token][1]
    if run.typist:
        settle_browser(run, cluster.nodes[0].base)
    for watcher in run.watchers:
        if watcher.path == "form":
            final = forms[watcher.token][0]
            run.final_versions[watcher.name] = final
            reached = lambda w: w.last is not None and w.last.version >= final  # noqa: E731
        else:
            final = run.final_recipe_version
            run.final_versions[watcher.name] = final
            reached = lambda w: w.last is not None and (w.last.recipe_version or 0) >= final  # noqa: E731
        run.caught_up[watcher.name] = watcher.wait_for(reached, CATCH_UP)
    read_nginx_log(run, cluster.nginx)


def converged(cluster, path: str, token: str, extract, run: ChaosRun, what: str):
    """`extract(snapshot)` once every node answers the same for `path` twice in a row (bounded by
    CONVERGE seconds: then the newest answer, and the disagreement is recorded)."""
    began, previous, answers = time.monotonic(), None, {}
    while time.monotonic() < began + CONVERGE:
        answers = {node.name: extract(read_json(node.base, path, token)) for node in cluster.nodes}
        values = list(answers.values())
        if all(v == values[0] for v in values) and values[0] == previous:
            run.convergence[what] = round(time.monotonic() - began, 2)
            return values[0]
        previous = values[0] if all(v == values[0] for v in values) else None
        time.sleep(0.2)
    run.disagreements.append(f"{what}: the nodes still disagreed after {CONVERGE:.0f} s: "
                             + "; ".join(f"{n}: {str(v)[:120]}" for n, v in answers.items()))
    return max(answers.values(), key=lambda v: v[0])


def settle_browser(run: ChaosRun, base: str) -> None:
    """Waits (bounded) until the page holds nothing unsent and the server's form, read with the
    browser's cookie, shows what the page shows; records both, and what was typed."""
    typist = run.typist
    deadline = time.monotonic() + BROWSER_SETTLE
    state, server = {}, None
    cookie = typist.cookie
    while time.monotonic() < deadline:
        try:
            state = typist.page_state()
            server = read_json(base, "/api/views/form", cookie=cookie)["inputs"]["phone"]
        except Exception as error:  # a page being rendered again: look again
            state = {"error": str(error)[:200]}
        if not state.get("unsent") and server == state.get("value") == "186" + typist.typed:
            break
        if state.get("asking"):
            break           # the page stopped to ask the user (it believes its session was forgotten)
        time.sleep(0.2)
    try:
        typist.driver.save_screenshot(str(ARTIFACTS / "chaos-browser.png"))
    except Exception:
        pass
    run.browser.update({"typed": typist.typed, "keys": len(typist.keys), "server phone": server,
                        "page": state, "settled after": round(time.monotonic() - (deadline - BROWSER_SETTLE), 2),
                        "crashed": typist.crashed})


class BrowserRecovery(threading.Thread):
    """After the cut: how long until the server holds everything the browser had typed when
    nginx came back, the keys typed while it was away included (polled on a node directly with
    the browser's cookie, every 50 ms, for up to 30 s)."""

    def __init__(self, base: str, cookie: str, typed_before: str, cut_over: float):
        super().__init__(daemon=True, name="browser-recovery")
        self.base, self.cookie, self.expected, self.cut_over = base, cookie, "186" + typed_before, cut_over
        self.recovered_after: float | None = None
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set() and time.monotonic() < self.cut_over + 30:
            try:
                response = requests.get(self.base + "/api/views/form", headers={"Cookie": self.cookie, "Accept": JSON},
                                        timeout=(1.0, 2.0))
                if response.status_code == 200 and response.json()["inputs"]["phone"].startswith(self.expected):
                    self.recovered_after = time.monotonic() - self.cut_over
                    return
            except requests.RequestException:
                pass
            self._halt.wait(0.05)

    def stop(self) -> None:
        self._halt.set()
        self.join(5)


def read_nginx_log(run: ChaosRun, nginx) -> None:
    """Counts nginx's answers by status and keeps every 5xx line (with the node that gave it)."""
    path: Path = nginx.access_log
    if not path.exists():
        return
    for line in path.read_text(errors="replace").splitlines():
        match = re.search(r'" (\d{3}) ', line)
        if not match:
            continue
        status = match.group(1)
        run.nginx_statuses[status] = run.nginx_statuses.get(status, 0) + 1
        if status.startswith("5"):
            run.nginx_5xx.append(line)
