"""bench-multinode's shared-recipe phase (issue 43, item 3): BENCH_SHARED_WRITERS writers, each
signed in as the demo account through nginx (so spread over the nodes by the ring), add steps to
the one recipe c41 for BENCH_SECONDS, each step with an Idempotency-Key and `Prefer: wait=10`, a
non-200 answer tried again with the same key (up to MAX_TRIES). Every node holds c41, so each
write is announced to every other node: changes received per write ≈ nodes − 1 is expected here.
Counted: acknowledged steps, the tries each needed, the answers that were not 200 (409: another
node's write got there first and the server gave up), and afterwards whether every acknowledged
step is in the recipe once (nothing lost or doubled)."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import requests

from .multinode_measure import measured
from .multinode_phases import call, expect  # multinode_phases puts Tests/ on the path
from bindery_support import LI_LEI, sign_in  # noqa: E402

EDIT = "/api/views/recipes/c41/edit"
MAX_TRIES = 8


class StepWriter(threading.Thread):
    """Adds steps to c41 until halted; the step under way when halted is still tried to the end."""

    def __init__(self, base: str, token: str, tag: str, halt: threading.Event):
        super().__init__(daemon=True, name=f"steps-{tag}")
        self.base, self.token, self.tag, self.halt = base, token, tag, halt
        self.http = requests.Session()
        self.tries: dict[str, int] = {}         # acknowledged step name -> tries it took
        self.seconds: list[float] = []          # each acknowledged step: its first try to its 200
        self.refused: Counter = Counter()       # status of each answer that was not 200 (0: no answer)
        self.given_up: list[str] = []           # steps not acknowledged in MAX_TRIES

    def run(self) -> None:
        n = 0
        while not self.halt.is_set():
            n += 1
            name, key, began = f"{self.tag}-s{n}", str(uuid.uuid4()), time.monotonic()
            for attempt in range(1, MAX_TRIES + 1):
                try:
                    answer = call(self.base, "POST", f"{EDIT}/commands/addStep", self.token,
                                  body={"name": name, "durationSeconds": 30},
                                  headers={"Idempotency-Key": key, "Prefer": "wait=10"},
                                  session=self.http, timeout=15)
                    status = answer.status_code
                except requests.RequestException:
                    status = 0
                if status == 200:
                    self.tries[name] = attempt
                    self.seconds.append(time.monotonic() - began)
                    break
                self.refused[status] += 1
                time.sleep(0.05)
            else:
                self.given_up.append(name)


def shared(cfg, cluster, postgres, database):
    """The window's (result, usage, counters' deltas, PostgreSQL transactions); result is a dict:
    steps, elapsed, tries (Counter: tries -> steps), refused (Counter: status -> answers),
    given_up, lost, doubled, unacknowledged_present, total_steps, seconds (each acknowledged step's)."""
    run = uuid.uuid4().hex[:6]
    with ThreadPoolExecutor(max_workers=cfg.shared_writers) as pool:   # a sign-in costs bcrypt and latency
        tokens = list(pool.map(lambda _: sign_in(cluster.base, LI_LEI), range(cfg.shared_writers)))
    for token in tokens:   # every writer's node loads the recipe before the window
        expect(call(cluster.base, "GET", EDIT, token), 200, "reading recipe c41")
    halt = threading.Event()
    writers = [StepWriter(cluster.base, t, f"{run}-w{i}", halt) for i, t in enumerate(tokens)]

    def window():
        began = time.monotonic()
        for w in writers:
            w.start()
        time.sleep(cfg.seconds)
        halt.set()
        for w in writers:
            w.join(MAX_TRIES * 15)
        return time.monotonic() - began

    elapsed, usage, delta, xacts = measured(cluster, postgres, database, window)
    tries = {name: t for w in writers for name, t in w.tries.items()}
    given_up = [name for w in writers for name in w.given_up]
    # The reading node shows another node's last commits once their notification arrived (within
    # milliseconds): read until every acknowledged step is there, for at most 2 s, before
    # counting one as lost.
    deadline = time.monotonic() + 2
    while True:
        steps = expect(call(cluster.base, "GET", EDIT, tokens[0]), 200).json()["outputs"]["steps"]
        names = Counter(s["inputs"]["name"] for s in steps if s["inputs"]["name"].startswith(run))
        if all(names[name] for name in tries) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    result = {
        "steps": len(tries), "elapsed": elapsed, "tries": Counter(tries.values()),
        "refused": sum((w.refused for w in writers), Counter()), "given_up": len(given_up),
        "lost": sum(1 for name in tries if names[name] == 0),
        "doubled": sum(1 for count in names.values() if count > 1),
        "unacknowledged_present": sum(1 for name in given_up if names[name]),
        "total_steps": len(steps), "seconds": [t for w in writers for t in w.seconds],
    }
    return result, usage, delta, xacts
