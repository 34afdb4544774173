"""python manage.py demo: a few players and one match of each game in
progress and one finished, so a newcomer sees a realistic app at once."""

from django.conf import settings
from django.core.management.base import BaseCommand

from config.network import local_url
from scorekeeper.audit import Actor
from scorekeeper.matches import services

DEMO = Actor(label="demo data")

# (game, players, options, hands of the finished match, hands of the one in progress)
MATCHES = [
    (
        "spades",
        ["Ann", "Bob"],
        {"target": 200},
        [
            {"bids": [4, 5], "tricks": [7, 6]},
            {"bids": [3, 6], "tricks": [6, 7]},
            {"bids": [4, 4], "tricks": [9, 4]},
            {"bids": [6, 6], "tricks": [4, 9]},
        ],
        [{"bids": [7, 4], "tricks": [8, 5]}, {"bids": [0, 5], "tricks": [0, 13]}],
    ),
    (
        "drawbridge",
        ["Cat", "Dan"],
        {"target": 500},
        [
            {"declarer": 0, "level": 3, "strain": "NT", "tricks": 9},
            {"declarer": 1, "level": 4, "strain": "S", "double": "double", "tricks": 11},
            {"passed_out": True},
            {"declarer": 0, "level": 2, "strain": "H", "double": "redouble", "tricks": 7},
        ],
        [{"declarer": 0, "level": 3, "strain": "NT", "tricks": 9}],
    ),
    (
        "sixtysix",
        ["Eve", "Fay"],
        {"target": 7},
        [
            {"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True},
            {"end": "out", "player": 1, "points": [25, 66], "opponent_took_trick": True},
            {"end": "out", "player": 0, "points": [82, 0], "opponent_took_trick": False},
            {
                "end": "closed",
                "player": 1,
                "points": [34, 51],
                "opponent_took_trick": True,
                "opponent_trick_at_close": False,
            },
        ],
        [{"end": "played_out", "player": 0, "points": [75, 55], "opponent_took_trick": True}],
    ),
    (
        "ohhell",
        ["Ann", "Bob", "Cat", "Dan"],
        {"schedule": "up", "hook": True},
        None,  # the finished Oh Hell game is the 7-player one below
        [{"bids": [0, 1, 1, 0], "tricks": [0, 1, 0, 0]}, {"bids": [1, 0, 0, 0], "tricks": [1, 0, 1, 0]}],
    ),
    (
        "ohhell",
        ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"],
        {},
        [
            {"bids": [0, 0, 0, 0, 0, 0, 1], "tricks": [0, 0, 0, 0, 0, 0, 1]},
            {"bids": [1, 0, 0, 0, 0, 0, 0], "tricks": [1, 1, 0, 0, 0, 0, 0]},
            {"bids": [0, 1, 0, 1, 0, 0, 0], "tricks": [0, 1, 0, 1, 0, 1, 0]},
            {"bids": [1, 1, 1, 0, 0, 0, 0], "tricks": [1, 1, 1, 0, 0, 0, 1]},
            {"bids": [2, 0, 1, 1, 0, 0, 1], "tricks": [2, 0, 1, 1, 0, 0, 1]},
            {"bids": [1, 1, 1, 1, 1, 0, 1], "tricks": [1, 1, 1, 1, 1, 0, 1]},
            {"bids": [2, 1, 1, 1, 1, 0, 1], "tricks": [1, 2, 1, 1, 1, 0, 1]},
        ],
        None,
    ),
]


class Command(BaseCommand):
    help = "Create demo players and matches (in progress and finished) of every game."

    def handle(self, *args, **options):
        created = 0
        # Record through the services, as the app does, so the demo is scored by the engine.
        for game, names, opts, finished_hands, open_hands in MATCHES:
            for hands in (finished_hands, open_hands):
                if hands is None:
                    continue
                match = services.start_match(game=game, player_names=names, options=opts, actor=DEMO)
                for number, hand in enumerate(hands, start=1):
                    services.record_hand(
                        match_id=match.pk,
                        entry=hand,
                        number=number,
                        bidding_in_force=None,
                        client_key=f"demo-{match.pk}-{number}",
                        actor=DEMO,
                    )
                created += 1
        self.stdout.write(self.style.SUCCESS(f"Created {created} demo matches."))
        # Where the server of these settings is reached (ADDRESS, as bin/run and bin/dev serve it).
        self.stdout.write(f"Open {local_url(settings.ADDRESS)}/ once the server runs (bin/run or bin/dev).")
        if settings.JOIN_URL:
            self.stdout.write(f"Phones on the network open {settings.JOIN_URL}/")
