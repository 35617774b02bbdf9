"""The load of scripts/soak: a mixed, moderate load on one Bindery server (Python standard library).

    scripts/soak-load soak  --base http://127.0.0.1:PORT --seconds 1800 [--stats FILE]
    scripts/soak-load churn --base http://127.0.0.1:PORT --rounds 10 --size 20000 [--out FILE.csv]

`soak` runs, for the given time and at a rate a 2-core machine shared with builds can take:
  - steady users: a few sessions (bearer tokens) that GET snapshots (some with If-None-Match),
    PATCH the form and the list with values that change every time, and POST commands (form
    clear, list load, courses load);
  - event streams: some watchers that stay open the whole run, and some that come and go;
  - session churn: every --churn-every seconds a round of --churn-size new sessions made by
    POST /api/sessions and a GET of the form (each one a session with its form view model live), then left
    idle to expire (the server should run with a short --session-idle-timeout).
It writes the count of answers by kind and status to --stats (JSON) at the end.

`churn` is the leak-or-retention experiment: rounds of --size new sessions; after each
round it waits until the server's live sessions are back to where they were, then records RSS and
the C heap from /metrics (CSV: round, then the figures at the round's peak and after its sweep).

Everything the server is measured by comes from its own /metrics; this file only makes load.
"""

import argparse
import json
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

from .soak_client import MERGE_PATCH, Client, Pacer, Stats, metrics, new_token


def steady_user(base, token, rate, stop, stats, seed):
    """GETs, PATCHes with changing values and command POSTs on one session until `stop`."""
    rng = random.Random(seed)
    client = Client(base, token)
    pacer = Pacer(rate)
    etags = {}
    n = 0
    while not stop.is_set():
        pacer.wait()
        n += 1
        pick = rng.random()
        if pick < 0.40:
            path = rng.choice(["/api/views/form", "/api/views/list", "/api/views/courses", "/api/views/recipes"])
            headers = {}
            if path in etags and rng.random() < 0.5:
                headers["If-None-Match"] = etags[path]
            status, response, _ = client.request("GET", path, headers=headers)
            if status == 200 and response is not None and response.getheader("ETag"):
                etags[path] = response.getheader("ETag")
            stats.add("get", status)
        elif pick < 0.70:
            phone = f"1{rng.choice('3568')}{seed % 10}{n:08d}"[:11]
            password = f"pw{n:06d}" if rng.random() < 0.7 else "x"
            status, _, _ = client.request(
                "PATCH", "/api/views/form", {"phone": phone, "password": password}, {"Content-Type": MERGE_PATCH}
            )
            stats.add("patch", status)
        elif pick < 0.80:
            # The fixture's cities, and now and then one that does not exist (422, nothing changes).
            city = rng.choice([1, 10, 20, 30, 42, 50, 59]) if rng.random() < 0.95 else 5
            status, _, _ = client.request(
                "PATCH", "/api/views/list", {"currentCityId": city}, {"Content-Type": MERGE_PATCH}
            )
            stats.add("patch", status)
        elif pick < 0.90:
            status, _, _ = client.request("POST", "/api/views/form/commands/clear")
            stats.add("command", status)  # 409 when the form is not valid: the command is disabled
        elif pick < 0.96:
            status, _, _ = client.request("POST", "/api/views/list/commands/load", headers={"Prefer": "wait=5"})
            stats.add("command", status)  # 502 for the upstream's seeded failures, 409 while running
        else:
            status, _, _ = client.request("POST", "/api/views/courses/commands/load", headers={"Prefer": "wait=5"})
            stats.add("command", status)
    client.close()


