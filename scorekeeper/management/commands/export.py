"""manage.py export [FILE] [--match N | --tournament N]: a JSON backup."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from ...backups import export
from ...backups.restore import counted
from ...models import Match, Tournament


class Command(BaseCommand):
    help = "Write a backup (JSON) of everything, one match or one tournament, to FILE or standard output."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="where to write it (default: standard output)")
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--match", type=int)
        which.add_argument("--tournament", type=int)

    def handle(self, *args, file=None, match=None, tournament=None, **options):
        try:
            if match is not None:
                data = export.export_match(Match.objects.get(pk=match))
            elif tournament is not None:
                data = export.export_tournament(Tournament.objects.get(pk=tournament))
            else:
                data = export.export_everything()
        except (Match.DoesNotExist, Tournament.DoesNotExist):
            raise CommandError("There is no such match or tournament.") from None
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if file:
            with open(file, "w", encoding="utf-8") as out:
                out.write(text)
            self.stderr.write(f"{counted(len(data['matches']), len(data['tournaments']))} written to {file}")
        else:
            sys.stdout.write(text + "\n")
