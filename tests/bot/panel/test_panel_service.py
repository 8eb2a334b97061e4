"""The turn panel behind the buttons, against a real SQLite file: drafts kept between presses,
Confirm through the service's commit path, and every refusal leaving the game unchanged."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.game.errors import HintUsed, NotInGame, NotYourTurn, StalePanel
from bot.game.messages import play_command
from bot.game.service import GameService, LoadedGame
from bot.panel.draft import Draft, Press, Step, Verb, command_text
from bot.panel.service import CLOSED, Outcome, PanelGone, PanelRefused, Panels, Shown
from bot.panel.steps import suggestion
from bot.stores import Store, open_store
from engine import InvalidInput, WipeThree, ranked_moves

GUILD, CHANNEL = 1, 10
ADA, BOB, EVE = 100, 200, 999


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with open_store(database) as opened:
        yield opened


@pytest.fixture
def service(store: Store) -> GameService:
    return GameService(store, seeds=lambda: 5)


@pytest.fixture
def panels(service: GameService) -> Panels:
    return Panels(service)


async def _started(service: GameService, *users: int) -> LoadedGame:
    loaded = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], name=f"u{users[0]}", cards="A"
    )
    for user in users[1:]:
        await service.lobby.join(loaded.game.id, user_id=user, name=f"u{user}")
    await service.lobby.start(loaded.game.id, user_id=users[0])
    return await service.game(CHANNEL)


def _mover(loaded: LoadedGame) -> tuple[int, int]:
    state = loaded.require_state()
    return loaded.players[state.current].user_id, loaded.players[1 - state.current].user_id


async def _press(panels: Panels, shown: Shown, verb: Verb, *values: str) -> Shown:
    return await panels.press(
        shown.game_id,
        user_id=shown.user_id,
        turn=shown.turn,
        version=shown.version,
        press=Press(verb, values),
    )


async def _to_check(panels: Panels, shown: Shown) -> Shown:
    """Forward through the steps, the first offer each time, to Check."""
    while shown.offer is not None and shown.offer.step is not Step.CHECK:
        offer = shown.offer
        if offer.step is Step.PAIR:
            shown = await _press(panels, shown, Verb.PAIR, "1")
        elif offer.selects:
            shown = await _press(
                panels, shown, offer.selects[0].verb, offer.selects[0].options[0].value
            )
        else:
            shown = await _press(panels, shown, Verb.NEXT)
    return shown


async def test_a_turn_through_the_panel_is_played_by_the_service(
    service: GameService, store: Store, panels: Panels
) -> None:
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await panels.open(game_id, user_id=mover, turn=0)
    assert shown.offer is not None
    assert shown.offer.step is Step.PAIR
    assert not shown.planning
    pending = len(await store.pending())
    shown = await _to_check(panels, shown)
    # Nothing reaches the game or the outbox before Confirm.
    assert await store.moves(game_id) == []
    assert len(await store.pending()) == pending
    assert (await service.game_by_id(game_id)).game.revision == loaded.game.revision
    played = await _press(panels, shown, Verb.CONFIRM)
    assert played.outcome is Outcome.PLAYED
    assert played.outbox_ids
    [move] = await store.moves(game_id)
    assert move.user_id == mover
    assert move.action.startswith("take 1; tile ")
    # Pressing Confirm again (a double tap) plays nothing more, and says the turn was played.
    again = await _press(panels, shown, Verb.CONFIRM)
    assert (again.outcome, again.outbox_ids, again.notice) == (
        Outcome.PLAYED,
        (),
        played.notice,
    )
    assert len(await store.moves(game_id)) == 1
    # Another press on the closed panel is not a Confirm: the turn has passed.
    with pytest.raises(PanelGone, match="turn has passed"):
        await _press(panels, shown, Verb.BACK)


async def test_two_taps_on_confirm_at_once_play_once_and_both_say_so(
    service: GameService, store: Store, panels: Panels
) -> None:
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await _to_check(panels, await panels.open(game_id, user_id=mover, turn=0))
    first, second = await asyncio.gather(
        _press(panels, shown, Verb.CONFIRM), _press(panels, shown, Verb.CONFIRM)
    )
    assert {first.outcome, second.outcome} == {Outcome.PLAYED}
    assert sorted(bool(s.outbox_ids) for s in (first, second)) == [False, True]
    assert first.notice == second.notice
    assert len(await store.moves(game_id)) == 1


async def test_the_second_tap_after_the_first_was_committed_is_told_the_turn_was_played(
    service: GameService, store: Store, panels: Panels
) -> None:
    # The first tap's move is in the game, its panel not yet closed: the second tap, on the
    # same version, finds the turn moved on under it.
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await _to_check(panels, await panels.open(game_id, user_id=mover, turn=0))
    row = await store.get_panel(game_id, mover)
    assert row is not None
    move = Draft.loads(row.draft).move()
    await service.turns.play_seen(game_id, user_id=mover, move=move, expected_revision=row.revision)
    second = await _press(panels, shown, Verb.CONFIRM)
    assert second.outcome is Outcome.PLAYED
    assert second.notice == f"Same as `{play_command(move)}`."
    assert second.outbox_ids == ()

    # A different move typed meanwhile is not this panel's: its turn has passed.
    loaded = await service.game_by_id(game_id)
    nxt, _ = _mover(loaded)
    shown = await _to_check(panels, await panels.open(game_id, user_id=nxt, turn=1))
    row = await store.get_panel(game_id, nxt)
    assert row is not None
    planned = Draft.loads(row.draft).move()
    typed = next(
        scored.move
        for _, scored in ranked_moves(loaded.require_state(), 5)
        if scored.move != planned
    )
    await service.turns.play(CHANNEL, user_id=nxt, move=typed)
    with pytest.raises(PanelGone, match="turn has passed"):
        await _press(panels, shown, Verb.CONFIRM)


async def test_the_second_tap_on_a_wipes_confirm_is_told_it_wiped_already(store: Store) -> None:
    # Seed 24 opens a two-player game whose display shows three elk.
    service = GameService(store, seeds=lambda: 24)
    panels = Panels(service)
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await _press(panels, await panels.open(game_id, user_id=mover, turn=0), Verb.WIPE_THREE)
    # The first tap's wipe is in the game, its panel not yet moved on.
    await service.turns.wipe_seen(
        game_id, user_id=mover, action=WipeThree(), expected_revision=loaded.game.revision
    )
    with pytest.raises(PanelRefused, match="first tap wiped already"):
        await _press(panels, shown, Verb.CONFIRM)
    assert [m.action for m in await store.moves(game_id)] == ["wipe"]


async def test_the_draft_is_stored_and_resumed(service: GameService, panels: Panels) -> None:
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    shown = await panels.open(loaded.game.id, user_id=mover, turn=0)
    shown = await _press(panels, shown, Verb.PAIR, "2")
    assert shown.offer is not None
    assert shown.offer.step is Step.WHERE
    # A new Panels on the same store (a restarted bot) opens at the same step.
    again = await Panels(service).open(loaded.game.id, user_id=mover, turn=0)
    assert again.offer is not None
    assert again.offer.step is Step.WHERE
    assert again.version > shown.version
    # The older copy's press is not acted on: the panel is shown as it stands.
    stale = await _press(panels, shown, Verb.BACK)
    assert "moved on" in stale.notice
    assert stale.offer is not None
    assert stale.offer.step is Step.WHERE


async def test_refusals_change_nothing(service: GameService, store: Store, panels: Panels) -> None:
    loaded = await _started(service, ADA, BOB)
    mover, waiting = _mover(loaded)
    game_id = loaded.game.id
    with pytest.raises(NotInGame):
        await panels.open(game_id, user_id=EVE, turn=0)
    with pytest.raises(PanelGone, match="turn has passed"):
        await panels.open(game_id, user_id=mover, turn=3)
    planner = await panels.open(game_id, user_id=waiting, turn=0)
    assert planner.planning
    planned = await _to_check(panels, planner)
    assert planned.offer is not None
    assert Verb.CONFIRM not in planned.offer.verbs()
    with pytest.raises(PanelRefused, match="not your turn"):
        await _press(panels, planned, Verb.CONFIRM)
    shown = await panels.open(game_id, user_id=mover, turn=0)
    with pytest.raises(InvalidInput):
        await _press(panels, shown, Verb.WHERE, "0,0")
    shown = await _to_check(panels, shown)
    # The host ends the game: Confirm plays nothing.
    await service.turns.end(game_id, user_id=ADA, name="u100", can_manage=False)
    with pytest.raises(PanelGone, match="ended"):
        await _press(panels, shown, Verb.CONFIRM)
    assert await store.moves(game_id) == []


async def test_a_game_changed_underneath_plays_nothing(store: Store) -> None:
    # Seed 24 opens a two-player game whose display shows three elk.
    service = GameService(store, seeds=lambda: 24)
    panels = Panels(service)
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await _to_check(panels, await panels.open(game_id, user_id=mover, turn=0))
    # The player wipes by command meanwhile: the display the panel was built on is gone.
    await service.turns.wipe(CHANNEL, user_id=mover, tokens=None)
    with pytest.raises(PanelGone, match="game changed"):
        await _press(panels, shown, Verb.CONFIRM)
    assert [m.action for m in await store.moves(game_id)] == ["wipe"]
    # Play again starts over from what is on the table now.
    again = await panels.open(game_id, user_id=mover, turn=0)
    assert again.offer is not None
    assert again.offer.step is Step.PAIR


async def test_cancel_stores_only_the_cleared_draft(
    service: GameService, store: Store, panels: Panels
) -> None:
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await panels.open(game_id, user_id=mover, turn=0)
    shown = await _press(panels, shown, Verb.PAIR, "3")
    before = await service.game_by_id(game_id)
    cancelled = await _press(panels, shown, Verb.CANCEL)
    assert cancelled.outcome is Outcome.CANCELLED
    row = await store.get_panel(game_id, mover)
    assert row is not None
    assert row.draft == CLOSED
    after = await service.game_by_id(game_id)
    assert after.game == before.game
    with pytest.raises(PanelGone, match="closed"):
        await _press(panels, shown, Verb.BACK)
    reopened = await panels.open(game_id, user_id=mover, turn=0)
    assert reopened.offer is not None
    assert reopened.offer.step is Step.PAIR


async def test_a_wipe_is_confirmed_alone_and_the_panel_goes_on(
    service: GameService, store: Store, panels: Panels
) -> None:
    # Seed 24 opens a two-player game whose display shows three elk.
    service = GameService(store, seeds=lambda: 24)
    panels = Panels(service)
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await panels.open(game_id, user_id=mover, turn=0)
    assert shown.offer is not None
    assert Verb.WIPE_THREE in shown.offer.verbs()
    shown = await _press(panels, shown, Verb.WIPE_THREE)
    assert shown.offer is not None
    assert shown.offer.step is Step.WIPE
    assert await store.moves(game_id) == []
    wiped = await _press(panels, shown, Verb.CONFIRM)
    assert wiped.outcome is Outcome.SHOWN
    assert wiped.outbox_ids
    assert wiped.offer is not None
    assert wiped.offer.step is Step.PAIR
    assert Verb.WIPE_THREE not in wiped.offer.verbs()
    [move] = await store.moves(game_id)
    assert move.action == "wipe"
    played = await _press(panels, await _to_check(panels, wiped), Verb.CONFIRM)
    assert played.outcome is Outcome.PLAYED
    assert len(await store.moves(game_id)) == 2


async def test_panel_versions_refuse_a_lost_update(store: Store, service: GameService) -> None:
    loaded = await _started(service, ADA, BOB)
    game_id = loaded.game.id
    first = await store.save_panel(
        game_id, ADA, turn=0, revision=loaded.game.revision, draft="{}", expected_version=None
    )
    second = await store.save_panel(
        game_id, ADA, turn=0, revision=loaded.game.revision, draft="{}",
        expected_version=first.version,
    )  # fmt: skip
    assert second.version == first.version + 1
    with pytest.raises(StalePanel):
        await store.save_panel(
            game_id, ADA, turn=0, revision=loaded.game.revision, draft="{}",
            expected_version=first.version,
        )  # fmt: skip
    assert (await store.get_panel(game_id, ADA)) == second
    assert await store.get_panel(game_id, BOB) is None


async def test_a_stored_draft_that_no_longer_fits_starts_again(
    service: GameService, store: Store, panels: Panels
) -> None:
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await panels.open(game_id, user_id=mover, turn=0)
    # A draft placing the tile on the starter's own hex cannot be played.
    await store.save_panel(
        game_id, mover, turn=0, revision=loaded.game.revision,
        draft='{"tile":1,"token":1,"at":"0,0","turned":true}', expected_version=shown.version,
    )  # fmt: skip
    row = await store.get_panel(game_id, mover)
    assert row is not None
    again = await panels.press(
        game_id, user_id=mover, turn=0, version=row.version, press=Press(Verb.NEXT)
    )
    assert "could not be read" in again.notice
    assert again.offer is not None
    assert again.offer.step is Step.PAIR
    reopened = await panels.open(game_id, user_id=mover, turn=0)
    assert reopened.offer is not None
    assert reopened.offer.step is Step.PAIR
    assert await store.moves(game_id) == []


async def _stored_draft(store: Store, game_id: int, user_id: int) -> Draft:
    row = await store.get_panel(game_id, user_id)
    assert row is not None
    return Draft.loads(row.draft)


async def test_suggest_fills_in_the_turns_hint_counted_once(
    service: GameService, store: Store, panels: Panels
) -> None:
    loaded = await _started(service, ADA, BOB)
    mover, waiting = _mover(loaded)
    game_id = loaded.game.id
    state = loaded.require_state()
    ranked = [scored.move for _, scored in ranked_moves(state, 3)]
    shown = await _press(panels, await panels.open(game_id, user_id=mover, turn=0), Verb.SUGGEST)
    assert shown.offer is not None
    assert shown.offer.step is Step.CHECK
    assert await _stored_draft(store, game_id, mover) == suggestion(state, ranked[0])
    [hint] = await store.hints(game_id)
    assert (hint.turn, hint.user_id, hint.moves) == (0, mover, tuple(map(str, ranked)))
    assert (await service.game_by_id(game_id)).game.revision == loaded.game.revision

    # Asked again in the same turn (a new panel), it shows the same move, counted once.
    await _press(panels, shown, Verb.CANCEL)
    again = await _press(panels, await panels.open(game_id, user_id=mover, turn=0), Verb.SUGGEST)
    assert await _stored_draft(store, game_id, mover) == suggestion(state, ranked[0])
    assert await store.hints(game_id) == [hint]
    with pytest.raises(HintUsed):
        await service.turns.hint(CHANNEL, user_id=mover)
    played = await _press(panels, again, Verb.CONFIRM)
    assert played.outcome is Outcome.PLAYED
    [move] = await store.moves(game_id)
    assert move.action == str(ranked[0])

    # The waiting player plans without a suggestion: the hint is the player to move's.
    planner = await panels.open(game_id, user_id=mover, turn=1)
    assert planner.planning
    assert planner.offer is not None
    assert Verb.SUGGEST not in planner.offer.verbs()
    with pytest.raises(InvalidInput):
        await _press(panels, planner, Verb.SUGGEST)
    with pytest.raises(NotYourTurn):
        await service.turns.suggestion(game_id, user_id=mover)

    # After /cascadia hint, Suggest shows the hint's best move and notes nothing more.
    given = await service.turns.hint(CHANNEL, user_id=waiting)
    shown = await panels.open(game_id, user_id=waiting, turn=1)
    await _press(panels, shown, Verb.SUGGEST)
    draft = await _stored_draft(store, game_id, waiting)
    assert command_text(draft) == play_command(given.moves[0])
    document = await service.lookups.export(CHANNEL, user_id=ADA)
    assert [(h["turn"], h["user_id"]) for h in document["hints"]] == [
        (0, str(mover)),
        (1, str(waiting)),
    ]


async def test_a_suggestion_from_before_a_wipe_is_not_shown_again(store: Store) -> None:
    # Seed 24 opens a two-player game whose display shows three elk.
    service = GameService(store, seeds=lambda: 24)
    panels = Panels(service)
    loaded = await _started(service, ADA, BOB)
    mover, _ = _mover(loaded)
    game_id = loaded.game.id
    shown = await _press(panels, await panels.open(game_id, user_id=mover, turn=0), Verb.SUGGEST)
    [hint] = await store.hints(game_id)
    await _press(panels, shown, Verb.CANCEL)
    shown = await _press(panels, await panels.open(game_id, user_id=mover, turn=0), Verb.WIPE_THREE)
    wiped = await _press(panels, shown, Verb.CONFIRM)
    assert [m.action for m in await store.moves(game_id)] == ["wipe"]
    with pytest.raises(HintUsed, match="before the wipe"):
        await _press(panels, wiped, Verb.SUGGEST)
    assert await store.hints(game_id) == [hint]
    assert await _stored_draft(store, game_id, mover) == Draft()


async def _plan_then_play(panels: Panels, service: GameService, *, mover_pair: str) -> Shown:
    """The waiting player plans pair 1 to Check, the mover plays ``mover_pair``; the
    waiting player's panel opened for the turn that came."""
    loaded = await _started(service, ADA, BOB)
    mover, waiting = _mover(loaded)
    game_id = loaded.game.id
    planned = await _to_check(panels, await panels.open(game_id, user_id=waiting, turn=0))
    assert planned.planning
    shown = await panels.open(game_id, user_id=mover, turn=0)
    shown = await _to_check(panels, await _press(panels, shown, Verb.PAIR, mover_pair))
    assert (await _press(panels, shown, Verb.CONFIRM)).outcome is Outcome.PLAYED
    return await panels.open(game_id, user_id=waiting, turn=1)


