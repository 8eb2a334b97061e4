"""People's quiet hours and time away read many at once, on SQLite and on PostgreSQL: the same
as reading each person alone."""

from __future__ import annotations

from datetime import timedelta

from bot.attendance.store import Person
from bot.stores import Store
from tests.bot.game.test_store import BOB, CAROL, DAVE, START


async def test_people_of_reads_each_person_as_person_does(store: Store) -> None:
    await store.set_quiet(DAVE, start=22, end=7, zone="Europe/Paris")
    # Bob's periods are set out of order: both reads give them oldest first.
    await store.set_away(
        BOB, starts_at=START + timedelta(days=5), ends_at=START + timedelta(days=6), note="trip"
    )
    await store.set_away(BOB, starts_at=START, ends_at=START + timedelta(days=1), note=None)
    await store.set_quiet(BOB, start=1, end=6, zone="UTC")

    found = await store.people_of([CAROL, BOB, DAVE, BOB])

    assert list(found) == sorted({DAVE, BOB, CAROL})
    for user_id, person in found.items():
        assert person == await store.person(user_id)
    assert found[CAROL] == Person(CAROL)
    assert [period.note for period in found[BOB].away] == [None, "trip"]
    assert found[DAVE].quiet_zone == "Europe/Paris"
    assert found[DAVE].away == ()


async def test_people_of_nobody_is_empty(store: Store) -> None:
    assert await store.people_of([]) == {}
