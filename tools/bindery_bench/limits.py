"""This process's open-file limit, raised to fit a probe's sockets (the servers it starts inherit it)."""

from __future__ import annotations

import resource


def raise_open_files(want: int) -> str:
    """Raises the soft limit to `want` (and the hard one, where allowed); the error of raising the
    hard limit, or ""."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    error = ""
    if hard != resource.RLIM_INFINITY and hard < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, want))
            hard = want
        except (ValueError, OSError) as e:
            error = str(e)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard) if hard != resource.RLIM_INFINITY else want, hard))
    return error


def open_files() -> tuple[int, int]:
    """(soft, hard) open-file limits."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def can_raise_hard_to(n: int) -> str:
    """"" when the hard limit may be raised to `n` here, else the error (tried in a child)."""
    import subprocess
    import sys
    probe = subprocess.run([sys.executable, "-c", f"import resource; s, h = resource.getrlimit(resource.RLIMIT_NOFILE); "
                            f"resource.setrlimit(resource.RLIMIT_NOFILE, (min(s, {n}), {n}))"],
                           capture_output=True, text=True)
    return "" if probe.returncode == 0 else (probe.stderr.strip().splitlines() or ["refused"])[-1]