async def test_a_plan_made_while_waiting_is_kept_when_its_pair_is_still_there(
    service: GameService, store: Store, panels: Panels
) -> None:
    turn = await _plan_then_play(panels, service, mover_pair="4")
    assert not turn.planning
    assert turn.offer is not None
    assert turn.offer.step is Step.CHECK, turn.offer.text
    assert turn.notice.startswith("Your plan is kept"), turn.notice
    assert "press **Confirm**" in turn.notice
    # One press plays it.
    assert (await _press(panels, turn, Verb.CONFIRM)).outcome is Outcome.PLAYED
    assert len(await store.moves(turn.game_id)) == 2


async def test_a_plan_whose_pair_was_taken_says_so_and_starts_again(
    service: GameService, panels: Panels
) -> None:
    turn = await _plan_then_play(panels, service, mover_pair="1")
    assert turn.offer is not None
    assert turn.offer.step is Step.PAIR
    assert turn.notice == (
        "Your plan changed: the tile you planned to take is no longer in the display, "
        "so choose again."
    )


async def test_a_press_on_the_planning_panel_once_the_turn_came_shows_the_plan(
    service: GameService, panels: Panels
) -> None:
    loaded = await _started(service, ADA, BOB)
    mover, waiting = _mover(loaded)
    game_id = loaded.game.id
    planned = await _to_check(panels, await panels.open(game_id, user_id=waiting, turn=0))
    shown = await panels.open(game_id, user_id=mover, turn=0)
    shown = await _to_check(panels, await _press(panels, shown, Verb.PAIR, "4"))
    assert (await _press(panels, shown, Verb.CONFIRM)).outcome is Outcome.PLAYED
    # Not "the turn has passed": the plan, ready for Confirm.
    turn = await _press(panels, planned, Verb.BACK)
    assert turn.turn == 1
    assert turn.offer is not None
    assert turn.offer.step is Step.CHECK
    assert turn.notice.startswith("Your plan is kept"), turn.notice
    assert (await _press(panels, turn, Verb.CONFIRM)).outcome is Outcome.PLAYED
