"""The turn panel's step machine, driven directly: what each step offers, where each press
leads, and that every path through what is offered reaches Confirm with a legal move. What
the steps say is in the golden transcript ``tests/bot/panel/golden/panel.txt``."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from bot.panel import gains
from bot.panel.draft import (
    PAGE_SIZE,
    Draft,
    Offer,
    Option,
    Press,
    Step,
    Verb,
    actions,
    command_text,
)
from bot.panel.service import draw_panel
from bot.panel.steps import advance, check_press, offer, score_change, suggestion
from engine import (
    CascadiaError,
    GameState,
    Hex,
    InvalidInput,
    Move,
    NatureWipe,
    PlaceTile,
    PlaceToken,
    Take,
    WipeThree,
    apply,
    apply_all,
    choose,
    legal_actions,
    new_game,
    own_score,
    ranked_moves,
    score_state,
    seat_score,
)
from engine.components import HABITAT_TILES_ALL, Tile, Wildlife
from render import render_environment


def _presses(step_offer: Offer, rng: random.Random) -> list[Press]:
    """Every press the step offers (selects with a random pick of values), but Cancel."""
    found = []
    for select in step_offer.selects:
        values = [o.value for o in select.options]
        count = rng.randint(select.min_values, select.max_values)
        found.append(Press(select.verb, tuple(rng.sample(values, count))))
    for row in step_offer.buttons:
        for button in row:
            if button.verb is not Verb.CANCEL:
                found.append(Press(button.verb, (button.arg,) if button.arg else ()))
    return found


def _confirm(state: GameState, draft: Draft) -> GameState:
    for action in actions(draft):
        state = apply(state, action, seat=state.current)
    return state


def _play_through_panel(
    state: GameState, rng: random.Random, *, max_presses: int = 60
) -> tuple[GameState, list[Step]]:
    """One turn chosen among what the panel offers, pressing anything offered (Back too)
    until Confirm turns up and is pressed; wipes confirmed on the way are played."""
    draft = Draft()
    steps = []
    for _ in range(max_presses):
        shown = offer(state, draft)
        steps.append(shown.step)
        presses = _presses(shown, rng)
        assert presses, f"the {shown.step} step offers nothing to press"
        confirm = [p for p in presses if p.verb is Verb.CONFIRM]
        if confirm and (shown.step is Step.CHECK or rng.random() < 0.5):
            state = _confirm(state, draft)
            if shown.step is Step.CHECK:
                return state, steps
            draft = Draft()
            continue
        others = [p for p in presses if p.verb is not Verb.CONFIRM]
        # Going back now and then, but mostly forward, so that turns end.
        forward = [p for p in others if p.verb is not Verb.BACK] or others
        press = rng.choice(others if rng.random() < 0.1 else forward)
        if press.verb is Verb.SUGGEST:
            # The bot fills in the turn's hint (the fast player's best move).
            check_press(state, draft, press)
            draft = suggestion(state, ranked_moves(state, 1)[0][1].move)
        else:
            draft = advance(state, draft, press)
    raise AssertionError(f"no Confirm after {max_presses} presses: {steps}")


@pytest.mark.parametrize(("players", "seed"), [(1, 1), (2, 2), (3, 3), (4, 4), (2, 5)])
def test_whole_games_played_only_through_what_the_panel_offers(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(players=players, seed=seed)
    seen: set[Step] = set()
    turns = 0
    while not state.is_over:
        state, steps = _play_through_panel(state, rng)
        seen.update(steps)
        turns += 1
    assert turns == 20 * players
    assert {Step.PAIR, Step.WHERE, Step.TOKEN, Step.CHECK} <= seen


def _state_with_nature_tokens(seed: int = 7, tokens: int = 2) -> GameState:
    state = new_game(players=2, seed=seed, cards="A")
    seats = list(state.seats)
    seats[state.current] = dataclasses.replace(seats[state.current], nature_tokens=tokens)
    return dataclasses.replace(state, seats=tuple(seats))


def test_free_choice_takes_tile_and_token_apart_and_spends_a_nature_token() -> None:
    state = _state_with_nature_tokens()
    assert Verb.FREE in offer(state, Draft()).verbs()
    draft = advance(state, Draft(), Press(Verb.FREE))
    assert offer(state, draft).step is Step.FREE
    draft = advance(state, draft, Press(Verb.FREE_TILE, ("1",)))
    assert draft.step is Step.FREE
    draft = advance(state, draft, Press(Verb.FREE_TOKEN, ("3",)))
    assert draft.step is Step.WHERE
    assert (draft.tile, draft.token) == (1, 3)
    where = offer(state, draft).selects[0].options[0].value
    draft = advance(state, draft, Press(Verb.WHERE, (where,)))
    while draft.step is not Step.CHECK:
        draft = advance(state, draft, Press(Verb.NEXT if draft.step is Step.TURN else Verb.RETURN))
    check = offer(state, draft)
    assert f"`{command_text(draft)}`" in check.text
    after = _confirm(state, draft)
    assert after.seats[state.current].nature_tokens == 1
    assert f"Score: {score_change(state, after, state.current)}." in check.text
    # Back from Where after a free choice keeps the tile and asks for the token again.
    back = advance(state, Draft(tile=1, token=3, free=True), Press(Verb.BACK))
    assert back == Draft(free=True, tile=1)


def test_no_free_choice_or_nature_wipe_without_a_nature_token() -> None:
    state = new_game(players=2, seed=3)
    shown = offer(state, Draft())
    verbs = shown.verbs()
    assert Verb.FREE not in verbs
    assert Verb.NATURE_WIPE not in verbs
    with pytest.raises(InvalidInput):
        advance(state, Draft(), Press(Verb.FREE))


def test_a_nature_wipe_is_confirmed_alone_and_the_panel_starts_again() -> None:
    state = _state_with_nature_tokens()
    draft = advance(state, Draft(), Press(Verb.NATURE_WIPE))
    select = offer(state, draft).selects[0]
    assert select.verb is Verb.WIPE_SLOTS
    assert select.max_values == 4
    draft = advance(state, draft, Press(Verb.WIPE_SLOTS, ("3", "1")))
    check = offer(state, draft)
    assert check.step is Step.WIPE
    assert Verb.CONFIRM in check.verbs()
    assert actions(draft) == (NatureWipe((1, 3)),)
    assert command_text(draft) == "/cascadia wipe tokens:1 3"
    assert advance(state, draft, Press(Verb.BACK)) == Draft()


def test_wipe_three_is_offered_only_when_three_match_and_it_is_unused() -> None:
    state = new_game(players=2, seed=11)
    bear = Wildlife.BEAR
    three = dataclasses.replace(state, display_tokens=(bear, bear, Wildlife.ELK, bear))
    assert Verb.WIPE_THREE in offer(three, Draft()).verbs()
    assert Verb.WIPE_THREE not in offer(state, Draft()).verbs() or state.three_of_a_kind()
    used = dataclasses.replace(three, three_wipe_used=True)
    assert Verb.WIPE_THREE not in offer(used, Draft()).verbs()
    draft = advance(three, Draft(), Press(Verb.WIPE_THREE))
    assert actions(draft) == (WipeThree(),)
    assert (
        offer(three, Draft(), planning=True).verbs().isdisjoint({Verb.WIPE_THREE, Verb.NATURE_WIPE})
    )


def test_single_habitat_tiles_skip_the_turn_step_both_ways() -> None:
    state = new_game(players=2, seed=5)
    keystone = next(t for t in HABITAT_TILES_ALL if t.keystone)
    state = dataclasses.replace(state, display_tiles=(keystone, *state.display_tiles[1:]))
    draft = advance(state, Draft(), Press(Verb.PAIR, ("1",)))
    where = offer(state, draft).selects[0].options[0].value
    draft = advance(state, draft, Press(Verb.WHERE, (where,)))
    assert draft.step is Step.TOKEN
    assert advance(state, draft, Press(Verb.BACK)).step is Step.WHERE


def test_turning_is_in_steps_and_next_goes_on() -> None:
    state = new_game(players=2, seed=5)
    two = next(t for t in HABITAT_TILES_ALL if len(t.habitats) == 2)
    state = dataclasses.replace(state, display_tiles=(two, *state.display_tiles[1:]))
    draft = advance(state, Draft(), Press(Verb.PAIR, ("1",)))
    where = offer(state, draft).selects[0].options[0].value
    draft = advance(state, draft, Press(Verb.WHERE, (where,)))
    assert draft.step is Step.TURN
    start = draft.rotation
    left = advance(state, draft, Press(Verb.LEFT))
    assert left.rotation == (start + 1) % 6
    assert advance(state, left, Press(Verb.RIGHT)).rotation == start
    turn = offer(state, left)
    assert turn.highlight == (Hex.parse(where),)
    placed = turn.shown.current_player.environment[Hex.parse(where)]
    assert placed.rotation == left.rotation, "the picture shows the tile as turned"
    nxt = advance(state, left, Press(Verb.NEXT))
    assert nxt.step is Step.TOKEN
    assert advance(state, nxt, Press(Verb.BACK)).step is Step.TURN


def test_a_token_no_tile_can_take_is_said_and_next_returns_it() -> None:
    state = new_game(players=1, seed=5, cards="A")
    for _ in range(3):
        for action in choose(state, "fast", seed=5):
            state = apply(state, action)
    # After these turns no tile of the environment, nor display tile 1, can take a salmon.
    wildlife = Wildlife.SALMON
    assert not state.current_player.environment.token_targets(wildlife)
    state = dataclasses.replace(state, display_tokens=(wildlife, *state.display_tokens[1:]))
    draft = advance(state, Draft(), Press(Verb.PAIR, ("1",)))
    where = offer(state, draft).selects[0].options[0].value
    draft = advance(state, draft, Press(Verb.WHERE, (where,)))
    if draft.step is Step.TURN:
        draft = advance(state, draft, Press(Verb.NEXT))
    token_step = offer(state, draft)
    assert token_step.step is Step.TOKEN
    assert token_step.selects == ()
    assert f"None of your tiles can take the {wildlife.value}" in token_step.text
    assert Verb.NEXT in token_step.verbs()
    check = advance(state, draft, Press(Verb.NEXT))
    assert check.step is Step.CHECK
    assert check.token_at is None


def test_presses_not_on_offer_are_refused() -> None:
    state = new_game(players=2, seed=9)
    with pytest.raises(InvalidInput):
        advance(state, Draft(), Press(Verb.WHERE, ("0,0",)))
    draft = advance(state, Draft(), Press(Verb.PAIR, ("2",)))
    with pytest.raises(InvalidInput):
        advance(state, draft, Press(Verb.WHERE, ("0,0",)))  # occupied: not an option
    with pytest.raises(InvalidInput):
        advance(state, draft, Press(Verb.CONFIRM))
    with pytest.raises(InvalidInput):
        advance(state, Draft(), Press(Verb.PAIR, ("5",)))


def test_the_check_step_shows_the_move_command_and_split_score() -> None:
    state = new_game(players=2, seed=21, cards="A")
    draft = advance(state, Draft(), Press(Verb.PAIR, ("2",)))
    best = offer(state, draft).selects[0].options[0].value
    draft = advance(state, draft, Press(Verb.WHERE, (best,)))
    if draft.step is Step.TURN:
        draft = advance(state, draft, Press(Verb.NEXT))
    token = offer(state, draft)
    if token.selects:
        draft = advance(state, draft, Press(Verb.TOKEN, (token.selects[0].options[0].value,)))
    else:
        draft = advance(state, draft, Press(Verb.NEXT))
    check = offer(state, draft)
    assert check.step is Step.CHECK
    labels = [b.label for row in check.buttons for b in row]
    assert labels == ["Confirm", "Back", "Cancel"]
    assert f"`{command_text(draft)}`" in check.text
    assert command_text(draft).startswith(f"/cascadia play pair:2 tile_at:{best} rotation:")
    after = _confirm(state, draft)
    change = score_change(state, after, state.current)
    assert change.total == seat_score(after, state.current) - seat_score(state, state.current)
    assert sum(v for _, v in change.parts) == change.total
    assert f"Score: {change}." in check.text
    planning = offer(state, draft, planning=True)
    assert Verb.CONFIRM not in planning.verbs()


def test_score_change_names_each_card_and_corridor() -> None:
    state = new_game(players=1, seed=2, cards="A")
    draft = Draft(tile=1, token=1)
    place = gains.place_gains(state, Take(1, 1))[0]
    after = _confirm(
        state,
        dataclasses.replace(
            draft, at=place.at, rotation=place.rotation, turned=True, token_done=True
        ),
    )
    change = score_change(state, after, 0)
    assert str(change) == (
        f"{change.total:+d}"
        + (": " if change.parts else "")
        + ", ".join(f"{name} {value:+d}" for name, value in change.parts)
    )
    assert all(
        " corridor" in name
        or name in {w.value for w in Wildlife} | {"nature tokens"}
        or name.endswith(" bonus")
        for name, _ in change.parts
    )


def _held(state: GameState) -> tuple[Tile, Wildlife]:
    assert state.held_tile is not None
    assert state.held_token is not None
    return state.held_tile, state.held_token


def test_where_pages_reach_every_legal_place_and_are_best_first() -> None:
    state = new_game(players=1, seed=4)
    rng = random.Random(4)
    while len(state.current_player.environment.frontier()) <= PAGE_SIZE:
        pair = rng.randint(1, 4)
        state = apply(state, Take(pair, pair))
        state = apply(state, PlaceTile(rng.choice(state.current_player.environment.frontier())))
        state = apply(state, PlaceToken(None))
    draft = advance(state, Draft(), Press(Verb.PAIR, ("1",)))
    frontier = set(map(str, state.current_player.environment.frontier()))
    seen: list[str] = []
    for _ in range(4):
        shown = offer(state, draft)
        seen += [o.value for o in shown.selects[0].options]
        assert Verb.MORE in shown.verbs()
        draft = advance(state, draft, Press(Verb.MORE))
        if set(seen) == frontier:
            break
    assert set(seen) == frontier
    ranked = gains.place_gains(state, Take(1, 1))
    bests = [g.gain for g in ranked]
    assert bests == sorted(bests, reverse=True)
    first_page = offer(state, Draft(tile=1, token=1)).selects[0].options
    assert [_gain_shown(o.label) for o in first_page] == bests[:PAGE_SIZE]


def _own(state: GameState, seat: int) -> int:
    player = state.seats[seat]
    return own_score(state.cards, player.environment, player.nature_tokens, solo=state.solo)


def _gain_shown(label: str) -> int:
    """The score change an option's label shows ("1,-2: up to +3", "0,1: -1 (the new tile)")."""
    found = re.search(r"([+-]\d+)", label.split(":", 1)[1])
    assert found is not None, label
    return int(found[1])