def watch(base, token, path, until, stop, stats):
    """Reads one event stream until `until` (monotonic) or `stop`, then closes it."""
    url = urllib.parse.urlsplit(base)
    try:
        sock = socket.create_connection((url.hostname, url.port), timeout=5)
    except OSError:
        stats.add("stream", 0)
        return
    with sock:
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\nAccept: text/event-stream\r\n"
            f"Authorization: Bearer {token}\r\n\r\n".encode()
        )
        sock.settimeout(1)
        received = b""
        status = None
        while not stop.is_set() and (until is None or time.monotonic() < until):
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            if not chunk:
                break
            if status is None:
                received += chunk
                if b"\r\n" in received:
                    status = int(received.split(b" ", 2)[1])
                    stats.add("stream", status)
                    if status != 200:
                        return
                    received = b""
        if status is None:
            stats.add("stream", 0)


def transient_watchers(base, tokens, every, stop, stats, seed):
    """Opens an event stream every `every` seconds that stays open for 2 to 10 seconds."""
    rng = random.Random(seed)
    while not stop.wait(every):
        path = rng.choice(["/api/views/form/events", "/api/views/list/events?patches=1", "/api/views/courses/events"])
        until = time.monotonic() + rng.uniform(2, 10)
        threading.Thread(
            target=watch, args=(base, rng.choice(tokens), path, until, stop, stats), daemon=True
        ).start()


