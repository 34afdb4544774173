"""The app's own settings for the tests, with two differences: static files
are found in static/ as they are, since the tests run no collectstatic
(the production server serves the collected, hashed store: bin/run), and
copies of the database go to a folder of the test process."""

import os
import tempfile
from pathlib import Path

from config.settings import *  # noqa: F403

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405

# Copies of the test database (a finished match, a completed round) go to a
# folder of this test process, never beside the project's own database.
DATABASE_COPIES_DIR = Path(tempfile.gettempdir()) / f"scorekeeper-test-copies-{os.getpid()}"
