"""Attendance in other languages: what is posted in a game's channel (a reminder, a vote, a
skipped turn) is in the game's language, what goes to one person by direct message (a turn, a
reminder, the digest) in that person's, whatever the game's; the answers in the reader's. The
pseudo-locale's longer words still fit Discord's limits."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.attendance import notify, texts
from bot.attendance.notices import Notices
from bot.attendance.notify import DigestGame, NotifyChange
from bot.attendance.presence import BadAwayDate, Presence, SkipTally, parse_day
from bot.attendance.quiet import QuietHours
from bot.attendance.reminder_queue import ReminderQueue
from bot.attendance.service import Attendance, BadSetting
from bot.attendance.store import NotifySettings
from bot.attendance.views import KeepWaitingButton, SkipTurnButton
from bot.game import messages
from bot.game.hooks import AwayPeriod, ReminderLevel
from bot.game.messages import Player
from bot.game.outbox import MAX_TEXT, Announcement
from bot.game.records import move_text
from bot.game.service import GameService, LoadedGame
from bot.stores import Store
from engine import Move, choose, new_game
from i18n import PSEUDO, speaking
from tests.bot.clocks import FakeClock
from tests.bot.queued import queued

GUILD, CHANNEL, OTHER = 1, 10, 11
ADA, BOB, CY = 100, 200, 300
H = timedelta(hours=1)
START = datetime(2026, 6, 1, 12, tzinfo=UTC)
MAX_LABEL = 80

ADA_P, BOB_P = Player(ADA, "Ada"), Player(BOB, "Bob")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


async def german_game(
    service: GameService, store: Store, *users: int, channel: int = CHANNEL
) -> LoadedGame:
    """A game opened on a German server (its public language is German), started."""
    await store.note_guild_locale(GUILD, "de")
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=channel, user_id=users[0], name=f"u{users[0]}", cards="A"
    )
    for user in users[1:]:
        await service.lobby.join(table.game.id, user_id=user, name=f"u{user}")
    await service.lobby.start(table.game.id, user_id=users[0])
    loaded = await service.game(channel)
    assert loaded.game.locale == "de"
    return loaded


def to_move(table: LoadedGame) -> int:
    return table.players[table.require_state().current].user_id


async def play(service: GameService, table: LoadedGame) -> LoadedGame:
    turn = Move.parse(move_text(choose(table.require_state(), "fast", seed=1)))
    await service.turns.play(table.game.channel_id, user_id=to_move(table), move=turn)
    return await service.game(table.game.channel_id)


async def settle(store: Store, user_id: int, **fields: Any) -> None:
    settings = await store.notify_settings(user_id)
    await store.save_notify_settings(dataclasses.replace(settings, **fields))


# --- what the periodic passes write, with no reader set ----------------------------------


async def test_a_reminder_in_a_german_game_is_german(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    # Bob's client is French: the channel's reminder is the game's, German, all the same.
    await store.note_person_locale(BOB, "fr")
    table = await german_game(service, store, ADA, BOB)
    await queued(store)
    player = table.players[table.require_state().current]
    clock.advance(table.game.reminder_hours * H)
    assert len(await ReminderQueue(service).queue_reminders()) == 1
    [reminder] = await queued(store, "reminder")
    assert reminder.locale == "de"
    with speaking("de"):
        german = messages.reminder_message(ReminderLevel.GENTLE, player, START)
    assert reminder.text == german
    assert "Cascadia am Zug (seit <t:" in reminder.text, reminder.text
    assert reminder.mentions == (player.user_id,)


async def test_a_reminder_by_direct_message_is_in_its_person_s_language(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    await store.note_person_locale(BOB, "fr")
    table = await german_game(service, store, ADA, BOB)
    if to_move(table) != BOB:
        table = await play(service, table)
    await settle(store, BOB, dm=True, channel_ping=False)
    await queued(store)
    clock.advance(table.game.reminder_hours * H)
    assert len(await ReminderQueue(service).queue_reminders()) == 1
    [reminder] = await queued(store, "direct_reminder")
    assert reminder.locale == "fr"
    assert reminder.text.startswith("Un rappel : ton tour dans Cascadia attend depuis <t:")


async def test_a_digest_to_a_french_person_is_french_while_the_game_is_german(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    await store.note_person_locale(ADA, "fr")
    clock.now = START.replace(hour=6)
    tables = [
        await german_game(service, store, ADA, BOB),
        await german_game(service, store, ADA, CY, channel=OTHER),
    ]
    for table in tables:
        if to_move(table) != ADA:
            await play(service, table)
    await queued(store)
    notices = Notices(service)
    await notices.change(ADA, NotifyChange(digest_hour=7))
    clock.now = START.replace(hour=7)
    assert len(await notices.check()) == 1
    [digest] = await queued(store, "direct_digest")
    assert digest.locale == "fr"
    lines = digest.text.splitlines()
    assert lines[0] == "**Ton résumé Cascadia** : c\u2019est ton tour dans 2 parties."
    assert all(" avec **u" in line and ": manche 1 sur 20" in line for line in lines[1:]), lines


async def test_a_vote_in_a_german_game_is_german(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    table = await german_game(service, store, ADA, BOB, CY)
    await service.store_as(Store).set_deadline_hours(table.game.id, 24)
    await queued(store)
    clock.now = START + 24 * H
    assert len(await Attendance(service).check()) == 1
    [vote] = await queued(store, "vote")
    assert vote.locale == "de"
    assert "hat seine Frist überschritten" in vote.text
    assert "Mit 2 Stimmen spielt der Computer" in vote.text
    assert vote.buttons == (("Für Überspringen stimmen", f"cascadia:skip:{table.game.id}:0"),)


async def test_a_turn_skipped_at_a_french_press_is_told_in_the_game_s_german(
    service: GameService, store: Store
) -> None:
    table = await german_game(service, store, ADA, BOB)
    absent = to_move(table)
    host = table.game.host_id
    if absent == host:
        table = await play(service, table)
        absent = to_move(table)
    await queued(store)
    with speaking("fr"):  # the host's press, answered in French
        await Attendance(service).skip(
            table.game.id,
            table.require_state().turn,
            user_id=host,
            name=f"u{host}",
            can_manage=False,
        )
    [turn] = await queued(store, "turn")
    assert turn.locale == "de", "its pictures are drawn in the game's language"
    assert turn.text.startswith(f"Für **u{absent}** gespielt, übersprungen von **u{host}**")


async def test_the_direct_message_at_a_turn_is_in_its_person_s_language(
    service: GameService, store: Store
) -> None:
    await store.note_person_locale(ADA, "fr")
    await store.note_person_locale(BOB, "fr")
    await settle(store, ADA, dm=True, heads_up=True)
    await settle(store, BOB, dm=True, heads_up=True)
    table = await german_game(service, store, ADA, BOB)
    rows = await store.pending(500)
    found = {r.kind: Announcement.from_row(r) for r in rows}
    assert found["start"].locale == "de"
    direct, heads_up = found["direct_turn"], found["direct_next"]
    assert (direct.locale, heads_up.locale) == ("fr", "fr")
    assert direct.text.startswith("**C\u2019est ton tour dans Cascadia**. Joueurs : ")
    # The German turn message is not pasted into the French message: it says where the
    # game stands in French instead.
    assert "\nC\u2019est ton tour : manche 1 sur 20" in direct.text
    assert "Zug" not in direct.text
    assert heads_up.text.startswith("**Bientôt ton tour dans Cascadia** : ")
    assert table.game.locale == "de"


# --- the texts themselves ------------------------------------------------------------------


def test_the_answers_are_in_the_reader_s_language() -> None:
    settings = NotifySettings(ADA, dm=True, digest_hour=8, channel_ping=False, reminder_hours=3)
    quiet = QuietHours.parse(22, 8, "Europe/Berlin")
    with speaking("de"):
        lines = notify.change_lines(settings, "Europe/Berlin")
        assert texts.quiet_answer(quiet).startswith(
            "Ruhezeit: 22:00 bis 08:00 (Europe/Berlin), in all deinen Partien."
        )
        assert texts.vote_answer(SkipTally.of({1, 2, 3}, {1}), counted=True, skipped=False) == (
            "Deine Stimme zählt: 1 von 2 nötigen, um den Zug zu überspringen."
        )
    assert lines == [
        "Gespeichert. Deine Benachrichtigungen, in jeder Partie:",
        "Direktnachrichten bei deinen Zügen: an.",
        "Hinweis, wenn du als Nächstes dran bist: aus.",
        "Tägliche Übersicht: um 08:00 (Europe/Berlin).",
        "Ping im Kanal: aus.",
        "Deine Erinnerungen: alle 3 Stunden.",
    ]
    with speaking("fr"):
        assert texts.presence_settings(Presence(quiet=quiet), START) == [
            "Heures calmes : de 22:00 à 08:00 (Europe/Berlin).",
            "Absence : aucune.",
        ]
        with pytest.raises(BadAwayDate, match="YYYY-MM-DD") as refused:
            parse_day("tomorrow")  # the log's English
        answer = BadSetting(refused.value.text, **refused.value.fields).message()
        assert (
            answer
            == "Écris le jour sous la forme AAAA-MM-JJ, par exemple 2026-12-05, pas 'tomorrow'."
        )
        assert notify.settings_lines(NotifySettings(ADA, reminder_hours=1), None)[-1] == (
            "Tes rappels : toutes les heures."
        )


def test_the_pseudo_locale_still_fits_discord_s_limits() -> None:
    state = new_game(players=4, seed=3, cards="A")
    players = tuple(Player(900 + n, "N" * 32) for n in range(4))
    away = AwayPeriod(START, START + 48 * H, "x" * 100)
    with speaking(PSEUDO):
        labels = [
            texts.vote_button(10**18, 80)[0],
            texts.hand_over_button(10**18, 5)[0],
            SkipTurnButton(10**18, 80).item.label,
            KeepWaitingButton(10**18, 80).item.label,
        ]
        games = [DigestGame(10**18, 10**18 + n, 10**18, players, state) for n in range(8)]
        settings = NotifySettings(
            ADA, dm=True, dms_refused_at=START, digest_hour=8, channel_ping=False
        )
        bodies = [
            texts.vote_message(players[0], START, SkipTally.of(range(4), ())),
            texts.skip_lead(players[0], how="host", by=players[1])
            + texts.hand_over_offer(players[0], 3),
            texts.away_answer(away),
            "\n".join(
                texts.presence_settings(
                    Presence(QuietHours.parse(22, 8, "America/Argentina/Buenos_Aires"), (away,)),
                    START,
                )
                + notify.change_lines(settings, "America/Argentina/Buenos_Aires")
            ),
            notify.refusal_note(),
            notify.digest_direct(games).text,
            notify.heads_up_direct(players, state).text,
        ]
    assert all(label is not None and label.startswith("⟦") for label in labels), labels
    assert max(len(label or "") for label in labels) <= MAX_LABEL, labels
    assert all("⟦" in body for body in bodies)
    assert max(len(body) for body in bodies) <= MAX_TEXT, [len(b) for b in bodies]


def test_a_long_digest_is_cut_to_fit_and_says_how_many_more() -> None:
    state = new_game(players=4, seed=3, cards="A")
    players = tuple(Player(900 + n, "N" * 32) for n in range(4))
    games = [DigestGame(10**18, 10**18 + n, 10**18, players, state) for n in range(30)]
    for locale in (None, "de", "fr", PSEUDO):
        with speaking(locale):
            text = notify.digest_direct(games).text
        lines = text.splitlines()
        assert len(text) <= MAX_TEXT, (locale, len(text))
        listed = sum(str(10**18) in line for line in lines)
        assert 1 < listed < 30
        assert str(30 - listed) in lines[-1], (locale, lines[-1])
        assert "`/cascadia mygames`" in lines[-1]
