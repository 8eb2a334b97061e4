"""The daily trek in German and French: the par and the attempt's note, the shared line, the
boards, the morning post and the answers; and in the pseudo-locale, every text within
Discord's limits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.app import ACHIEVEMENTS
from bot.daily.par import finish_note, par_line
from bot.daily.service import (
    NOWHERE,
    AttemptOpen,
    Board,
    DailyTrek,
    NotPlayedYet,
    board_text,
    morning_text,
    streak_line,
)
from bot.daily.share import SHARE_LABEL, share_line
from bot.daily.store import DailyAttempt, DailyEntry
from bot.game.service import GameService
from bot.stores import Store
from engine import Day, Wildlife
from i18n import PSEUDO, _, speaking
from tests.bot.clocks import FakeClock
from tests.bot.daily.test_daily import ADA, GUILD, play_out, start
from tests.bot.queued import queued as sent

DAY = Day.parse("2026-12-04")
START = datetime(2026, 12, 4, 9, tzinfo=UTC)
CHANNEL = 777


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


POINTS = {Wildlife.BEAR: 12, Wildlife.ELK: 8, Wildlife.SALMON: 0, Wildlife.HAWK: 5, Wildlife.FOX: 2}


def _attempt(*, counted: bool) -> DailyAttempt:
    return DailyAttempt(game_id=1, user_id=101, day=str(DAY), counted=counted, created_at=START)


def _board(count: int, *, name: str = "Ada") -> Board:
    entries = tuple(
        DailyEntry(
            game_id=n, guild_id=10, user_id=n, name=name, day=str(DAY),
            score=100 - n, corridor=n, finished_at=START,
        )
        for n in range(1, count + 1)
    )  # fmt: skip
    return Board(DAY, entries, entries, 88, {n: 3 for n in range(1, count + 1)})


def test_the_par_and_the_note_of_an_attempt_in_german_and_french() -> None:
    with speaking("de"):
        assert par_line(92, 88) == "Du hast den Computer um 4 Punkte geschlagen (Par 88)."
        note = finish_note(_attempt(counted=True), 92, 88)
        assert "Deine Tageswanderung vom 2026-12-04 steht in der Rangliste" in note
    with speaking("fr"):
        assert par_line(88, 88) == "Égalité avec l\u2019ordinateur (par 88)."
        note = finish_note(_attempt(counted=False), 80, 88)
        assert note == (
            "\nL\u2019ordinateur t\u2019a battu de 8 points (par 88)."
            " Entraînement sur la donne du 2026-12-04 : hors classement."
        )


def test_the_shared_line_in_german_names_the_wildlife_as_the_edition_does() -> None:
    with speaking("de"):
        line = share_line(
            "ada", str(DAY), total=92, par=88, streak=3, wildlife=POINTS, counted=True,
            firsts=["Kein Lachs", "A", "B", "C", "D"],
        )  # fmt: skip
        assert _(SHARE_LABEL) == "Teilen"
    assert line == (
        "Tageswanderung von **ada**, 2026-12-04: 92 Punkte, 4 über Par, 3 Tage in Folge."
        " Bär 12 🟫🟫🟫, Hirsch 8 🟨🟨, Lachs 0, Bussard 5 🟦, Fuchs 2 🟧."
        " Zum ersten Mal: Kein Lachs, A, B +2 weitere."
    )


def test_the_shared_line_of_practice_in_french() -> None:
    with speaking("fr"):
        line = share_line("ada", str(DAY), total=70, par=88, streak=3, wildlife={}, counted=False)
    assert line.startswith(
        "**ada** · randonnée du jour (entraînement), 2026-12-04 : 70 points, 18 sous le par."
    )
    assert "affilée" not in line
    assert "Ours 0, Wapiti 0, Saumon 0, Buse 0, Renard 0." in line


def test_the_board_and_the_morning_post_in_french_and_german() -> None:
    with speaking("fr"):
        text = board_text(_board(2), caller=2, played=True)
        morning = morning_text(DAY)
    assert text.startswith("**La randonnée du 2026-12-04** (par 88, le score de `fast`)\n")
    assert "2. **Ada** (toi) : 98 points, plus grande zone 2, série de 3 jours" in text
    assert "Toi : 98 points, place 2 sur 2 parmi tous les joueurs du jour." in text
    assert "Vois la partie terminée de chacun" in text
    assert morning.startswith("**La randonnée du 2026-12-04** est là")
    assert "Cartes : Ours " in morning
    with speaking("de"):
        empty = board_text(_board(0), caller=None, played=True)
        assert streak_line(1) == "\nTageswanderung: 1 Tag in Folge."
    assert "Hier hat noch niemand die Tageswanderung dieses Tages beendet." in empty
    assert "Wer sie gespielt hat, kann die Partien ansehen" in empty


def test_the_answers_speak_the_askers_language() -> None:
    with speaking("de"):
        assert str(AttemptOpen(_attempt(counted=True), 55, direct=True)) == (
            "Deine Tageswanderung vom 2026-12-04 ist noch nicht zu Ende: spiel sie zuerst in"
            " unseren Direktnachrichten fertig."
        )
        assert _(NOWHERE).startswith("Hier gibt es keinen Ort zum Teilen")
    with speaking("fr"):
        assert "pas de spoilers" in str(NotPlayedYet(DAY))
        assert "termine-la d\u2019abord dans <#55>." in str(AttemptOpen(_attempt(counted=True), 55))


def test_in_the_pseudo_locale_every_text_fits_discord() -> None:
    with speaking(PSEUDO):
        assert len(_(SHARE_LABEL)) <= 80
        line = share_line(
            "_" * 32, str(DAY), total=120, par=88, streak=365, wildlife=POINTS, counted=True,
            firsts=["⟦" + "x" * 40 + "⟧"] * 10,
        )  # fmt: skip
        assert len(line) <= 2000
        text = board_text(_board(30, name="_" * 80), caller=30, played=True)
        assert len(text) <= 2000
        assert "⟦…and" in text, "the places that do not fit are counted"
        assert len(morning_text(DAY)) <= 2000
        assert len(_("Daily trek {day}: {name}", day=DAY, name="_" * 32)[:100]) <= 100


async def test_an_attempt_speaks_its_members_language_and_the_channel_its_servers(
    service: GameService, clock: FakeClock
) -> None:
    store = service.store_as(Store)
    await store.note_person_locale(ADA, "de")
    await store.note_guild_locale(GUILD, "fr")
    trek = DailyTrek(service, titles=dict(ACHIEVEMENTS.catalogue))
    await trek.set_channel(GUILD, CHANNEL, user_id=ADA)
    await trek.queue_posts()
    (morning,) = await sent(store, "daily-morning")
    assert morning.locale == "fr"
    assert morning.text.startswith("**La randonnée du 2026-12-04** est là")
    game_id = await start(service, ADA)
    (first,) = await sent(store, "start")
    assert first.locale == "de"
    assert first.text.startswith("**Die Tageswanderung vom 2026-12-04**: dein Versuch")
    assert "Die Partie beginnt (Solo-Regeln)!" in first.text
    await play_out(service, ADA)
    (final,) = await sent(store, "finish")
    assert "Deine Tageswanderung vom 2026-12-04 steht in der Rangliste" in final.text
    assert "Erstmals auf dem Server: " in final.text, final.text
    assert ("Teilen", f"cascadia:share:{game_id}") in final.buttons
    # The line is the server's, in French; the answer is the presser's, in German.
    with speaking("de"):
        shared = await trek.share(game_id, user_id=ADA)
    assert shared.answer == "Im Kanal der Tageswanderung geteilt."
    (line,) = await sent(store, "daily-share")
    assert line.locale == "fr"
    assert line.text.startswith("**Ada** · randonnée du jour, 2026-12-04 : ")
    assert "Pour la première fois : " in line.text
    assert "Ours " in line.text
    clock.advance(timedelta(days=1))
    await trek.queue_posts()
    posts = {p.kind: p for p in await sent(store) if p.kind.startswith("daily")}
    assert posts["daily-morning"].text.startswith("**La randonnée du 2026-12-05** est là")
    assert posts["daily-board"].text.startswith("**La randonnée du 2026-12-04** (par ")
    assert "1. **Ada** : " in posts["daily-board"].text
    assert posts["daily-board"].locale == "fr"
