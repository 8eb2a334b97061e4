"""The day's deal: a pure function of the date, and ``python -m engine daily``."""

from __future__ import annotations

import datetime
import hashlib
import json
from collections import Counter

import pytest

from engine import (
    SCENARIOS,
    TURNS_PER_PLAYER,
    CardSet,
    DailyDeal,
    Day,
    GameRecord,
    InvalidInput,
    Phase,
    daily_deal,
    daily_game,
    new_game,
    record_for,
    score_state,
)
from engine.daily import daily_seed
from engine.players import play_game
from tests.engine.test_cli_games import run

# Computed once by this code: they pin that every machine and Python version deals the same.
GOLDEN_DEALS = {
    "2026-12-02": ("CCDBA", "S5", 1409438961297716910),
    "2026-12-31": ("BBACC", "S5", 4364070044013448192),
    "2027-01-01": ("BCBDD", "S3", 8403068332382687453),
    "2028-02-28": ("BCBAA", "S5", 5556194774474315001),
    "2028-02-29": ("DBADB", "S2", 7702155021072704985),
    "2028-03-01": ("DBBDA", "S4", 4243458167912169844),
}
# The hidden order too: the opening display and the next tiles of the stacks.
GOLDEN_OPENINGS = {
    "2026-12-02": ((74, 79, 91, 90), ("salmon", "salmon", "hawk", "hawk"), (34, 89, 93, 47)),
    "2027-01-01": ((21, 20, 29, 75), ("hawk", "salmon", "salmon", "hawk"), (68, 76, 70, 56)),
}


def days(first: datetime.date, count: int) -> list[Day]:
    dates = (first + datetime.timedelta(days=n) for n in range(count))
    return [Day(d.year, d.month, d.day) for d in dates]


@pytest.mark.parametrize("text", sorted(GOLDEN_DEALS))
def test_the_deals_of_pinned_days_never_change(text: str) -> None:
    cards, starter, seed = GOLDEN_DEALS[text]
    deal = daily_deal(Day.parse(text))
    assert (str(deal.cards), deal.starter, deal.seed) == (cards, starter, seed)


@pytest.mark.parametrize("text", sorted(GOLDEN_OPENINGS))
def test_the_days_stacks_and_bag_never_change(text: str) -> None:
    tiles, tokens, stack = GOLDEN_OPENINGS[text]
    state = daily_game(Day.parse(text))
    assert tuple(tile.id for tile in state.display_tiles if tile is not None) == tiles
    assert tuple(str(token) for token in state.display_tokens) == tokens
    assert tuple(tile.id for tile in state.stack[:4]) == stack


def test_the_deal_is_the_same_from_equal_days() -> None:
    assert daily_deal(Day(2026, 12, 2)) == daily_deal(Day.parse("2026-12-02"))
    assert daily_game(Day(2026, 12, 2)) == daily_game(Day(2026, 12, 2))


def test_the_days_game_is_a_new_solo_game_of_the_days_seed() -> None:
    day = Day(2026, 12, 2)
    deal = daily_deal(day)
    state = daily_game(day)
    assert state == new_game(players=1, seed=deal.seed, cards=deal.cards)
    assert state == new_game(players=1, seed=deal.seed, cards="random")
    assert state.solo
    assert state.turn == 0
    assert state.phase is Phase.CHOOSE
    assert state.starters == (deal.starter,)
    assert state.cards.variant is None


def test_the_seed_is_a_hash_of_the_dates_text() -> None:
    # sha256("cascadia-daily:2026-12-02"), first 8 bytes, top 63 bits.
    digest = hashlib.sha256(b"cascadia-daily:2026-12-02").digest()
    assert daily_seed(Day(2026, 12, 2)) == int.from_bytes(digest[:8], "big") >> 1
    assert 0 <= daily_seed(Day(2026, 12, 2)) < 2**63


def test_the_leap_day_has_a_deal_of_its_own() -> None:
    around = [Day.parse(t) for t in ("2028-02-28", "2028-02-29", "2028-03-01")]
    assert len({daily_seed(day) for day in around}) == 3
    with pytest.raises(InvalidInput, match="2027-02 has no day 29"):
        Day.parse("2027-02-29")
    with pytest.raises(InvalidInput, match="2100-02 has no day 29"):
        Day(2100, 2, 29)
    assert str(Day(2000, 2, 29)) == "2000-02-29"


def test_the_year_change_changes_the_deal() -> None:
    last, first = Day.parse("2026-12-31"), Day.parse("2027-01-01")
    assert daily_seed(last) != daily_seed(first)
    # The same day of the month in another year is another deal too.
    assert daily_seed(Day(2026, 12, 2)) != daily_seed(Day(2027, 12, 2))


def test_a_few_hundred_days_all_differ_and_use_every_letter() -> None:
    deals = [daily_deal(day) for day in days(datetime.date(2026, 1, 1), 400)]
    assert len({deal.seed for deal in deals}) == len(deals)
    letters = Counter(letter for deal in deals for letter in deal.cards.letters or ())
    assert set(letters) == {"A", "B", "C", "D"}
    # 2000 draws among four letters: each well away from never or always.
    assert all(300 < count < 700 for count in letters.values()), letters
    assert sum(deal.cards == deals[0].cards for deal in deals) < 10
    assert set(Counter(deal.starter for deal in deals)) == {"S1", "S2", "S3", "S4", "S5"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2026-13-01", "the month must be 1-12, not 13"),
        ("2026-12-32", "2026-12 has no day 32"),
        ("02-12-2026", "not a date: '02-12-2026'"),
        ("2026-1-2", "not a date"),
        ("tomorrow", "not a date"),
        ("0000-01-01", "the year must be 1-9999, not 0"),
    ],
)
def test_a_day_that_is_not_a_date_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        Day.parse(text)


