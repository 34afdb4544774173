from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scorekeeper"
    verbose_name = "Scorekeeper"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from .middleware import session_seen_at_login

        # The login itself saves the session: it is "seen" from then on.
        user_logged_in.connect(session_seen_at_login, dispatch_uid="scorekeeper.session_seen")
