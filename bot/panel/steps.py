"""The turn panel's steps, without Discord: what each step offers, and where a press leads.

The :class:`~bot.panel.draft.Draft` of a player's choices (see
:mod:`bot.panel.draft`) decides the step. :func:`offer` says what the step shows: its
text, its buttons and selects (each with a verb the press sends back) and what the picture
draws. :func:`advance` takes a press and returns the next draft, refusing anything not on
offer. The steps::

    Pair  -- a pair, a free choice (tile and token selects) or a wipe (its own Confirm)
    Where -- a legal place for the tile, best first, 25 a page
    Turn  -- rotate a two-habitat tile, then Next (single-habitat tiles skip it)
    Token -- a tile that can take the token, or Return to bag
    Check -- the whole move, its score change and command; Confirm, Back, Cancel

The view turns :class:`~bot.panel.draft.Offer` into components and presses into
:class:`~bot.panel.draft.Press` values; the rules stay in the engine, asked through
:func:`engine.apply`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from bot.panel import gains
from bot.panel.draft import (
    DIRECTION_NAMES,
    PAGE_SIZE,
    Button,
    Draft,
    Offer,
    Option,
    Press,
    Select,
    Step,
    Verb,
    command_text,
    work_out,
)
from engine import (
    GameState,
    Habitat,
    Hex,
    IllegalAction,
    InvalidInput,
    Move,
    PlayerScore,
    Reason,
    Take,
    Tile,
    Wildlife,
    apply,
    can_wipe_three,
    score_state,
)
from i18n import _, _n
from render.words import habitat_word, wildlife_word

# --- presses ------------------------------------------------------------------------------


def advance(before: GameState, draft: Draft, press: Press, *, planning: bool = False) -> Draft:
    """The draft after ``press``; raises :class:`InvalidInput` for a press the step does not
    offer (a stale or forged one). Confirm and Cancel are not steps: the caller plays or
    clears the draft; nor is Suggest, whose move the caller works out (see
    :func:`suggestion`)."""
    check_press(before, draft, press, planning=planning)
    return _advance(before, draft, press)


def check_press(before: GameState, draft: Draft, press: Press, *, planning: bool = False) -> None:
    """Refuse (:class:`InvalidInput`) a press the step does not offer, or a choice that is not
    among its options."""
    current = offer(before, draft, planning=planning)
    if press.verb not in current.verbs() or press.verb in (Verb.CONFIRM, Verb.CANCEL):
        raise InvalidInput(f"{press.verb.value} is not offered on the {current.step.value} step")
    allowed: dict[Verb, set[str]] = {s.verb: {o.value for o in s.options} for s in current.selects}
    for row in current.buttons:
        for button in row:
            if button.arg:
                allowed.setdefault(button.verb, set()).add(button.arg)
    choices = allowed.get(press.verb)
    if choices is not None:
        picked = set(press.values)
        if not press.values or not picked <= choices:
            raise InvalidInput(f"not an option of the {current.step.value} step: {press.values}")


def _value(press: Press) -> str:
    return press.values[0]


def _advance(before: GameState, draft: Draft, press: Press) -> Draft:
    verb = press.verb
    if verb is Verb.BACK:
        return back(before, draft)
    if verb is Verb.PAIR:
        slot = int(_value(press))
        return _placed_choice(before, Draft(tile=slot, token=slot))
    if verb is Verb.FREE:
        return Draft(free=True)
    if verb is Verb.FREE_TILE:
        return _placed_choice(before, dataclasses.replace(draft, tile=int(_value(press))))
    if verb is Verb.FREE_TOKEN:
        return _placed_choice(before, dataclasses.replace(draft, token=int(_value(press))))
    if verb is Verb.WIPE_THREE:
        return Draft(wipe=())
    if verb is Verb.NATURE_WIPE:
        return Draft(nature_wipe=True)
    if verb is Verb.WIPE_SLOTS:
        return Draft(wipe=tuple(sorted(int(v) for v in press.values)))
    if verb is Verb.WHERE:
        return _at(before, draft, Hex.parse(_value(press)))
    if verb is Verb.MORE:
        return dataclasses.replace(draft, page=draft.page + 1)
    if verb in (Verb.LEFT, Verb.RIGHT):
        step = 1 if verb is Verb.LEFT else -1
        return dataclasses.replace(draft, rotation=(draft.rotation + step) % 6)
    if verb is Verb.NEXT:
        if draft.step is Step.TURN:
            return dataclasses.replace(draft, turned=True)
        return dataclasses.replace(draft, token_at=None, token_done=True)
    if verb is Verb.TOKEN:
        return dataclasses.replace(draft, token_at=Hex.parse(_value(press)), token_done=True)
    if verb is Verb.RETURN:
        return dataclasses.replace(draft, token_at=None, token_done=True)
    raise InvalidInput(f"{verb.value} is not a step")


def suggestion(before: GameState, move: Move) -> Draft:
    """The Suggest button's draft: ``move`` (the turn's hint) filled in, ready to check;
    raises the engine's error if it is not legal on ``before``."""
    draft = Draft(
        tile=move.tile,
        token=move.token,
        free=move.free_choice,
        at=move.at,
        rotation=move.rotation,
        turned=True,
        token_at=move.token_at,
        token_done=True,
    )
    work_out(before, draft)
    return draft


