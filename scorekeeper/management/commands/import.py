"""manage.py import FILE [--as-copy]: restore a JSON backup, all or nothing.

What is already here (the same matches and tournaments, by their uid) is
left as it is and named; --as-copy restores the whole file again as new
matches and tournaments that count in no player's record or rating.
Exit status 2, with the reason, for a file that cannot be restored."""

from django.core.management.base import BaseCommand, CommandError

from ...backups.restore import import_backup, summary
from ...errors import ServiceError


class Command(BaseCommand):
    help = "Restore a backup written by 'manage.py export' or the Backups page: all of it or nothing."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--as-copy",
            action="store_true",
            help="restore everything again as new matches and tournaments, even what is already here",
        )

    def handle(self, *args, file, as_copy, **options):
        try:
            with open(file, "rb") as source:
                raw = source.read()
        except OSError as e:
            raise CommandError(f"Cannot read {file}: {e.strerror}", returncode=2) from None
        try:
            done = import_backup(raw, as_copy=as_copy)
        except ServiceError as e:
            raise CommandError(e.message, returncode=2) from None
        self.stdout.write(summary(done))
