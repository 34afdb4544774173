"""Django's own messages this app shows, so makemessages puts them in our catalogue.

Django 5.2 ships Urdu translations for only some of its messages and none for
Sindhi; a message listed here gets a translation in locale/<lang>/, which
takes precedence over Django's (LOCALE_PATHS comes first). Nothing imports
this module: makemessages reads it. The msgids must stay exactly Django's
(copied from django/contrib/auth/password_validation.py, django/contrib/auth/models.py,
django/utils/timesince.py, django/utils/dates.py and django/views/csrf.py); check them when Django is upgraded.

Not listed: AuthenticationForm's errors (registration/login.html shows its own
sentence instead), field errors of Django forms (the app's pages parse their
input themselves and write their own messages), and the admin.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

# ngettext_lazy makes makemessages write a plural entry; nothing is translated at import.
MESSAGES = [
    # The first organiser's password (access/setup.html runs Django's password validators).
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        1,
    ),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("username"),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    # "%(time)s ago" in a match's history (django.utils.timesince).
    ngettext_lazy("%(num)d year", "%(num)d years", 1),
    ngettext_lazy("%(num)d month", "%(num)d months", 1),
    ngettext_lazy("%(num)d week", "%(num)d weeks", 1),
    ngettext_lazy("%(num)d day", "%(num)d days", 1),
    ngettext_lazy("%(num)d hour", "%(num)d hours", 1),
    ngettext_lazy("%(num)d minute", "%(num)d minutes", 1),
    # timesince joins its parts with this (Django's Urdu has "،" without the space).
    gettext_noop(", "),
    # Django's CSRF failure page (a form sent after its cookie expired).
    gettext_noop("Forbidden"),
    gettext_noop("CSRF verification failed. Request aborted."),
    gettext_noop(
        "You are seeing this message because this HTTPS site requires a “Referer "
        "header” to be sent by your web browser, but none was sent. This header is "
        "required for security reasons, to ensure that your browser is not being "
        "hijacked by third parties."
    ),
    gettext_noop(
        "If you have configured your browser to disable “Referer” headers, please "
        "re-enable them, at least for this site, or for HTTPS connections, or for "
        "“same-origin” requests."
    ),
    gettext_noop(
        'If you are using the <meta name="referrer" content="no-referrer"> tag or '
        "including the “Referrer-Policy: no-referrer” header, please remove them. The"
        " CSRF protection requires the “Referer” header to do strict referer "
        "checking. If you’re concerned about privacy, use alternatives like <a "
        'rel="noreferrer" …> for links to third-party sites.'
    ),
    gettext_noop(
        "You are seeing this message because this site requires a CSRF cookie when "
        "submitting forms. This cookie is required for security reasons, to ensure "
        "that your browser is not being hijacked by third parties."
    ),
    gettext_noop(
        "If you have configured your browser to disable cookies, please re-enable "
        "them, at least for this site, or for “same-origin” requests."
    ),
    gettext_noop("More information is available with DEBUG=True."),
    # The months in dates such as "1 Dec 2026 18:02" (the "M" of the date filter:
    # django/utils/dates.py MONTHS_3); Django has no Sindhi catalogue.
    gettext_noop("jan"),
    gettext_noop("feb"),
    gettext_noop("mar"),
    gettext_noop("apr"),
    gettext_noop("may"),
    gettext_noop("jun"),
    gettext_noop("jul"),
    gettext_noop("aug"),
    gettext_noop("sep"),
    gettext_noop("oct"),
    gettext_noop("nov"),
    gettext_noop("dec"),
]