def churn_round(base, size, rate, stats, stop=None, connections=2):
    """Creates `size` sessions, each with its form rendered, `rate` a second in all: a POST
    /api/sessions and a GET of the form with its token (an anonymous GET makes no session any more:
    counted as `session` and `churn` answers)."""
    per_connection = [size // connections + (1 if i < size % connections else 0) for i in range(connections)]

    def run(count):
        client = Client(base)
        pacer = Pacer(rate / connections)
        for _ in range(count):
            if stop is not None and stop.is_set():
                break
            pacer.wait()
            client.token = None
            status, _, body = client.request("POST", "/api/sessions")
            stats.add("session", status)
            if status != 201:
                continue
            client.token = json.loads(body)["token"]
            status, _, _ = client.request("GET", "/api/views/form")
            stats.add("churn", status)
        client.close()

    threads = [threading.Thread(target=run, args=(count,)) for count in per_connection]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def soak(args):
    stats = Stats()
    stop = threading.Event()
    tokens = [new_token(args.base) for _ in range(args.users)]
    threads = [
        threading.Thread(target=steady_user, args=(args.base, token, args.user_rate, stop, stats, i), daemon=True)
        for i, token in enumerate(tokens)
    ]
    for i in range(args.watchers):
        path = ["/api/views/form/events", "/api/views/list/events?patches=1", "/api/views/recipes/events"][i % 3]
        threads.append(
            threading.Thread(target=watch, args=(args.base, tokens[i % len(tokens)], path, None, stop, stats), daemon=True)
        )
    threads.append(
        threading.Thread(target=transient_watchers, args=(args.base, tokens, args.transient_every, stop, stats, 7), daemon=True)
    )
    for thread in threads:
        thread.start()

    started = time.monotonic()
    end = started + args.seconds
    round_number = 0
    next_round = started + args.churn_first
    while time.monotonic() < end:
        if time.monotonic() >= next_round:
            round_number += 1
            print(f"[{time.monotonic() - started:6.0f} s] churn round {round_number}: {args.churn_size} new sessions", flush=True)
            churn_round(args.base, args.churn_size, args.churn_rate, stats, stop)
            next_round += args.churn_every
        time.sleep(min(1.0, max(0.0, end - time.monotonic())))
    stop.set()
    for thread in threads:
        thread.join(timeout=5)
    summary = stats.snapshot()
    print(json.dumps(summary, indent=1))
    if args.stats:
        with open(args.stats, "w") as file:
            json.dump({"churn_rounds": round_number, "answers": summary}, file, indent=1)


def churn(args):
    """Rounds of new sessions; RSS and heap at each round's peak and after its sessions expired."""
    stats = Stats()
    out = open(args.out, "w") if args.out else sys.stdout
    columns = [
        "round", "peak_sessions", "peak_rss_bytes", "peak_heap_in_use_bytes", "peak_heap_free_bytes",
        "after_sessions", "after_rss_bytes", "after_heap_in_use_bytes", "after_heap_free_bytes",
    ]
    if args.trim_pid:
        columns += ["trimmed_rss_bytes", "trimmed_heap_in_use_bytes", "trimmed_heap_free_bytes"]
    print(",".join(columns), file=out, flush=True)

    def figures():
        values = metrics(args.base)
        return [
            int(values.get("bindery_sessions_live", -1)),
            int(values.get("process_resident_memory_bytes", -1)),
            int(values.get('process_heap_bytes{state="in_use"}', -1)),
            int(values.get('process_heap_bytes{state="free"}', -1)),
        ]

    def trimmed():
        """What malloc_trim(0) gives back now: called in the server through gdb, then measured."""
        subprocess.run(
            ["gdb", "-p", str(args.trim_pid), "-batch", "-ex", "call (int) malloc_trim(0)"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=60,
        )
        return figures()[1:]

    baseline = figures()
    print(",".join(["0"] + [str(v) for v in baseline] * 2 + ([str(v) for v in trimmed()] if args.trim_pid else [])), file=out, flush=True)
    for number in range(1, args.rounds + 1):
        began = time.monotonic()
        churn_round(args.base, args.size, args.rate, stats, connections=args.connections)
        peak = figures()
        made = time.monotonic() - began
        # Wait for the idle timeout and the next sweep to close the round's sessions.
        deadline = time.monotonic() + args.settle_timeout
        while time.monotonic() < deadline and figures()[0] > baseline[0]:
            time.sleep(2)
        time.sleep(args.settle)  # the closing tasks run after the sweep
        after = figures()
        extra = trimmed() if args.trim_pid else []
        print(",".join(str(v) for v in [number] + peak + after + extra), file=out, flush=True)
        print(f"round {number}: {args.size} sessions in {made:.0f} s; answers {stats.snapshot()}", file=sys.stderr, flush=True)


def parser(smoke=False):
    parser = argparse.ArgumentParser(prog="scripts/soak-load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("soak", help="mixed load for a given time")
    s.add_argument("--base", required=True, help="the server, http://127.0.0.1:PORT")
    s.add_argument("--seconds", type=float, default=1800)
    s.add_argument("--users", type=int, default=12, help="steady sessions")
    s.add_argument("--user-rate", type=float, default=5, help="requests a second per steady session")
    s.add_argument("--watchers", type=int, default=8, help="event streams open the whole run")
    s.add_argument("--transient-every", type=float, default=2, help="seconds between short-lived streams")
    s.add_argument("--churn-size", type=int, default=5000, help="new sessions per churn round")
    s.add_argument("--churn-rate", type=float, default=200, help="new sessions a second during a round")
    s.add_argument("--churn-every", type=float, default=150, help="seconds between churn rounds' starts")
    s.add_argument("--churn-first", type=float, default=30, help="seconds before the first round")
    s.add_argument("--stats", help="write the answers by kind and status here (JSON)")
    c = commands.add_parser("churn", help="rounds of new sessions left to expire")
    c.add_argument("--base", required=True)
    c.add_argument("--rounds", type=int, default=10)
    c.add_argument("--size", type=int, default=20000)
    c.add_argument("--rate", type=float, default=1000, help="new sessions a second")
    c.add_argument("--connections", type=int, default=2)
    c.add_argument("--settle", type=float, default=5, help="seconds to wait after the sessions left")
    c.add_argument("--settle-timeout", type=float, default=180)
    c.add_argument("--out", help="CSV file (default: stdout)")
    c.add_argument("--trim-pid", type=int, help="after each round, call malloc_trim(0) in this process (gdb) and measure again")
    if smoke:   # a smoke run's: seconds, not minutes
        s.set_defaults(seconds=3, users=2, watchers=2, transient_every=1, churn_size=20, churn_first=1)
        c.set_defaults(rounds=1, size=20, settle=0.5, settle_timeout=15)
    return parser


def main(args, smoke=False):
    parsed = parser(smoke).parse_args(args)
    soak(parsed) if parsed.command == "soak" else churn(parsed)
    return 0
