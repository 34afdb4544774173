from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scorekeeper"
    verbose_name = "Scorekeeper"

    def ready(self):
        from django.conf.locale import LANG_INFO

        # Django knows no Sindhi: {% get_language_info %} and the chooser need its names.
        LANG_INFO.setdefault("sd", {"bidi": True, "code": "sd", "name": "Sindhi", "name_local": "سنڌي"})

        from django.contrib.auth.signals import user_logged_in

        from .middleware import session_seen_at_login

        # The login itself saves the session: it is "seen" from then on.
        user_logged_in.connect(session_seen_at_login, dispatch_uid="scorekeeper.session_seen")

        from . import polls

        # Every write of a match or a round puts what the polls compare in the cache.
        polls.connect()
