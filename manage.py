#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    from config.secret_key import NoSecretKey

    try:
        execute_from_command_line(sys.argv)
    except NoSecretKey as refusal:  # a plain message, not a traceback
        sys.exit(f"Scorekeeper cannot start. {refusal}")


if __name__ == "__main__":
    main()
