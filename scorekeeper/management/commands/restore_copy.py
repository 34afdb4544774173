"""manage.py restore_copy [FILE]: put back a copy of the SQLite database
made while an event ran (scorekeeper/backups/copies.py).

Without FILE it lists the copies kept. With FILE it checks the copy whole,
keeps a copy of the database as it is now (so the restore can itself be
undone), then writes the chosen copy over the database. Stop the server
first; bin/run afterwards migrates it if the copy is from an older version.
"""

from pathlib import Path

from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from ...backups import copies


class Command(BaseCommand):
    help = "List the database copies made during events, or restore one (stop the server first)."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="the copy to restore; without it, the copies are listed")

    def handle(self, *args, file=None, **options):
        if not copies.enabled():
            raise CommandError(
                "This server's database is not SQLite: restore PostgreSQL from pg_dump or the host's backups."
            )
        if file is None:
            kept = copies.copies()
            if not kept:
                self.stdout.write(f"No copies yet in {copies.copies_folder()}.")
            for path in kept:
                self.stdout.write(f"{path}  ({path.stat().st_size // 1024} kB)")
            return
        chosen = Path(file)
        if not chosen.is_file():
            raise CommandError(f"There is no file {chosen}.")
        why = copies.check_copy(chosen)
        if why:
            raise CommandError(f"Nothing was restored: {chosen} cannot be used: {why}.")
        connection.close()
        kept = copies.make_copy("before restoring " + chosen.stem)
        copies.copy_database(chosen, copies.database_path())
        # The polls' versions and the drawn standings are of the database as it was (scorekeeper/polls.py).
        for alias in caches:
            caches[alias].clear()
        self.stdout.write(
            f"Restored {chosen} into {copies.database_path()}.\n"
            f"The database as it was just before is kept in {kept}.\n"
            "Start the server again (bin/run): it brings the copy up to this version if needed."
        )
