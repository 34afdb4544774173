import os
import sys

from django.core.wsgi import get_wsgi_application

from config.secret_key import NoSecretKey

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
try:
    application = get_wsgi_application()
except NoSecretKey as refusal:  # a plain message, not a traceback
    sys.exit(f"Scorekeeper cannot start. {refusal}")
