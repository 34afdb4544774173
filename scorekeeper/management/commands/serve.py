"""manage.py serve: Scorekeeper on its production server (bin/run).

granian (a Rust HTTP server with wheels for Linux, macOS and Windows),
chosen by measurement over waitress and gunicorn (README, "Which server"):
``--workers`` processes (one per core) of ``--threads`` blocking threads
each (default 4: a thread waiting for the disk or the database leaves the
core to another; 1.6-1.7 times the requests a second of one thread, README
"Which server"); static files from the collected, hashed store through
whitenoise. ``DEBUG`` stays as the settings say (off unless
set): this is never the development server.

Ctrl-C, closing the window (SIGHUP) and ending its process (SIGTERM) all
stop it and its workers. On a developer's machine ``bin/dev`` runs Django's
development server instead, with reload and DEBUG on.
"""

from __future__ import annotations

import os
import signal
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.network import local_url, split_address

# Measured against one thread a worker (bench/servers.py, README "Which server").
THREADS = 4


def default_workers() -> int:
    # One per core: measured on 2 cores at a 200-table event (README, "Which
    # server"), 2 and 4 workers did as well as 8 (granian queues requests for
    # a busy worker itself), and more workers than cores only cost memory.
    return max(2, os.cpu_count() or 1)


class Command(BaseCommand):
    help = "Serve Scorekeeper with its production server (granian) on ADDRESS; Ctrl-C stops it."
    requires_system_checks = []  # the workers check as they start; the banner should not wait

    def add_arguments(self, parser):
        parser.add_argument(
            "--workers", type=int, default=default_workers(), help="worker processes (default: %(default)s)"
        )
        parser.add_argument(
            "--threads", type=int, default=THREADS, help="threads of each worker (default: %(default)s)"
        )

    def handle(self, *args, workers, threads, **options):
        from granian import Granian

        if workers < 1 or threads < 1:
            raise CommandError("--workers and --threads must be 1 or more.")
        host, port = split_address(settings.ADDRESS)
        server = Granian(
            "config.granian_worker:application",
            address=host,
            port=port,
            interface="wsgi",
            workers=workers,
            blocking_threads=threads,
            websockets=False,
            log_level="warning",
            workers_kill_timeout=5,  # a worker not stopped 5 s after Ctrl-C is ended
            respawn_failed_workers=True,  # a worker that dies is replaced; the server goes on
        )
        # Closing the terminal window sends SIGHUP, which granian takes as
        # "reload": here it stops, as Ctrl-C does.
        if hasattr(signal, "SIGHUP"):
            server.on_startup(lambda: signal.signal(signal.SIGHUP, server.signal_handler_interrupt))
        self.stdout.write(self.banner(), ending="\n")
        sys.stdout.flush()
        server.serve()

    def banner(self) -> str:
        lines = ["Scorekeeper is running.", f"  On this computer: {local_url(settings.ADDRESS)}"]
        if settings.JOIN_URL:
            lines.append(f"  Phones on the network join at: {settings.JOIN_URL}")
        else:
            lines.append("  Only this computer can reach it (bin/run --lan lets the phones on the network join).")
        lines += [
            f"  Database: {settings.DATABASES['default']['NAME']}",
            "  Stop it with Ctrl-C (or close this window).",
        ]
        return "\n".join(lines)
