"""python -m scorekeeper.scoring [FILE]: the command-line front end of score_match."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

S1 = {"game": "spades", "players": ["Ann", "Bob"], "hands": [{"bids": [7, 4], "tricks": [8, 5]}]}
S1_RESULT = {
    "hands": [{"points": [71, 41], "totals": [71, 41], "bags": [1, 1], "bag_penalty": [0, 0]}],
    "totals": [71, 41],
    "finished": False,
    "winners": [],
    "next_hand": {"number": 2, "first_drawer": 1, "first_bidder": 0, "leader": 0},
}
BAD_HAND_2 = {
    "game": "spades",
    "players": ["Ann", "Bob"],
    "hands": [{"bids": [7, 4], "tricks": [8, 5]}, {"bids": [3, 14], "tricks": [6, 7]}],
}


def cli(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    if isinstance(stdin, str):
        stdin = stdin.encode()
    completed = subprocess.run(
        [sys.executable, "-m", "scorekeeper.scoring", *args],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    completed.stdout = completed.stdout.decode()
    completed.stderr = completed.stderr.decode()
    return completed


@pytest.fixture
def write(tmp_path):
    def write(content: str | bytes, name: str = "match.json") -> str:
        path = tmp_path / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
        return str(path)

    return write


def test_file(write):
    completed = cli(write(json.dumps(S1)))
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    assert json.loads(completed.stdout) == S1_RESULT
    assert completed.stdout.startswith('{\n  "hands": [\n    {\n      "points": [')  # indent 2


def test_stdin():
    completed = cli(stdin=json.dumps(S1))
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    assert json.loads(completed.stdout) == S1_RESULT


def test_stdin_dash():
    completed = cli("-", stdin=json.dumps(S1))
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == S1_RESULT


def test_finished_match_prints_null_next_hand(write):
    match = {
        "game": "spades",
        "players": ["Ann", "Bob"],
        "options": {"target": 100},
        "hands": [
            {"bids": [5, 5], "tricks": [7, 6]},
            {"bids": [5, 5], "tricks": [6, 7]},
            {"bids": [4, 6], "tricks": [5, 8]},
        ],
    }
    completed = cli(write(json.dumps(match)))
    assert completed.returncode == 0
    result = json.loads(completed.stdout)
    assert result["finished"] is True
    assert result["winners"] == [1]
    assert result["next_hand"] is None
    assert '"next_hand": null' in completed.stdout


def test_other_game_and_utf8_names(write):
    match = {
        "game": "drawbridge",
        "players": ["Zoë", "Jürgen"],
        "hands": [{"declarer": 0, "level": 3, "strain": "NT", "tricks": 9}],
    }
    completed = cli(write(json.dumps(match, ensure_ascii=False)))
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["hands"][0]["points"] == [100, 0]


def test_utf8_bom_is_accepted(write):
    completed = cli(write(b"\xef\xbb\xbf" + json.dumps(S1).encode()))
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == S1_RESULT


@pytest.mark.parametrize("via", ["file", "stdin"])
def test_invalid_hand(write, via):
    text = json.dumps(BAD_HAND_2)
    completed = cli(write(text)) if via == "file" else cli(stdin=text)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == 'Hand 2: Bob\'s bid must be 0 to 13 or "blind_nil", got 14\n'


@pytest.mark.parametrize("via", ["file", "stdin"])
def test_invalid_match_without_a_hand(write, via):
    text = json.dumps({"game": "spades", "players": ["Ann"], "hands": []})
    completed = cli(write(text)) if via == "file" else cli(stdin=text)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.count("\n") == 1
    assert "Traceback" not in completed.stderr
    assert completed.stderr.strip()


@pytest.mark.parametrize("via", ["file", "stdin"])
def test_malformed_json(write, via):
    text = '{"a":  }'
    completed = cli(write(text)) if via == "file" else cli(stdin=text)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == "Not valid JSON: line 1 column 8: Expecting value\n"


def test_malformed_json_reports_the_line(write):
    completed = cli(write('{\n  "game": "spades",\n  "players": ["Ann", "Bob"]\n  "hands": []\n}'))
    assert completed.returncode == 2
    assert completed.stderr.startswith("Not valid JSON: line 4 column 3: ")
    assert "delimiter" in completed.stderr


@pytest.mark.parametrize("text", ["", "   \n", "[1, 2", "spades"])
def test_empty_or_truncated_input(text):
    completed = cli(stdin=text)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.startswith("Not valid JSON: line ")
    assert completed.stderr.count("\n") == 1


def test_json_that_is_not_a_match():
    completed = cli(stdin="[1, 2, 3]")
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "Traceback" not in completed.stderr
    assert completed.stderr.strip()


def test_not_utf8(write):
    completed = cli(write(b'{"game": "\xff"}'))
    assert completed.returncode == 2
    assert "UTF-8" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_missing_file(tmp_path):
    path = tmp_path / "nope.json"
    completed = cli(str(path))
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert str(path) in completed.stderr
    assert "No such file" in completed.stderr
    assert "Traceback" not in completed.stderr
    assert completed.stderr.count("\n") == 1


def test_directory_instead_of_a_file(tmp_path):
    completed = cli(str(tmp_path))
    assert completed.returncode == 2
    assert str(tmp_path) in completed.stderr
    assert "Traceback" not in completed.stderr


def test_help():
    completed = cli("--help")
    assert completed.returncode == 0
    assert completed.stdout.startswith("usage: python -m scorekeeper.scoring [-h] [FILE]")
    assert "FILE" in completed.stdout
    assert "standard input" in completed.stdout


def test_too_many_arguments(write):
    path = write(json.dumps(S1))
    completed = cli(path, path)
    assert completed.returncode == 2
    assert "usage:" in completed.stderr


def test_main_in_process(write, capsys):
    from scorekeeper.scoring.__main__ import main

    assert main([write(json.dumps(S1))]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == S1_RESULT
    assert err == ""
    assert main([write(json.dumps(BAD_HAND_2), "bad.json")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("Hand 2: ")


@pytest.mark.parametrize(
    ("match", "expected"),
    [
        (  # RULES.md 7.8, P1
            {
                "game": "partnership_spades",
                "players": ["Ann", "Bob", "Cat", "Dan"],
                "hands": [{"bids": [3, 4, 2, 4], "tricks": [6, 7]}],
            },
            {
                "hands": [
                    {
                        "points": [51, -80],
                        "totals": [51, -80],
                        "contract": [5, 8],
                        "made": [True, False],
                        "nil_made": [None, None, None, None],
                        "bags": [1, 0],
                        "bag_penalty": [0, 0],
                    }
                ],
                "totals": [51, -80],
                "finished": False,
                "winners": [],
                "next_hand": {
                    "number": 2,
                    "dealer": 1,
                    "first_bidder": 2,
                    "leader": 2,
                    "blind_nil_allowed": [False, True],
                },
                "sides": [[0, 2], [1, 3]],
            },
        ),
        (  # RULES.md 8.7, C2
            {
                "game": "courtpiece",
                "players": ["Ann", "Bob", "Cat", "Dan"],
                "hands": [{"winner": 1, "court": "first7"}],
            },
            {
                "hands": [
                    {
                        "points": [0, 1],
                        "totals": [0, 1],
                        "dealer": 0,
                        "caller": 1,
                        "winner": 1,
                        "court": "kot",
                        "deals_won": [0, 1],
                        "run": [0, 0],
                    }
                ],
                "totals": [0, 1],
                "finished": False,
                "winners": [],
                "next_hand": {"number": 2, "dealer": 2, "caller": 3, "leader": 3},
                "sides": [[0, 2], [1, 3]],
            },
        ),
    ],
    ids=["partnership_spades", "courtpiece"],
)
def test_the_games_with_partnerships(write, match, expected):
    completed = cli(write(json.dumps(match)))
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == expected


def test_a_partnership_error_names_the_side(write):
    match = {"game": "courtpiece", "players": ["Ann", "Bob", "Cat", "Dan"], "hands": [{"winner": 2}]}
    completed = cli(write(json.dumps(match)))
    assert completed.returncode == 2
    assert completed.stderr == "Hand 1: the winner must be 0 (Ann & Cat) or 1 (Bob & Dan), got 2\n"