def _take(draft: Draft) -> Take:
    if draft.tile is None or draft.token is None:
        raise RuntimeError("a pair is taken from the Where step on")
    return Take(draft.tile, draft.token)


def _placed_choice(before: GameState, draft: Draft) -> Draft:
    """A pair (or a completed free choice): its step is Where."""
    if draft.tile is None or draft.token is None:
        return draft
    apply(before, Take(draft.tile, draft.token))  # refuses an empty slot or no nature token
    return Draft(tile=draft.tile, token=draft.token, free=draft.free)


def _at(before: GameState, draft: Draft, at: Hex) -> Draft:
    worked = work_out(before, draft)
    taken = worked.taken
    if taken is None or taken.held_tile is None or taken.held_token is None:
        raise InvalidInput("no tile is taken yet")
    tile = taken.held_tile
    take = _take(draft)
    best = next((g for g in gains.place_gains(before, take) if g.at == at), None)
    if best is None:
        raise IllegalAction(Reason.NOT_ADJACENT, f"{at} does not touch your environment")
    single = len(tile.rotations) == 1
    return dataclasses.replace(
        draft, at=at, rotation=best.rotation, turned=single, token_at=None, token_done=False
    )


def back(before: GameState, draft: Draft) -> Draft:
    """The draft one choice back (Back)."""
    step = draft.step
    if step is Step.CHECK:
        return dataclasses.replace(draft, token_at=None, token_done=False)
    if step is Step.TOKEN:
        held = work_out(before, draft).taken
        tile = None if held is None else held.held_tile
        if tile is not None and len(tile.rotations) > 1:
            return dataclasses.replace(draft, turned=False)
        return dataclasses.replace(draft, at=None, rotation=0, turned=False)
    if step is Step.TURN:
        return dataclasses.replace(draft, at=None, rotation=0, turned=False)
    if step is Step.WHERE and draft.free:
        return Draft(free=True, tile=draft.tile)
    return Draft()


# --- what each step offers ----------------------------------------------------------------


