"""The server's SECRET_KEY: from the environment, else from a file kept
beside the database, made on the first run.

Every scoring link and every device's grant cookie is worked out from the
key (scorekeeper/access/links.py), so it must be this server's own: no key
is written in the source. The file is created once, readable by its owner
only, and never in git (.gitignore); whoever copies the database keeps the
key with it (README, "Set up"). Losing or changing it reissues every link.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

KEY_FILE_NAME = "secret_key"
MIN_LENGTH = 50


class NoSecretKey(RuntimeError):
    """The server cannot start: said in plain words, no traceback needed."""


def read_or_create(path: Path) -> str:
    """The key in ``path``; on the first run a new random one, written there
    first (owner-only). Two processes starting at once agree on one key:
    the file appears whole or not at all (a hard link of a finished file)."""
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    new = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(MIN_LENGTH) + "\n")
        with contextlib.suppress(FileExistsError):  # another process made it meanwhile: theirs wins
            os.link(new, path)
    except OSError as e:
        raise NoSecretKey(
            f"No SECRET_KEY: it is not set, and the key file {path} could not be created ({e.strerror}). "
            "Set SECRET_KEY, or let Scorekeeper write in that folder."
        ) from None
    finally:
        new.unlink(missing_ok=True)
    return _read(path)


def _read(path: Path) -> str:
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as e:
        raise NoSecretKey(f"No SECRET_KEY: the key file {path} cannot be read ({e}).") from None
    if len(key) < MIN_LENGTH:
        raise NoSecretKey(
            f"No SECRET_KEY: the key file {path} is damaged (shorter than {MIN_LENGTH} characters). "
            "Restore it from where you keep the database, or delete it to make a new one "
            "(every scoring link is then reissued)."
        )
    return key
