"""Nothing lost, nothing done twice through the Swift client (issue 30, item 4): a command whose
answer is lost because the server was `kill -9`ed right after committing it is sent again by the
client with the same Idempotency-Key once the server is back, and runs once. The gateway
(`answer_gateway.Gateway`, as nginx in production) forwards the request, the server applies it and
answers, the gateway drops that answer, and the server is killed and started again."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
import uuid

from answer_gateway import Gateway
from bindery_support import HAN_MEIMEI
from watch_process import run_watch

EDIT = "recipes/c41/edit"


def steps_named(server, token: str, name: str) -> int:
    request = urllib.request.Request(f"{server.url}/api/views/{EDIT}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        steps = json.load(response)["outputs"]["steps"]
    return sum(1 for step in steps if step["inputs"]["name"] == name)


def test_a_command_whose_answer_died_with_the_server_runs_once(server):
    token = server.session(HAN_MEIMEI)   # adding a step needs a signed-in session
    gateway = Gateway(server.port)
    name = f"Once {uuid.uuid4().hex[:6]}"
    path = f"/api/views/{EDIT}/commands/addStep"
    gateway.lose_next_answer("POST", path)

    def kill_after_the_lost_answer() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if any(r["lost"] for r in gateway.requests("POST", path)):
                server.kill9()
                server.start()
                return
            time.sleep(0.01)

    killer = threading.Thread(target=kill_after_the_lost_answer)
    killer.start()
    try:
        done = run_watch("--url", gateway.base, "--token", token, "--run",
                         f'addStep={{"name": "{name}", "durationSeconds": 30}}', "--count", "1", EDIT, timeout=60)
    finally:
        killer.join(timeout=35)
        gateway.close()
    assert done.returncode == 0, done.stderr
    sent = gateway.requests("POST", path)
    assert sent[0]["lost"] and sent[0]["status"] == 200, sent
    # Sent again with the same key after the restart (502s meanwhile), answered from the store.
    assert len({r["key"] for r in sent}) == 1 and len(sent) >= 2, sent
    assert sent[-1]["status"] == 200 and sent[-1]["replayed"] == "true", sent
    assert steps_named(server, token, name) == 1