def offer(before: GameState, draft: Draft, *, planning: bool = False) -> Offer:
    """What the step of ``draft`` shows, on ``before`` (the player's view of the game).

    ``planning``: the player is not to move; nothing can be played or wiped."""
    worked = work_out(before, draft)
    step = draft.step
    if step is Step.PAIR:
        return _pair_step(before, planning)
    if step is Step.FREE:
        return _free_step(before, draft)
    if step is Step.NATURE_WIPE:
        return _nature_wipe_step(before)
    if step is Step.WIPE:
        return _wipe_step(before, draft)
    taken = worked.taken
    if taken is None or taken.held_tile is None or taken.held_token is None:
        raise RuntimeError("a pair is taken from the Where step on")
    tile, token = taken.held_tile, taken.held_token
    if step is Step.WHERE:
        return _where_step(before, taken, draft, tile, token)
    placed = worked.placed
    if placed is None or draft.at is None:
        raise RuntimeError("the tile is placed from the Turn step on")
    if step is Step.TURN:
        if len(tile.rotations) == 1:
            # A single-habitat tile has nothing to turn (a stored draft may still say so).
            return offer(before, dataclasses.replace(draft, turned=True), planning=planning)
        return _turn_step(before, taken, placed, draft, tile)
    if step is Step.TOKEN:
        return _token_step(before, placed, draft, tile, token)
    after = worked.after
    if after is None:
        raise RuntimeError("the move is whole on the Check step")
    return _check_step(before, after, draft, tile, token, planning)


def animal(wildlife: Wildlife | str) -> str:
    """A species in the reader's words: ``"bear"``, German ``"Bär"``."""
    return wildlife_word(Wildlife(wildlife))


def habitat_name(habitat: Habitat) -> str:
    """A habitat in the reader's words: ``"forest"``, German ``"Wald"``."""
    return habitat_word(habitat)


def direction(side: int) -> str:
    """A side of a hex (engine direction order) in the reader's words."""
    return _(DIRECTION_NAMES[side])


def signed(value: int) -> str:
    """A score change with its sign: ``"+3"``, ``"-1"``, ``"+0"``."""
    return f"{value:+d}"


def cancel_button() -> Button:
    """Cancel, in the reader's words."""
    return Button(Verb.CANCEL, _("Cancel"), style="danger")


def back_button() -> Button:
    """Back, in the reader's words."""
    return Button(Verb.BACK, _("Back"))


def pair_label(state: GameState, slot: int) -> str:
    """A display pair in words: ``"2: forest/river + bear"``."""
    tile = state.display_tiles[slot - 1]
    token = state.display_tokens[slot - 1]
    token_words = animal(token) if token is not None else _("nothing")
    return f"{slot}: {_tile_words(tile)} + {token_words}"


def _tile_words(tile: Tile | None) -> str:
    if tile is None:
        return _("no tile")
    habitats = "/".join(habitat_name(h) for h in tile.habitats)
    species = ", ".join(animal(w) for w in tile.wildlife)
    if tile.keystone:
        return _("{habitats} keystone ({species})", habitats=habitats, species=species)
    return f"{habitats} ({species})"


def _heading(state: GameState) -> list[str]:
    """The player's environment in words: what the picture shows before the move."""
    player = state.current_player
    env = player.environment
    nature = player.nature_tokens
    # The total the standings and every picture show: if it ended now, bonuses in.
    score = score_state(state).players[state.current].total
    tokens = len(env.tokens())
    return [
        _(
            "Your environment: {tiles}, {tokens}, {nature}; score {score} if it ended now,"
            " bonuses in.",
            # Not "{n} tile": that one is worded as tiles left in the bag.
            tiles=_n("{count} tile", "{count} tiles", len(env), count=len(env)),
            tokens=_n("{n} wildlife token", "{n} wildlife tokens", tokens),
            nature=_n("{n} nature token", "{n} nature tokens", nature),
            score=score,
        )
    ]


def _pair_step(before: GameState, planning: bool) -> Offer:
    lines = [_("**Step 1 of 5: pick a pair** (a tile and its token). The display:")]
    lines += [f"`{pair_label(before, slot)}`" for slot in (1, 2, 3, 4)]
    lines += _heading(before)
    pairs = tuple(
        Button(Verb.PAIR, _cut(pair_label(before, slot), 80), arg=str(slot), style="primary")
        for slot in (1, 2, 3, 4)
        if before.display_tiles[slot - 1] is not None and before.display_tokens[slot - 1]
    )
    extra: list[Button] = []
    nature = before.current_player.nature_tokens > 0
    if nature:
        extra.append(Button(Verb.FREE, _("Free choice (spend a nature token)")))
    if not planning and can_wipe_three(before):
        species = before.three_of_a_kind()
        label = (
            _("Wipe 3 {animal} tokens (free, once a turn)", animal=animal(species))
            if species is not None
            else _("Wipe 3 tokens (free, once a turn)")
        )
        extra.append(Button(Verb.WIPE_THREE, _cut(label, 80)))
        lines.append(_("Three display tokens match: you may wipe them for free once this turn."))
    if not planning and nature and before.bag.size > 0:
        extra.append(Button(Verb.NATURE_WIPE, _("Wipe with a nature token")))
    if not planning:
        extra.append(Button(Verb.SUGGEST, _("Suggest a move (your hint for this turn)")))
    extra.append(cancel_button())
    return Offer(Step.PAIR, tuple(lines), (), (pairs, tuple(extra)), before)


