"""The app's own settings for the tests, with one difference: static files
are found in static/ as they are, since the tests run no collectstatic
(the production server serves the collected, hashed store: bin/run)."""

from config.settings import *  # noqa: F403

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
