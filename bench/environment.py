"""The environment of a benchmark run, shared by the scripts in bench/:
the app's production settings (DEBUG off, a fresh secret key, no HTTPS
redirect on loopback) with the benchmarks' own URLs (bench/settings.py adds
the baseline view), and one request sent through Django's WSGI handler as
gunicorn would send it."""

from __future__ import annotations

import io
import secrets
import sys


def environment(settings_module: str = "bench.settings") -> dict[str, str]:
    """Variables to put in os.environ (or a child's env) before Django starts."""
    return {
        "DJANGO_SETTINGS_MODULE": settings_module,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
    }


def call_wsgi(app, method: str, path: str, *, body: bytes = b"", headers: dict | None = None, query: str = ""):
    """(status line, {header: value}, body) of one request through ``app``
    (a django.core.handlers.wsgi.WSGIHandler). ``headers`` are WSGI keys
    ("HTTP_COOKIE", ...). The answer is read but not closed, as in the
    figures measured before (closing fires request_finished: a few µs)."""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        **(headers or {}),
    }
    answer = []
    content = b"".join(app(environ, lambda status, pairs: answer.append((status, dict(pairs)))))
    return answer[0][0], answer[0][1], content


def measured_get(app, path: str, *, headers: dict | None = None, query: str = ""):
    """(status line, {header: value}, body, SQL queries, (wall ms, CPU ms)) of
    one GET through ``app``, the queries counted on the default connection."""
    import time

    from django.db import connection

    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        start, cpu = time.perf_counter(), time.process_time()
        status, answer_headers, body = call_wsgi(app, "GET", path, headers=headers, query=query)
        ms = ((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)
    return status, answer_headers, body, len(queries), ms