def _free_step(before: GameState, draft: Draft) -> Offer:
    unchosen = _("not chosen yet")
    lines = [
        _("**Free choice** (costs a nature token): pick any tile and any token of the display."),
        _(
            "Tile: {tile}. Token: {token}.",
            tile=_("pair {slot}", slot=draft.tile) if draft.tile else unchosen,
            token=_("pair {slot}", slot=draft.token) if draft.token else unchosen,
        ),
    ]
    tiles = tuple(
        Option(
            str(slot),
            _cut(_("Tile {slot}: {tile}", slot=slot, tile=_tile_words(tile)), 100),
            default=draft.tile == slot,
        )
        for slot, tile in enumerate(before.display_tiles, start=1)
        if tile is not None
    )
    tokens = tuple(
        Option(
            str(slot),
            _cut(_("Token {slot}: {animal}", slot=slot, animal=animal(token)), 100),
            default=draft.token == slot,
        )
        for slot, token in enumerate(before.display_tokens, start=1)
        if token is not None
    )
    selects = (
        Select(Verb.FREE_TILE, _("Free choice: the tile to take"), tiles),
        Select(Verb.FREE_TOKEN, _("Free choice: the token to take"), tokens),
    )
    return Offer(Step.FREE, tuple(lines), selects, ((back_button(), cancel_button()),), before)


def _nature_wipe_step(before: GameState) -> Offer:
    lines = [
        _(
            "**Wipe with a nature token**: pick the display tokens to replace from the bag "
            "(you see the new ones before you take a pair)."
        )
    ]
    options = tuple(
        Option(str(slot), _cut(_("Token {slot}: {animal}", slot=slot, animal=animal(token)), 100))
        for slot, token in enumerate(before.display_tokens, start=1)
        if token is not None
    )
    most = min(len(options), before.bag.size)
    select = Select(Verb.WIPE_SLOTS, _("Tokens to wipe with a nature token"), options, 1, most)
    buttons = ((back_button(), cancel_button()),)
    return Offer(Step.NATURE_WIPE, tuple(lines), (select,), buttons, before)


def _wipe_step(before: GameState, draft: Draft) -> Offer:
    wipe = draft.wipe or ()
    if not wipe:
        species = before.three_of_a_kind()
        if species is not None:
            lines = [
                _(
                    "**Wipe the three {animal} tokens** from the display (free, once a turn)?",
                    animal=animal(species),
                )
            ]
        else:
            lines = [_("**Wipe three tokens** from the display (free, once a turn)?")]
    else:
        names = ", ".join(
            f"{slot} ({animal(token)})"
            for slot in wipe
            if (token := before.display_tokens[slot - 1]) is not None
        )
        lines = [
            _n(
                "**Spend a nature token to wipe token {tokens}?**",
                "**Spend a nature token to wipe tokens {tokens}?**",
                len(wipe),
                tokens=names,
            )
        ]
    lines.append(
        _(
            "New tokens are drawn from the bag, so a wipe is played on its own when you "
            "confirm; then you pick a pair from the new display."
        )
    )
    lines.append(same_as(command_text(draft)))
    confirm = Button(Verb.CONFIRM, _("Confirm the wipe"), style="success")
    buttons = ((confirm, back_button(), cancel_button()),)
    return Offer(Step.WIPE, tuple(lines), (), buttons, before)


