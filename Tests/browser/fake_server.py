"""A stand-in for the Bindery server, written from the client's contract (stdlib only).

It exists so the browser client in Public/ can be developed and its Selenium tests exercised
before the real Swift server runs. It is NOT the product and is only used when the tests are run
with BINDERY_FAKE=1 (or by hand: python3 fake_server.py --port 8080 --public-dir Public).
Where it had to guess, the guesses are listed in Tests/browser/README.md.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import secrets
import threading
import time
from http import cookies
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

PHONE_RE = re.compile(r"^1(3[0-9]|5[0-35-9]|8[0-25-9])\d{8}$")
CITIES = [{"id": 1, "name": "北京"}, {"id": 10, "name": "上海"}]
SCENIC = [
    {"id": 1001, "name": "故宫博物院", "lowestPrice": 60, "campaignTag": "立减", "cityId": 1, "cityName": "北京", "areaName": "东城区"},
    {"id": 1002, "name": "东方明珠", "lowestPrice": 128.5, "campaignTag": "", "cityId": 10, "cityName": "上海", "areaName": "浦东"},
]
HOTELS = [
    {"id": 2001, "name": "如家酒店", "poiAttrTagList": ["优惠"]},
    {"id": 2002, "name": "汉庭酒店", "poiAttrTagList": []},
]
PHOTOS = [f"Photo {i}" for i in range(6)]

UPSTREAM = {"seed": 42, "endpoints": {
    name: {"latencyMs": 300, "failureRate": 0.0, "malformedRate": 0, "timeoutRate": 0, "timeoutMs": 5000}
    for name in ("travel", "hotel", "photos", "photoDetails")}}
UPSTREAM_LOCK = threading.Lock()


def upstream_call(endpoint: str) -> None:
    """Sleeps the configured latency; raises on a simulated failure."""
    with UPSTREAM_LOCK:
        cfg = dict(UPSTREAM["endpoints"][endpoint])
    time.sleep(cfg["latencyMs"] / 1000)
    if random.random() < cfg["failureRate"]:
        raise RuntimeError("Bad Network")


def merge(target: dict, patch: dict) -> None:
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value


class VM:
    """One view model: inputs, derived outputs, commands, version, watchers."""

    def __init__(self, session: "Session", path: str):
        self.session, self.path = session, path
        self.version = 1
        self.inputs: dict = {}
        self.commands: dict = {}
        self.watchers = 0
        self.cond = session.cond

    def outputs(self) -> dict:
        return {}

    def snapshot(self) -> dict:
        return {"path": self.path, "version": self.version, "inputs": dict(self.inputs),
                "outputs": self.outputs(), "commands": json.loads(json.dumps(self.commands)),
                "active": self.watchers > 0}

    def changed(self) -> None:
        self.version += 1
        self.cond.notify_all()

    def activate(self) -> None:
        pass

    def command(self, name: str, body: dict):  # -> (navigate or None, error or None), runs unlocked
        raise KeyError(name)

    def enabled(self, name: str) -> bool:
        return True


class FormVM(VM):
    def __init__(self, session, path):
        super().__init__(session, path)
        self.inputs = {"phone": "186", "password": ""}
        self.commands = {"clear": {"enabled": False, "executing": False, "error": None}}

    def outputs(self):
        p, w = self.inputs["phone"], self.inputs["password"]
        pv, wv = bool(PHONE_RE.match(p)), len(w) >= 8
        self.commands["clear"]["enabled"] = pv and wv
        return {"output": f"手机号:{p}, 密码:{w}", "phoneValid": pv, "passwordValid": wv,
                "phoneColor": "black" if pv else "red", "passwordColor": "black" if wv else "red"}

    def enabled(self, name):
        self.outputs()
        return self.commands[name]["enabled"]

    def command(self, name, body):
        with self.cond:
            self.inputs.update(phone="186", password="")
            self.changed()
        return None, None


def scenic_cell(s, city):
    price = "%.2f" % s["lowestPrice"]
    return {"kind": "scenic", "title": s["name"],
            "price": {"text": price, "runs": [{"text": price[:-1], "color": "blue"},
                                              {"text": price[-1], "color": "blue", "fontSize": 10}]},
            "campaign": s["campaignTag"], "campaignHidden": s["campaignTag"] == "",
            "rightFooter": s["areaName"] if s["cityId"] == city else s["cityName"],
            "image": f"/upstream/images/scenic-{s['id']}.svg"}


def hotel_cell(h):
    tags = h["poiAttrTagList"]
    return {"kind": "hotel", "title": h["name"], "price": None, "campaign": tags[0] if tags else "",
            "campaignHidden": not tags, "rightFooter": None, "image": f"/upstream/images/hotel-{h['id']}.svg"}


class ListVM(VM):
    def __init__(self, session, path):
        super().__init__(session, path)
        self.inputs = {"currentCityId": 1}
        self.commands = {"load": {"enabled": True, "executing": False, "error": None},
                         "select": {"enabled": True, "executing": False, "error": None}}
        self.raw: list = []
        self.error = None

    def cells(self):
        city = self.inputs["currentCityId"]
        out = []
        for kind, raw in self.raw:
            ident = f"{kind}-{raw['id']}"
            outputs = scenic_cell(raw, city) if kind == "scenic" else hotel_cell(raw)
            out.append({"id": ident, "path": f"list/items/{ident}", "inputs": {}, "outputs": outputs, "commands": {}})
        return out

    def outputs(self):
        return {"items": self.cells(), "cities": CITIES, "error": self.error}

    def command(self, name, body):
        if name == "select":
            return f"/list/items/{body.get('id')}", None
        with self.cond:
            self.commands["load"].update(executing=True, error=None)
            self.changed()
        errors = []

        def call(ep):
            try:
                upstream_call(ep)
            except RuntimeError as exc:
                errors.append(str(exc))
        threads = [threading.Thread(target=call, args=(ep,)) for ep in ("travel", "hotel")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with self.cond:
            if errors:
                self.raw, self.error = [], {"message": errors[0], "code": 500}
            else:
                self.raw = [("scenic", s) for s in SCENIC] + [("hotel", h) for h in HOTELS]
                self.error = None
            self.commands["load"].update(executing=False, error=self.error)
            self.changed()
        return None, self.error


class ItemVM(VM):
    def __init__(self, session, path, item_id):
        super().__init__(session, path)
        self.item_id = item_id

    def outputs(self):
        for cell in self.session.vms["list"].cells():
            if cell["id"] == self.item_id:
                return cell["outputs"]
        return {}


class GalleryVM(VM):
    def __init__(self, session, path):
        super().__init__(session, path)
        self.commands = {"select": {"enabled": True, "executing": False, "error": None}}
        self.photos, self.loading, self.error, self.imported = [], False, None, False

    def outputs(self):
        return {"photos": self.photos, "loading": self.loading, "error": self.error}

    def activate(self):
        if self.imported or self.loading:
            return
        self.loading = True
        self.changed()

        def run():
            try:
                upstream_call("photos")
                photos = [{"index": i, "name": n, "thumbnail": f"/upstream/images/thumb-{i}.svg"} for i, n in enumerate(PHOTOS)]
                err = None
            except RuntimeError as exc:
                photos, err = [], {"message": str(exc), "code": 500}
            with self.cond:
                self.photos, self.error, self.loading, self.imported = photos, err, False, err is None
                self.changed()
        threading.Thread(target=run, daemon=True).start()

    def command(self, name, body):
        return f"/gallery/photos/{int(body.get('index', 0))}", None


class PhotoVM(VM):
    def __init__(self, session, path, index):
        super().__init__(session, path)
        self.index = index
        self.loading, self.image, self.error = False, None, None
        self.commands = {"previous": {"enabled": index > 0, "executing": False, "error": None},
                         "next": {"enabled": index < len(PHOTOS) - 1, "executing": False, "error": None}}

    def outputs(self):
        return {"initialPhotoIndex": self.index, "initialPhotoName": PHOTOS[self.index], "count": len(PHOTOS),
                "photo": {"index": self.index, "photoName": PHOTOS[self.index], "loading": self.loading,
                          "photoImage": self.image, "error": self.error}}

    def enabled(self, name):
        return self.commands[name]["enabled"]

    def activate(self):
        if self.image or self.loading:
            return
        self.loading = True
        self.changed()

        def run():
            try:
                upstream_call("photoDetails")
                image, err = f"/upstream/images/full-{self.index}.svg", None
            except RuntimeError as exc:
                image, err = None, {"message": str(exc), "code": 500}
            with self.cond:
                self.image, self.error, self.loading = image, err, False
                self.changed()
        threading.Thread(target=run, daemon=True).start()

    def command(self, name, body):
        return f"/gallery/photos/{self.index + (1 if name == 'next' else -1)}", None


class Session:
    def __init__(self):
        self.cond = threading.Condition()
        self.vms: dict[str, VM] = {}
        self.vms["form"] = FormVM(self, "form")
        self.vms["list"] = ListVM(self, "list")
        self.vms["gallery"] = GalleryVM(self, "gallery")

    def find(self, path: str) -> VM | None:
        if path in self.vms:
            return self.vms[path]
        m = re.fullmatch(r"gallery/photos/(\d+)", path)
        if m and int(m.group(1)) < len(PHOTOS):
            return self.vms.setdefault(path, PhotoVM(self, path, int(m.group(1))))
        m = re.fullmatch(r"list/items/([\w-]+)", path)
        if m and any(c["id"] == m.group(1) for c in self.vms["list"].cells()):
            return self.vms.setdefault(path, ItemVM(self, path, m.group(1)))
        return None


SESSIONS: dict[str, Session] = {}
SESSIONS_LOCK = threading.Lock()
VIEWS = [{"path": "form", "title": "Login form", "url": "/form"},
         {"path": "list", "title": "Places", "url": "/list"},
         {"path": "gallery", "title": "Gallery", "url": "/gallery"}]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    public_dir = Path("Public")

    def log_message(self, *args):  # quiet
        pass

    # ---- helpers
    def session(self) -> Session:
        jar = cookies.SimpleCookie(self.headers.get("Cookie", ""))
        token = jar["bindery_session"].value if "bindery_session" in jar else None
        with SESSIONS_LOCK:
            if token not in SESSIONS:
                token = secrets.token_hex(16)
                SESSIONS[token] = Session()
                self.new_cookie = token
            return SESSIONS[token]

    def send_json(self, status, body, ctype="application/json", extra=None):
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", f"{ctype}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        if isinstance(body, dict) and "version" in body:
            self.send_header("ETag", f'"{body["version"]}"')
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.cookie_header()
        self.end_headers()
        self.wfile.write(data)

    def cookie_header(self):
        if getattr(self, "new_cookie", None):
            self.send_header("Set-Cookie", f"bindery_session={self.new_cookie}; Path=/; HttpOnly; SameSite=Lax")

    def problem(self, status, title, detail):
        self.send_json(status, {"type": "about:blank", "title": title, "status": status, "detail": detail},
                       "application/problem+json")

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(n) or b"null") if n else None

    # ---- routing
    def do_GET(self):
        url = urlsplit(self.path)
        p = url.path
        if p == "/api/views":
            self.session()
            return self.send_json(200, {"views": VIEWS})
        if p == "/api/upstream":
            with UPSTREAM_LOCK:
                return self.send_json(200, UPSTREAM)
        if p == "/healthz":
            return self.send_json(200, {"status": "ok"})
        if p.startswith("/api/views/") and p.endswith("/events"):
            return self.events(p[len("/api/views/"):-len("/events")], parse_qs(url.query))
        if p.startswith("/api/views/"):
            s = self.session()
            vm = s.find(p[len("/api/views/"):])
            if not vm:
                return self.problem(404, "Not Found", f"No view at {p}")
            with s.cond:
                return self.send_json(200, vm.snapshot())
        if p.startswith("/upstream/images/"):
            return self.image(p.rsplit("/", 1)[-1])
        return self.static(p)

    def do_PATCH(self):
        p = urlsplit(self.path).path
        patch = self.body()
        if p == "/api/upstream":
            with UPSTREAM_LOCK:
                merge(UPSTREAM, patch or {})
                return self.send_json(200, UPSTREAM)
        s = self.session()
        vm = s.find(p[len("/api/views/"):])
        if not vm:
            return self.problem(404, "Not Found", p)
        with s.cond:
            for k, v in (patch or {}).items():
                if k not in vm.inputs or type(v) is not type(vm.inputs[k]):
                    return self.problem(422, "Invalid input", f"{k} is not an input of this type")
            vm.inputs.update(patch)
            vm.changed()
            return self.send_json(200, vm.snapshot())

    def do_POST(self):
        p = urlsplit(self.path).path
        m = re.fullmatch(r"/api/views/(.+)/commands/(\w+)", p)
        s = self.session()
        vm = s.find(m.group(1)) if m else None
        if not vm or m.group(2) not in vm.commands:
            return self.problem(404, "Not Found", p)
        name = m.group(2)
        with s.cond:
            if not vm.enabled(name) or vm.commands[name]["executing"]:
                return self.problem(409, "Command not available", f"{name} is disabled or executing")
        navigate, error = vm.command(name, self.body() or {})
        with s.cond:
            snap = vm.snapshot()
        if error:
            return self.problem(502, "Upstream failed", error["message"])
        if navigate:
            snap["navigate"] = navigate
        self.send_json(200, snap)

    def events(self, path, query):
        s = self.session()
        vm = s.find(path)
        if not vm:
            return self.problem(404, "Not Found", path)
        last = self.headers.get("Last-Event-ID") or (query.get("lastEventId") or [None])[0]
        sent = int(last) if last and last.isdigit() else 0
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.cookie_header()
        self.end_headers()
        with s.cond:
            vm.watchers += 1
            vm.activate()
        try:
            while True:
                with s.cond:
                    if vm.version <= sent:
                        s.cond.wait(timeout=15)
                    snap = vm.snapshot() if vm.version > sent else None
                if snap is None:
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    sent = snap["version"]
                    self.wfile.write(f"id: {sent}\ndata: {json.dumps(snap, ensure_ascii=False)}\n\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with s.cond:
                vm.watchers -= 1

    def image(self, name):
        hue = sum(name.encode()) % 360
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240">'
               f'<rect width="320" height="240" fill="hsl({hue},60%,60%)"/>'
               f'<text x="20" y="130" font-size="24" fill="#fff">{name}</text></svg>').encode()
        self.send_response(200)
        self.send_header("Content-Type", "image/svg+xml")
        self.send_header("Content-Length", str(len(svg)))
        self.end_headers()
        self.wfile.write(svg)

    def static(self, p):
        root = self.public_dir.resolve()
        target = (root / p.lstrip("/")).resolve()
        if not str(target).startswith(str(root)) or not target.is_file():
            if "." in p.rsplit("/", 1)[-1]:
                return self.problem(404, "Not Found", p)
            target = root / "index.html"  # client-side routes
        types = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
        data = target.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", types.get(target.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--public-dir", default="Public")
    ap.add_argument("--upstream-latency-ms", type=int, default=300)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    random.seed(args.seed)
    for cfg in UPSTREAM["endpoints"].values():
        cfg["latencyMs"] = args.upstream_latency_ms
    Handler.public_dir = Path(args.public_dir)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
