"""manage.py import FILE: restore a JSON backup, all or nothing."""

from django.core.management.base import BaseCommand, CommandError

from ...backups.restore import import_backup
from ...errors import ServiceError


class Command(BaseCommand):
    help = "Import a backup written by 'manage.py export' or the organiser's Backup page: all of it or nothing."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            with open(file, "rb") as source:
                raw = source.read()
        except OSError as e:
            raise CommandError(f"Cannot read {file}: {e.strerror}") from None
        try:
            done = import_backup(raw)
        except ServiceError as e:
            raise CommandError(e.message) from None
        self.stdout.write(
            f"Imported {done.matches} matches and {done.tournaments} tournaments ({done.players} players)."
        )