def same_as(command: str) -> str:
    """The line naming the command that does the same: ``"Same as `/cascadia wipe`."``."""
    return _("Same as `{command}`.", command=command)


def _neighbour_words(env_state: GameState, at: Hex) -> str:
    env = env_state.current_player.environment
    facing = []
    for side, neighbour in enumerate(at.neighbors()):
        placed = env.get(neighbour)
        if placed is not None:
            facing.append(habitat_name(placed.edges[(side + 3) % 6]))
    return _("next to {habitats}", habitats=", ".join(facing)) if facing else _("alone")


def _where_step(
    before: GameState, taken: GameState, draft: Draft, tile: Tile, token: Wildlife
) -> Offer:
    places = gains.place_gains(before, _take(draft))
    pages = max(1, -(-len(places) // PAGE_SIZE))
    page = draft.page % pages
    shown = places[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    options = tuple(
        Option(
            str(g.at),
            _cut(_("{at}: up to {gain}", at=str(g.at), gain=signed(g.gain)), 100),
            _cut(
                _(
                    "{neighbours}; the tile alone {gain}",
                    neighbours=_neighbour_words(taken, g.at),
                    gain=signed(g.tile_gain),
                ),
                100,
            ),
        )
        for g in shown
    )
    took = _took_words(before, draft, tile, token)
    lines = [
        _("**Step 2 of 5: where does the tile go?** {took}", took=took),
        _(
            "Places are labelled as on the picture, best first: the score change of the whole "
            "move with the best rotation and the best spot for the token (majority bonuses "
            "not counted)."
        ),
    ]
    if pages > 1:
        first = page * PAGE_SIZE + 1
        lines.append(
            _(
                "Showing places {first}-{last} of {count}.",
                first=first,
                last=first + len(shown) - 1,
                count=len(places),
            )
        )
    select = Select(Verb.WHERE, _("Where the tile goes"), options)
    row: list[Button] = []
    if pages > 1:
        more = _("More places (page {page} of {pages})", page=(page + 1) % pages + 1, pages=pages)
        row.append(Button(Verb.MORE, _cut(more, 80)))
    row += [back_button(), cancel_button()]
    return Offer(Step.WHERE, tuple(lines), (select,), (tuple(row),), taken)


def _took_words(before: GameState, draft: Draft, tile: Tile, token: Wildlife) -> str:
    if draft.tile != draft.token:
        return _(
            "Free choice: tile {tile_slot} ({tile}) and token {token_slot} ({animal}), for a "
            "nature token.",
            tile_slot=draft.tile,
            tile=_tile_words(tile),
            token_slot=draft.token,
            animal=animal(token),
        )
    return _(
        "Pair {slot}: {tile} + {animal}.",
        slot=draft.tile,
        tile=_tile_words(tile),
        animal=animal(token),
    )


def rotation_words(tile: Tile, at: Hex, rotation: int, env_state: GameState) -> str:
    """Which way a two-habitat tile faces, in words, with the neighbours each side meets."""
    edges = tile.edges(rotation)
    env = env_state.current_player.environment
    parts = []
    for habitat in tile.habitats:
        sides = ", ".join(direction(d) for d in range(6) if edges[d] is habitat)
        meets = [
            str(at.neighbor(d))
            for d in range(6)
            if edges[d] is habitat
            and (n := env.get(at.neighbor(d))) is not None
            and n.edges[(d + 3) % 6] is habitat
        ]
        name = habitat_name(habitat)
        if meets:
            parts.append(
                _(
                    "{habitat} faces {sides}, joining the {habitat} of {places}",
                    habitat=name,
                    sides=sides,
                    places=", ".join(meets),
                )
            )
        else:
            parts.append(_("{habitat} faces {sides}", habitat=name, sides=sides))
    return "; ".join(parts)


def _turn_step(
    before: GameState, taken: GameState, placed: GameState, draft: Draft, tile: Tile
) -> Offer:
    at = draft.at
    if at is None:
        raise RuntimeError("the Turn step has a place")
    take = _take(draft)
    gain = gains.rotation_gain(before, take, at, draft.rotation)
    lines = [
        _(
            "**Step 3 of 5: turn the tile** at `{place}` (rotation {rotation}: corridors {gain}).",
            place=str(at),
            rotation=draft.rotation,
            gain=signed(gain),
        ),
        _("Now: {facing}.", facing=rotation_words(tile, at, draft.rotation, taken)),
        _("Rotate until it fits, then **Next**."),
    ]
    row = (
        Button(Verb.LEFT, _("Rotate left ↺")),
        Button(Verb.RIGHT, _("Rotate right ↻")),
        Button(Verb.NEXT, _("Next"), style="primary"),
    )
    buttons = (row, (back_button(), cancel_button()))
    return Offer(Step.TURN, tuple(lines), (), buttons, placed, (at,))


def _token_step(
    before: GameState, placed: GameState, draft: Draft, tile: Tile, token: Wildlife
) -> Offer:
    at = draft.at
    if at is None:
        raise RuntimeError("the Token step has a place")
    env = placed.current_player.environment
    take = _take(draft)
    found = gains.token_options(before, take, at, draft.rotation)
    ordered = found.targets
    options = tuple(
        Option(
            str(hex_),
            _cut(_target_label(hex_, gain, new=hex_ == at), 100),
            _cut(_target_words(env[hex_].tile), 100),
        )
        for hex_, gain in ordered[:PAGE_SIZE]
    )
    name = animal(token)
    returned = signed(found.returned)
    if len(tile.rotations) == 1:
        heading = _(
            "**Step 4 of 5: the {animal} token.** The tile is at `{place}`. No step 3: a "
            "single-habitat tile looks the same every way round.",
            animal=name,
            place=str(at),
        )
    else:
        heading = _(
            "**Step 4 of 5: the {animal} token.** The tile is at `{place}`.",
            animal=name,
            place=str(at),
        )
    lines = [heading]
    selects: tuple[Select, ...] = ()
    if options:
        lines.append(
            _(
                "Pick a tile for the {animal} (the whole move's score change shown), or "
                "return it to the bag (then the move scores {returned}).",
                animal=name,
                returned=returned,
            )
        )
        selects = (Select(Verb.TOKEN, _("Where the {animal} goes", animal=name), options),)
        label = _("Return to bag (move scores {returned})", returned=returned)
        first = Button(Verb.RETURN, _cut(label, 80))
    else:
        lines.append(
            _(
                "None of your tiles can take the {animal}: it goes back to the bag "
                "(the move scores {returned}). Press **Next**.",
                animal=name,
                returned=returned,
            )
        )
        label = _("Next: token back to the bag (move scores {returned})", returned=returned)
        first = Button(Verb.NEXT, _cut(label, 80), style="primary")
    buttons = ((first, back_button(), cancel_button()),)
    return Offer(Step.TOKEN, tuple(lines), selects, buttons, placed, (at,))


def _target_label(place: Hex, gain: int, *, new: bool) -> str:
    if new:
        return _("{place}: {gain} (the new tile)", place=str(place), gain=signed(gain))
    return _("{place}: {gain}", place=str(place), gain=signed(gain))


def _target_words(tile: Tile) -> str:
    if tile.keystone:
        return _("{tile}: a nature token with it", tile=_tile_words(tile))
    return _tile_words(tile)


def _check_step(
    before: GameState,
    after: GameState,
    draft: Draft,
    tile: Tile,
    token: Wildlife,
    planning: bool,
) -> Offer:
    seat = before.current
    change = score_change(before, after, seat)
    took = _took_words(before, draft, tile, token)
    name = animal(token)
    if draft.token_at is None:
        token_words = _("the {animal} goes back to the bag", animal=name)
    elif draft.token_at == draft.at:
        token_words = _("the {animal} goes on the new tile", animal=name)
    else:
        token_words = _("the {animal} goes on `{place}`", animal=name, place=str(draft.token_at))
    if len(tile.rotations) > 1:
        placing = _(
            "The tile goes at `{place}`, rotation {rotation}; {token}.",
            place=str(draft.at),
            rotation=draft.rotation,
            token=token_words,
        )
    else:
        placing = _("The tile goes at `{place}`; {token}.", place=str(draft.at), token=token_words)
    lines = [_("**Step 5 of 5: check your move.** {took}", took=took), placing]
    if draft.at is not None and len(tile.rotations) > 1:
        facing = rotation_words(tile, draft.at, draft.rotation, before)
        lines.append(_("Facing: {facing}.", facing=facing))
    lines.append(_("Score: {change}.", change=str(change)))
    lines.append(same_as(command_text(draft)))
    highlight = tuple(h for h in (draft.at, draft.token_at) if h is not None)
    if planning:
        lines.append(_("Planning only: it is not your turn, so nothing is played."))
        buttons: tuple[Button, ...] = (back_button(), cancel_button())
        return Offer(Step.CHECK, tuple(lines), (), (buttons,), after, highlight)
    confirm = Button(Verb.CONFIRM, _("Confirm"), style="success")
    buttons = (confirm, back_button(), cancel_button())
    return Offer(Step.CHECK, tuple(lines), (), (buttons,), after, highlight)


# --- the score change ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreChange:
    """A move's score change, split by card, corridor, bonus and nature tokens."""

    total: int
    parts: tuple[tuple[str, int], ...] = field(default=())

    def __str__(self) -> str:
        if not self.parts:
            return f"{self.total:+d}"
        return f"{self.total:+d}: " + ", ".join(f"{name} {value:+d}" for name, value in self.parts)


def score_change(before: GameState, after: GameState, seat: int) -> ScoreChange:
    """How ``seat``'s score (:func:`engine.seat_score`, majority bonuses left for the end)
    changes from ``before`` to ``after``, e.g. ``+5: bear +3, forest corridor +2``: the same
    change as the move's gain listed on the Where and Token steps."""
    old = score_state(before).players[seat]
    new = score_state(after).players[seat]
    return _difference(old, new, bonuses=before.solo)


def _difference(old: PlayerScore, new: PlayerScore, *, bonuses: bool) -> ScoreChange:
    parts: list[tuple[str, int]] = []
    for wildlife in Wildlife:
        delta = new.wildlife.get(wildlife, 0) - old.wildlife.get(wildlife, 0)
        if delta:
            parts.append((animal(wildlife), delta))
    for habitat in Habitat:
        name = habitat_name(habitat)
        delta = new.habitats.get(habitat, 0) - old.habitats.get(habitat, 0)
        if delta:
            parts.append((_("{habitat} corridor", habitat=name), delta))
        bonus = new.habitat_bonus.get(habitat, 0) - old.habitat_bonus.get(habitat, 0)
        # Only the solo bonus is the seat's own; majority bonuses wait for the end.
        if bonus and bonuses:
            parts.append((_("{habitat} bonus", habitat=name), bonus))
    nature = new.nature_tokens - old.nature_tokens
    if nature:
        parts.append((_("nature tokens"), nature))
    return ScoreChange(sum(value for _name, value in parts), tuple(parts))


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plan_kept_text(slot: int, *, confirm: bool) -> str:
    """The notice on a panel whose plan, made while waiting, still holds now the turn came."""
    if confirm:
        return _(
            "Your plan is kept: its pair is still in the display (now pair {slot}), so check "
            "it and press **Confirm**.",
            slot=slot,
        )
    return _(
        "Your plan is kept: its pair is still in the display (now pair {slot}), so carry on "
        "from where you left off.",
        slot=slot,
    )


def plan_changed_text(*, tile_gone: bool, token: str) -> str:
    """The notice on a panel whose plan, made while waiting, no longer holds (``token``: the
    planned token's species, as the engine names it)."""
    if tile_gone:
        return _(
            "Your plan changed: the tile you planned to take is no longer in the display, so "
            "choose again."
        )
    return _(
        "Your plan changed: the {animal} you planned to take is no longer in the display, so "
        "choose again.",
        animal=animal(token),
    )
