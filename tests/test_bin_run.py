"""bin/run on a fresh clone, as a club runs it: the production server with
DEBUG off, a key file of its own (owner-only) that a second run reuses,
hashed static files, error pages without detail, and Ctrl-C (or closing
the window) stopping every process it started.

The clone is the project's files as git knows them (committed or not),
with the project's virtual environment linked in, so the install step
finds everything in place; CI runs this on a clean clone anyway."""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")), reason="bin/run serves the SQLite default; once is enough"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    here = tmp_path_factory.mktemp("clone")
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = here / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
            target.chmod(source.stat().st_mode)
    (here / ".venv").symlink_to((ROOT / ".venv").resolve())
    return here


def _state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


class Server:
    def __init__(self, clone: Path, *args: str, **env: str):
        self.port = int(env.pop("PORT", free_port()))
        env.setdefault("ADDRESS", f"127.0.0.1:{self.port}")
        clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL")}
        clean.pop("DJANGO_SETTINGS_MODULE", None)
        self.log = clone / f"run-{self.port}.log"
        self.proc = subprocess.Popen(
            ["bin/run", *args],
            cwd=clone,
            env={**clean, "PORT": str(self.port), **env},
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group, as a terminal's foreground job
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                urllib.request.urlopen(self.base + "/login/", timeout=2)
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.3)
        raise AssertionError(f"bin/run did not answer in time:\n{self.log.read_text()}")

    def get(self, path: str, **headers) -> tuple[int, object, str]:
        request = urllib.request.Request(self.base + path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.headers, answer.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode(errors="replace")

    def group(self) -> list[int]:
        """The processes of its group still running (the server, its workers)."""
        self.proc.poll()  # reaps bin/run's own process once it has ended
        found = subprocess.run(["pgrep", "-g", str(self.proc.pid)], capture_output=True, text=True).stdout.split()
        return [int(p) for p in found if _state(int(p)) not in ("Z", None)]

    def interrupt(self, sig=signal.SIGINT, whole_group=True) -> float:
        """Ctrl-C as a terminal sends it (to the whole foreground group); the
        seconds until no process of the group is left."""
        start = time.monotonic()
        if whole_group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)
        while self.group() and time.monotonic() - start < 20:
            time.sleep(0.1)
        left = self.group()
        if left:
            os.killpg(self.proc.pid, signal.SIGKILL)
        assert left == [], f"still running after {sig!r}: {left}"
        return time.monotonic() - start


def test_bin_run_serves_safely_and_stops_on_ctrl_c(clone):
    server = Server(clone)
    try:
        banner = server.log.read_text()
        assert "Scorekeeper is running." in banner and f"http://127.0.0.1:{server.port}" in banner
        assert "Only this computer can reach it" in banner

        key = clone / "secret_key"
        assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_text().strip()) >= 50
        assert (clone / "db.sqlite3").exists()

        status, headers, page = server.get("/login/")
        assert status == 200
        css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', page)
        assert css, "static files are not the collected, hashed store"
        status, headers, _ = server.get(css.group(1), **{"Accept-Encoding": "gzip"})
        assert status == 200 and "immutable" in headers.get("Cache-Control", "")

        for path, headers in (("/no-such-page/", {}), ("/matches/424242/", {}), ("/", {"Host": "evil.example"})):
            status, _, page = server.get(path, **headers)
            assert status in (400, 404), path
            assert "Traceback" not in page and "URLconf" not in page and "DEBUG" not in page, path
            assert 'href="/"' in page, path
        assert len(server.group()) > 1  # the server and its workers
        assert server.interrupt() < 10
    finally:
        if server.group():
            os.killpg(server.proc.pid, signal.SIGKILL)

    made = key.read_text()
    again = Server(clone)
    try:
        assert key.read_text() == made  # the second run keeps the key: the links still work
        assert again.get("/login/")[0] == 200
        assert again.interrupt(signal.SIGTERM, whole_group=False) < 10  # ending the PID it left behind
    finally:
        if again.group():
            os.killpg(again.proc.pid, signal.SIGKILL)


def test_bin_run_lan_lets_the_phones_join(clone):
    server = Server(clone, "--lan", ADDRESS="")
    try:
        banner = server.log.read_text()
        joined = re.search(r"Phones on the network join at: (http://([0-9.]+):(\d+))", banner)
        assert joined, banner
        assert int(joined.group(3)) == server.port
        status, _, _ = server.get("/login/", Host=f"{joined.group(2)}:{server.port}")
        assert status == 200  # this computer's own address is an allowed host, with no ALLOWED_HOSTS written
        assert server.interrupt(signal.SIGHUP) < 10  # the window closed
    finally:
        if server.group():
            os.killpg(server.proc.pid, signal.SIGKILL)
