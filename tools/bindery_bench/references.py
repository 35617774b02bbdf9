"""scripts/bench's references: a 50-line C server on the same libmicrohttpd answering the form's
bytes (`c_reference.c`, in the two layouts libmicrohttpd offers for two cores), and the Hummingbird
reference (benchmarks/hummingbird-reference, a package of its own)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from .server import Server, answers, free_port

C_SOURCE = Path(__file__).with_name("c_reference.c")


def compile_c(work: Path) -> Path | None:
    """The C reference built into `work`; None, with the reason printed, when it cannot be."""
    if not shutil.which("cc"):
        print("(no C reference: no cc on the PATH)")
        return None
    executable = work / "ref"
    built = subprocess.run(["cc", "-O2", "-o", str(executable), str(C_SOURCE), "-lmicrohttpd", "-lpthread"],
                           capture_output=True, text=True)
    if built.returncode != 0:
        print(f"(no C reference: {(built.stderr.splitlines() or ['cc failed'])[0]})")
        return None
    return executable


def start_c(executable: Path, body: Path, mode: str, work: Path) -> Server:
    """`reuseport`: two single-threaded epoll daemons sharing the port with SO_REUSEPORT (Bindery's
    layout); `pool`: one daemon with one listening socket and a thread pool of two."""
    port = free_port()
    return Server([str(executable), str(port), str(body), mode], work / f"ref-{mode}.log", port=port,
                  host_options=False)


def wait_c(references: list[Server]) -> bool:
    """Until both answer (5 s at most); False when one did not start."""
    for ref in references:
        for _ in range(50):
            if answers(ref.base + "/"):
                break
            time.sleep(0.1)
    return all(ref.alive() for ref in references)


def start_hummingbird(executable: str, work: Path) -> Server | None:
    """The Hummingbird reference on a free port, answering POST /api/sessions; None (printed) if not."""
    hb = Server([executable], work / "hummingbird.log")
    for _ in range(100):
        if answers(hb.base + "/api/sessions", "POST"):
            return hb
        time.sleep(0.1)
    print(f"(no Hummingbird reference: it did not answer on {hb.base})")
    print(hb.log_text())
    hb.stop()
    return None
