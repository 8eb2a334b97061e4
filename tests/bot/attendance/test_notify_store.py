"""The store's notification settings and the direct messages sent by them, on SQLite and on
PostgreSQL: settings kept per person, a digest once a day, a refused DM recorded once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta

import pytest

from bot.attendance.store import NotifySettings
from bot.game.rows import OutboxMessage, OutboxRow
from bot.stores import Store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import BOB, CAROL, START, message, move, started

CLOCK_START = START


async def test_a_person_without_settings_has_the_defaults(store: Store) -> None:
    assert await store.notify_settings(BOB) == NotifySettings(BOB)
    found = await store.notify_settings_of([BOB, CAROL])
    assert found == {BOB: NotifySettings(BOB), CAROL: NotifySettings(CAROL)}
    assert await store.digest_people() == []


async def test_settings_are_kept_per_person_and_replaced_whole(store: Store) -> None:
    wanted = NotifySettings(BOB, dm=True, heads_up=True, digest_hour=8, channel_ping=False)
    assert await store.save_notify_settings(wanted) == wanted
    assert await store.notify_settings(CAROL) == NotifySettings(CAROL)
    again = replace(wanted, digest_hour=None, reminder_hours=0)
    await store.save_notify_settings(again)
    assert await store.notify_settings(BOB) == again
    assert await store.digest_people() == []


@pytest.mark.parametrize(
    "wrong", [NotifySettings(BOB, digest_hour=24), NotifySettings(BOB, reminder_hours=721)]
)
async def test_settings_out_of_range_are_refused(store: Store, wrong: NotifySettings) -> None:
    with pytest.raises(ValueError, match=r"0-23|0-720"):
        await store.save_notify_settings(wrong)
    assert await store.notify_settings(BOB) == NotifySettings(BOB)


async def test_a_digest_is_queued_once_a_day(store: Store) -> None:
    game = await started(store)
    await store.save_notify_settings(NotifySettings(BOB, dm=True, digest_hour=8))
    assert [p.user_id for p in await store.digest_people()] == [BOB]
    digest = OutboxMessage("direct_digest", '{"text": "your games"}', channel_id=BOB)
    ids = await store.queue_digest(BOB, "2024-05-02", game_id=game.id, outbox_messages=[digest])
    assert ids is not None
    assert len(ids) == 1
    row = await store.get_outbox(ids[0])
    assert row is not None
    assert row.channel_id == BOB
    assert row.kind == "direct_digest"
    # A second try the same day (a restart, another process) queues nothing.
    again = await store.queue_digest(BOB, "2024-05-02", game_id=game.id, outbox_messages=[digest])
    assert again is None
    assert (await store.notify_settings(BOB)).digest_day == "2024-05-02"
    # A day with nothing to do is done too, without a message.
    assert await store.queue_digest(BOB, "2024-05-03", game_id=None) == ()
    assert await store.queue_digest(BOB, "2024-05-03", game_id=None) is None
    # A pass that read the clock before another queued the next day's never goes back a day:
    # the earlier day's digest is not queued again.
    late = await store.queue_digest(BOB, "2024-05-02", game_id=game.id, outbox_messages=[digest])
    assert late is None
    assert (await store.notify_settings(BOB)).digest_day == "2024-05-03"
    assert _ids(await store.pending())[-1] == ids[0]


async def test_a_refused_dm_is_done_and_told_once(store: Store, clock: FakeClock) -> None:
    game = await started(store)
    await store.save_notify_settings(NotifySettings(BOB, dm=True, channel_ping=False))
    dm = OutboxMessage("direct_turn", '{"text": "your turn"}', snapshot="{}", channel_id=BOB)
    [outbox_id] = (await move(store, game, messages=[message("turn"), dm])).outbox_ids[1:]
    assert await store.take_refusal_note(BOB) is False
    clock.advance(timedelta(minutes=1))
    assert await store.refuse_direct(outbox_id, BOB, "403 50007") is True
    row = await store.get_outbox(outbox_id)
    assert row is not None
    assert row.sent_at is not None
    assert row.snapshot is None
    assert row.message_id is None
    assert row.last_error == "403 50007"
    assert outbox_id not in _ids(await store.pending())
    settings = await store.notify_settings(BOB)
    assert settings.dm
    assert settings.dms_refused_at == START + timedelta(minutes=1)
    # Refused again: not news, and told only once.
    assert await store.refuse_direct(outbox_id, BOB, "403 50007") is False
    assert await store.take_refusal_note(BOB) is True
    assert await store.take_refusal_note(BOB) is False
    # A word that could not be sent is owed again, once; for no refusal, none is.
    await store.untake_refusal_note(BOB)
    assert await store.take_refusal_note(BOB) is True
    assert await store.take_refusal_note(BOB) is False
    await store.untake_refusal_note(CAROL)
    assert await store.take_refusal_note(CAROL) is False
    # Someone with no settings row at all is recorded as refusing too.
    assert await store.refuse_direct(outbox_id, CAROL, "403 50007") is True
    assert (await store.notify_settings(CAROL)).dms_refused_at is not None


async def test_the_turn_message_before_a_dm(store: Store) -> None:
    game = await started(store)
    dm = OutboxMessage("direct_turn", '{"text": "your turn"}', channel_id=BOB)
    ids = (await move(store, game, messages=[message("turn"), dm])).outbox_ids
    before = await store.turn_message_before(game.id, ids[1])
    assert before is not None
    assert before.id == ids[0]
    assert before.kind == "turn"
    first = await store.turn_message_before(game.id, ids[0])
    assert first is not None
    assert first.kind == "start"
    assert await store.turn_message_before(game.id, first.id) is None


def _ids(rows: Sequence[OutboxRow]) -> list[int]:
    return [row.id for row in rows]