def _every_place(state: GameState, draft: Draft) -> list[Option]:
    """The Where step's options on every page: More until the first page comes round again."""
    options = list(offer(state, draft).selects[0].options)
    while any(b.verb is Verb.MORE for row in offer(state, draft).buttons for b in row):
        draft = advance(state, draft, Press(Verb.MORE))
        page = offer(state, draft).selects[0].options
        if page[0] == options[0]:
            break
        options += page
    return options


@pytest.mark.parametrize("seed", range(200))
def test_option_gains_equal_the_difference_of_two_full_scorings(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(1, 4)
    state = new_game(
        players=players, seed=seed, cards=rng.choice(["AAAAA", "BBBBB", "CCCCC", "DDDDD", "ABCDA"])
    )
    for _ in range(rng.randint(0, 12)):
        pair = rng.randint(1, 4)
        state = apply(state, Take(pair, pair))
        env = state.current_player.environment
        state = apply(state, PlaceTile(rng.choice(env.frontier()), rng.randrange(6)))
        held = state.held_token
        assert held is not None
        targets = state.current_player.environment.token_targets(held)
        state = apply(state, PlaceToken(rng.choice(targets) if targets else None))
    if rng.random() < 0.3:
        # Now and then a nature token, so that free choices (which cost one) are priced too.
        seats = list(state.seats)
        seats[state.current] = dataclasses.replace(seats[state.current], nature_tokens=1)
        state = dataclasses.replace(state, seats=tuple(seats))
    seat = state.current
    tile_slot = rng.randint(1, 4)
    token_slot = rng.randint(1, 4) if state.current_player.nature_tokens else tile_slot
    draft = Draft(tile=tile_slot, token=token_slot, free=tile_slot != token_slot)
    base = _own(state, seat)
    taken = apply(state, Take(tile_slot, token_slot))
    tile, _ = _held(taken)
    where = _every_place(state, draft)
    assert len(where) == len(taken.current_player.environment.frontier())
    for option in where:
        at = Hex.parse(option.value)
        best = None
        for rotation in tile.rotations:
            placed = apply(taken, PlaceTile(at, rotation))
            for action in legal_actions(placed):
                after = apply(placed, action)
                change = _own(after, seat) - base
                best = change if best is None else max(best, change)
        assert _gain_shown(option.label) == best, option
    at = Hex.parse(rng.choice(where).value)
    draft = advance(state, draft, Press(Verb.WHERE, (str(at),)))
    draft = dataclasses.replace(draft, turned=True)
    token_step = offer(state, draft)
    placed = apply(taken, PlaceTile(at, draft.rotation))
    for option in token_step.selects[0].options if token_step.selects else ():
        after = apply(placed, PlaceToken(Hex.parse(option.value)))
        assert _gain_shown(option.label) == _own(after, seat) - base, option
    returned = [
        b.label for row in token_step.buttons for b in row if b.verb in (Verb.RETURN, Verb.NEXT)
    ]
    after = apply(placed, PlaceToken(None))
    assert f"(move scores {_own(after, seat) - base:+d})" in returned[0]


@pytest.mark.parametrize("seed", range(5))
def test_suggest_fills_in_the_hint_ready_to_check(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(players=2, seed=seed, cards="B")
    for _ in range(rng.randint(0, 8)):
        state, _ = _play_through_panel(state, rng)
    assert Verb.SUGGEST in offer(state, Draft()).verbs()
    check_press(state, Draft(), Press(Verb.SUGGEST))
    # The press itself is not a step: the bot works out the move (the turn's hint).
    with pytest.raises(InvalidInput):
        advance(state, Draft(), Press(Verb.SUGGEST))
    [(_, best)] = ranked_moves(state, 1)
    draft = suggestion(state, best.move)
    check = offer(state, draft)
    assert check.step is Step.CHECK
    assert Verb.CONFIRM in check.verbs()
    seat = state.current
    after = _confirm(state, draft)
    assert after == apply_all(state, best.move.actions())
    assert _own(after, seat) - _own(state, seat) == best.gain
    # Back goes through the steps of the suggested move, which stay as suggested.
    token = advance(state, draft, Press(Verb.BACK))
    assert token.step is Step.TOKEN
    assert (token.at, token.rotation) == (draft.at, draft.rotation)


def test_a_suggested_free_choice_and_a_stale_suggestion() -> None:
    state = _state_with_nature_tokens()
    move = Move(1, 3, Hex(1, 0), 0, None)
    draft = suggestion(state, move)
    assert (draft.tile, draft.token, draft.free) == (1, 3, True)
    assert offer(state, draft).step is Step.CHECK
    assert "token:3" in command_text(draft)
    assert _confirm(state, draft) == apply_all(state, move.actions())
    # A move that does not fit the state (the display changed) is refused.
    with pytest.raises(CascadiaError):
        suggestion(state, Move(1, 1, Hex(5, 5), 0, None))


def test_a_planning_panel_offers_no_suggestion() -> None:
    state = new_game(players=2, seed=3)
    planning = offer(state, Draft(), planning=True)
    assert Verb.SUGGEST not in planning.verbs()
    with pytest.raises(InvalidInput):
        check_press(state, Draft(), Press(Verb.SUGGEST), planning=True)


def _majority_move(players: int) -> tuple[GameState, int, Hex]:
    """A seeded game, a pair and a place for its tile whose best move changes a majority
    bonus of the mover: where the score sheet's total and the mover's own score differ."""
    for seed in range(100):
        state = new_game(players=players, seed=seed, cards="A")
        seat = state.current
        for slot in (1, 2, 3, 4):
            for place in gains.place_gains(state, Take(slot, slot)):
                draft = Draft(tile=slot, token=slot, at=place.at, rotation=place.rotation)
                after = _confirm(state, dataclasses.replace(draft, turned=True, token_done=True))
                bonus = [sum(score_state(s).players[seat].habitat_bonus.values())
                         for s in (state, after)]  # fmt: skip
                if bonus[0] != bonus[1]:
                    return state, slot, place.at
    raise AssertionError("no seeded move changes a majority bonus")


@pytest.mark.parametrize("players", [2, 3])
def test_the_panels_text_picture_gains_and_check_agree_on_the_score(players: int) -> None:
    state, slot, at = _majority_move(players)
    seat, name = state.current, "Ada"
    # Every total shown is the one if it ended now, bonuses in; the gains are the move's own.
    own = seat_score(state, seat)
    start = score_state(state).players[seat].total
    pair = offer(state, Draft())
    assert re.search(rf"\bscore {start} if it ended now, bonuses in\b", pair.text), pair.text
    assert draw_panel(pair, seat, name) == render_environment(
        state, seat, name=name, score=start, highlight=pair.highlight
    )

    draft = advance(state, Draft(), Press(Verb.PAIR, (str(slot),)))
    where = offer(state, draft)
    [place] = [o for o in where.selects[0].options if o.value == str(at)]
    listed = int(re.fullmatch(rf"{at}: up to ([+-]\d+)", place.label)[1])  # type: ignore[index]
    draft = advance(state, draft, Press(Verb.WHERE, (str(at),)))
    if draft.step is Step.TURN:
        # The Turn step starts from the place's best turn, the one its gain is listed with.
        draft = advance(state, draft, Press(Verb.NEXT))
    token = offer(state, draft)
    if token.selects:
        first = token.selects[0].options[0]
        token_gain = int(re.match(r"\S+: ([+-]\d+)", first.label)[1])  # type: ignore[index]
        returned = int(re.search(r"\(move scores ([+-]\d+)\)", token.buttons[0][0].label)[1])  # type: ignore[index]
        if token_gain >= returned:
            draft = advance(state, draft, Press(Verb.TOKEN, (first.value,)))
        else:
            draft = advance(state, draft, Press(Verb.RETURN))
        assert max(token_gain, returned) == listed
    else:
        draft = advance(state, draft, Press(Verb.NEXT))

    check = offer(state, draft)
    after = _confirm(state, draft)
    change = score_change(state, after, seat)
    assert f"Score: {change}." in check.text
    assert change.total == listed
    assert seat_score(after, seat) == own + listed
    total = score_state(after).players[seat].total
    assert draw_panel(check, seat, name) == render_environment(
        after, seat, name=name, score=total, highlight=check.highlight
    )
    # Here the move also shifts a majority bonus, so the total moves by more than its points.
    assert total - start != listed


def test_the_panel_says_rotation_why_step_3_is_skipped_and_what_a_return_scores() -> None:
    # "turn 2" meant a rotation here and a game turn elsewhere; "Return to bag (+1)" read as
    # a point for returning; a single-habitat tile went from step 2 to 4 without a word.
    seen = {"single": False, "turned": False}
    for seed in range(40):
        state = new_game(players=2, seed=seed, cards="A")
        for slot in (1, 2, 3, 4):
            draft = advance(state, Draft(), Press(Verb.PAIR, (str(slot),)))
            where = offer(state, draft).selects[0].options[0].value
            draft = advance(state, draft, Press(Verb.WHERE, (where,)))
            step = offer(state, draft)
            if draft.step is Step.TURN:
                assert re.search(r"\(rotation \d: corridors [+-]\d+\)", step.text), step.text
                seen["turned"] = True
                continue
            assert draft.step is Step.TOKEN
            assert "No step 3: a single-habitat tile looks the same every way round." in step.text
            [returned] = [b.label for row in step.buttons for b in row if b.verb is Verb.RETURN]
            assert re.fullmatch(r"Return to bag \(move scores [+-]\d+\)", returned), returned
            seen["single"] = True
        if all(seen.values()):
            return
    pytest.fail(f"not every case came up: {seen}")
