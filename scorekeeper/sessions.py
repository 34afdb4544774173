"""Django's database sessions, loaded with one plain SQL query.

Every request of a logged-in organiser loads the session. On the 2-core
benchmark machine Django's queryset, and then its raw queryset, cost several
times the query itself, so the session is read with a bare cursor.
Everything else is Django's. (Table devices hold no session: their right to
score is a signed cookie, see access.py.) Set as SESSION_ENGINE."""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, router
from django.utils import timezone


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self):
        model = self.model
        connection = connections[router.db_for_read(model)]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s",
                [self.session_key, now],
            )
            found = cursor.fetchone()
        if found is None:
            self._session_key = None  # unknown or expired: a new session, as Django does
            return None
        return model(session_key=self.session_key, session_data=found[0])  # load() reads session_data only
