"""Where the binaries measured come from: `BINDERY_BIN`, or a release build into `.build-bench/`
(never the tests' `.build/`), and the Hummingbird reference's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HUMMINGBIRD_PACKAGE = REPO / "benchmarks/hummingbird-reference"


def bindery(scratch: str | None = ".build-bench") -> str:
    """`BINDERY_BIN`, else installs the build dependencies and builds `bindery` in release mode into
    `scratch` (None: the package's own .build/, as scripts/soak does). Exits when there is no executable."""
    path = os.environ.get("BINDERY_BIN")
    if not path:
        subprocess.run([str(REPO / "scripts/install-deps")], check=True)
        where = ["--scratch-path", scratch] if scratch else []
        print(f"Building release binary{f' into {scratch}/' if scratch else ''} ...", flush=True)
        build = subprocess.run(["swift", "build", "-c", "release", "--product", "bindery", *where],
                               cwd=REPO, capture_output=True, text=True)
        print(((build.stdout + build.stderr).strip().splitlines() or [""])[-1], flush=True)
        bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path", *where], cwd=REPO,
                                 capture_output=True, text=True).stdout.strip()
        path = str(Path(bin_dir) / "bindery")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"no executable at {path}")
    return path


def hummingbird(work: Path, build: bool) -> str | None:
    """The Hummingbird reference: `HUMMINGBIRD_BIN`, else (when `build`) built in release mode into
    .build-bench/hummingbird. None, with the reason printed, when there is none."""
    path = os.environ.get("HUMMINGBIRD_BIN")
    if not path:
        if not build:
            print("(no Hummingbird reference: HUMMINGBIRD_BIN is not set and a smoke run builds nothing: "
                  "Bindery-only)")
            return None
        if not shutil.which("swift"):
            print("(no Hummingbird reference: no swift toolchain to build it)")
            return None
        print("Building the Hummingbird reference into .build-bench/hummingbird/ ...", flush=True)
        log = work / "hummingbird-build.log"
        with open(log, "w") as out:
            built = subprocess.run(["swift", "build", "-c", "release", "--package-path", str(HUMMINGBIRD_PACKAGE),
                                    "--scratch-path", ".build-bench/hummingbird"], cwd=REPO, stdout=out,
                                   stderr=subprocess.STDOUT).returncode == 0
        if not built:
            lines = log.read_text(errors="replace").splitlines()
            first = next((line for line in lines if "error" in line), lines[-1] if lines else "")
            print(f"(no Hummingbird reference: its build failed: {first})")
            return None
        path = str(REPO / ".build-bench/hummingbird/release/HummingbirdReference")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        print(f"(no Hummingbird reference: no executable at {path})")
        return None
    return path