def test_a_day_round_trips_through_its_text() -> None:
    for day in days(datetime.date(2027, 12, 25), 14):
        assert Day.parse(str(day)) == day
        assert eval(repr(day)) == day
        assert datetime.date.fromisoformat(str(day)) == datetime.date(day.year, day.month, day.day)
    assert Day(2026, 12, 31) < Day(2027, 1, 1)


def test_the_json_names_the_date_cards_starter_and_seed() -> None:
    deal = DailyDeal(day=Day(2026, 12, 2), seed=7, cards=CardSet.parse("CCDBA"), starter="S5")
    assert deal.to_json() == {
        "date": "2026-12-02",
        "cards": "CCDBA",
        "starter": "S5",
        "seed": 7,
        "scenario": None,
    }


def test_the_command_prints_the_days_deal_the_same_every_run() -> None:
    first = run("daily", "--date", "2026-12-02")
    second = run("daily", "--date", "2026-12-02")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    printed = json.loads(first.stdout)
    assert printed == {
        "date": "2026-12-02",
        "cards": "CCDBA",
        "starter": "S5",
        "seed": 1409438961297716910,
        "scenario": None,
    }
    assert len(printed["cards"]) == 5
    other = json.loads(run("daily", "--date", "2026-12-03").stdout)
    assert other["seed"] != printed["seed"]


def test_the_command_without_a_date_deals_todays_utc_date() -> None:
    before = datetime.datetime.now(datetime.UTC).date().isoformat()
    result = run("daily")
    after = datetime.datetime.now(datetime.UTC).date().isoformat()
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["date"] in {before, after}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--date", "2027-02-29"), "error: 2027-02 has no day 29\n"),
        (("--date", "soon"), "error: not a date: 'soon' (expected YYYY-MM-DD)\n"),
        (("--date", "2026-12-02", "--play", "clever"), "error: unknown policy: 'clever'"),
        (("--date", "2026-12-02", "--play", "fast,greedy"), "error: the day's game has one"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(args: tuple[str, ...], message: str) -> None:
    result = run("daily", *args)
    assert result.returncode == 2
    assert result.stderr.startswith(message)
    assert len(result.stderr.splitlines()) == 1
    assert result.stdout == ""


def test_play_plays_the_whole_day_the_same_every_run() -> None:
    first = run("daily", "--date", "2026-12-02", "--play", "fast")
    second = run("daily", "--date", "2026-12-02", "--play", "fast")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    printed = json.loads(first.stdout)
    assert {k: printed[k] for k in ("date", "cards", "starter", "seed", "policy")} == {
        "date": "2026-12-02",
        "cards": "CCDBA",
        "starter": "S5",
        "seed": 1409438961297716910,
        "policy": "fast",
    }
    # The score sheet is the one ``python -m engine score`` prints for the final table.
    (player,) = printed["players"]
    assert printed["ranking"] == ["fast"]
    assert player["total"] == 93
    assert player["total"] == (
        player["wildlife_total"] + player["habitat_total"] + player["nature_tokens"]
    )


def test_play_is_the_fast_players_game_from_the_days_state() -> None:
    deal = daily_deal(Day(2026, 12, 2))
    played = play_game(players=1, seed=deal.seed, cards=deal.cards, policies=["fast"])
    assert played.state.is_over
    assert played.state.seats[0].turns_taken == TURNS_PER_PLAYER
    sheet = score_state(played.state, ["fast"])
    printed = json.loads(run("daily", "--date", "2026-12-02", "--play", "fast").stdout)
    assert printed["players"] == [score.to_json() for score in sheet.players]
    record = record_for(played.state, played.actions, ["fast"]).to_json()
    assert GameRecord.from_json(record).replay() == played.state


def test_play_strong_with_rollouts_is_the_same_every_run() -> None:
    args = ("daily", "--date", "2027-01-01", "--play", "strong", "--rollouts", "8")
    first, second = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert json.loads(first.stdout)["policy"] == "strong"


def test_each_sunday_plays_a_solo_scenario_the_fifteen_in_turn() -> None:
    sundays = [Day.parse("2026-12-06")]
    for _ in range(15):
        last = sundays[-1]
        sundays.append(Day(*_days_later(last, 7)))
    numbers = [daily_deal(day).scenario or 0 for day in sundays]
    assert sorted(numbers[:15]) == list(range(1, 16))
    assert numbers[15] == numbers[0]
    for day, number in zip(sundays, numbers, strict=True):
        deal = daily_deal(day)
        assert deal.cards == SCENARIOS[number - 1].cards
        assert daily_game(day).cards == deal.cards
    # The other days of the week play no scenario, and a Sunday's seed is its date's as ever.
    for offset in range(1, 7):
        assert daily_deal(Day(*_days_later(sundays[0], offset))).scenario is None
    assert daily_deal(sundays[0]).seed == daily_seed(sundays[0])


def test_the_command_says_which_scenario_a_sunday_plays() -> None:
    printed = json.loads(run("daily", "--date", "2026-12-06").stdout)
    number = printed["scenario"]
    assert printed["cards"] == str(SCENARIOS[number - 1].cards)


def _days_later(day: Day, days: int) -> tuple[int, int, int]:
    moved = datetime.date(day.year, day.month, day.day) + datetime.timedelta(days=days)
    return moved.year, moved.month, moved.day
