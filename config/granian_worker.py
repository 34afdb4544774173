"""The app as each of granian's workers loads it (manage.py serve).

A terminal's Ctrl-C (SIGINT) or closed window (SIGHUP) goes to every
process of the server: here only granian's main process acts on them, and
it stops each worker once, with SIGTERM. A worker that acts on Ctrl-C
itself and then gets the main process's SIGTERM can hang in granian
2.8.7's shutdown (measured: 4 of 8 workers, every time), so a worker
ignores the terminal's signals and listens for SIGTERM alone. This leans
on granian's private ``_signals._get_signals`` (granian is pinned in
requirements.txt; tests/test_bin_run.py fails if a new version breaks it).
"""

import signal

import granian._signals

for _terminal in ("SIGINT", "SIGHUP"):
    if hasattr(signal, _terminal):  # Windows has no SIGHUP
        signal.signal(getattr(signal, _terminal), signal.SIG_IGN)
granian._signals._get_signals = lambda: [signal.SIGTERM]

from config.wsgi import application  # noqa: E402, F401
