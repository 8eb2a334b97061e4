"""Every text the bot says, built by pure functions from engine values and plain data.

Nothing here talks to Discord or the database, so each message is unit-tested as a string.
Mentions are written as ``<@id>``; whether they ping is decided where the message is sent.

Each text is written in the reader's language (see :func:`i18n.speaking`): the person's for a
private answer, the game's for a public message (the service names it where it builds one).
The few functions that take ``locale`` speak that language instead when it is given. The
game's own things are named as the editions name them (``i18n/GLOSSARY.md``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime

from bot.game.hooks import AwayPeriod, Call, ReminderLevel
from bot.game.names import safe
from engine import (
    MAX_PLAYERS,
    SCENARIOS,
    TURNS_PER_PLAYER,
    Action,
    CardSet,
    GameState,
    Move,
    NatureWipe,
    PlaceTile,
    PlaceToken,
    Scenario,
    ScenarioCheck,
    ScoreSheet,
    Take,
    Tile,
    Wildlife,
    WipeThree,
)
from i18n import N_, _, _n, number, speaking
from render.words import habitat_word, variant_name, wildlife_heading, wildlife_word


@contextmanager
def voice(locale: str | None) -> Iterator[None]:
    """Speak ``locale`` in the block when one is given; else the reader's language, as
    :func:`i18n.speaking` set it (``None``: English)."""
    with nullcontext() if locale is None else speaking(locale):
        yield


@dataclass(frozen=True, slots=True)
class Player:
    """A seated player as messages show them: a Discord user and a name unique in the game."""

    user_id: int
    name: str
    computer: str | None = None
    """The computer player that plays this seat for good, if any (never pinged)."""
    locale: str | None = field(default=None, compare=False)
    """The locale the person's Discord client was last seen with (see
    :attr:`~bot.game.rows.Seat.locale`), for what is written to them alone outside a request."""

    @property
    def mention(self) -> str:
        """The ``<@id>`` text that mentions this player."""
        return f"<@{self.user_id}>"

    @property
    def shown(self) -> str:
        """The name in bold, with Discord markdown and mention syntax in it made harmless."""
        return f"**{safe(self.name)}**"


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp that each reader sees in their own time zone (``R``: relative)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


# --- the game's words -------------------------------------------------------------------------

_A_TOKEN = {
    Wildlife.BEAR: N_("a bear"),
    Wildlife.ELK: N_("an elk"),
    Wildlife.SALMON: N_("a salmon"),
    Wildlife.HAWK: N_("a hawk"),
    Wildlife.FOX: N_("a fox"),
}
_THE_TOKEN = {
    Wildlife.BEAR: N_("the bear"),
    Wildlife.ELK: N_("the elk"),
    Wildlife.SALMON: N_("the salmon"),
    Wildlife.HAWK: N_("the hawk"),
    Wildlife.FOX: N_("the fox"),
}


def a_token(wildlife: Wildlife) -> str:
    """One token of the species with its article, in the reader's language: "an elk"."""
    return _(_A_TOKEN[wildlife])


def animals(wildlife: Wildlife, count: int) -> str:
    """``count`` tokens of the species in the reader's language: "3 hawks", "4 elk"."""
    if wildlife is Wildlife.BEAR:
        return _n("{n} bear", "{n} bears", count)
    if wildlife is Wildlife.ELK:
        return _n("{n} elk", "{n} elk", count)
    if wildlife is Wildlife.SALMON:
        return _n("{n} salmon", "{n} salmon", count)
    if wildlife is Wildlife.HAWK:
        return _n("{n} hawk", "{n} hawks", count)
    return _n("{n} fox", "{n} foxes", count)


def and_list(words: Sequence[str]) -> str:
    """``words`` as a list read aloud: "1", "1 and 3", "1, 2 and 4"."""
    if len(words) == 1:
        return words[0]
    return _("{first} and {last}", first=", ".join(words[:-1]), last=words[-1])


# --- pieces -----------------------------------------------------------------------------------


def cards_text(cards: CardSet, *, locale: str | None = None) -> str:
    """The scoring cards in play, e.g. ``"Bear A · Elk B · Salmon C · Hawk D · Fox A"``, with
    the wildlife named as the edition in the language of ``locale`` (default: the reader's)
    names them."""
    with voice(locale):
        if cards.variant is not None:
            variant = variant_name(cards.variant.value)
            return _("{variant} card for all wildlife", variant=variant)
        return " · ".join(f"{wildlife_heading(w)} {cards.card(w)}" for w in Wildlife)


_PLURALS = {Wildlife.ELK: "elk", Wildlife.SALMON: "salmon", Wildlife.FOX: "foxes"}


def count(number: int, word: str) -> str:
    """``number`` of ``word``, plural but for one, in English: "1 nature token", "3 tiles"."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def plural(wildlife: Wildlife) -> str:
    """The species in the plural, in English: bears, elk, salmon, hawks, foxes."""
    return _PLURALS.get(wildlife, f"{wildlife.value}s")


def tile_text(tile: Tile) -> str:
    """A tile in words, in the reader's language, e.g. ``"forest-river tile (elk, salmon)"``."""
    habitats = "-".join(habitat_word(h) for h in tile.habitats)
    wildlife = ", ".join(wildlife_word(w) for w in tile.wildlife)
    if tile.keystone:
        return _("{habitats} keystone ({wildlife})", habitats=habitats, wildlife=wildlife)
    return _("{habitats} tile ({wildlife})", habitats=habitats, wildlife=wildlife)


def display_text(state: GameState) -> str:
    """The four display pairs, one per line, as players number them."""
    lines = []
    for slot, (tile, token) in enumerate(
        zip(state.display_tiles, state.display_tokens, strict=True), start=1
    ):
        tile_part = tile_text(tile) if tile is not None else _("no tile")
        token_part = wildlife_word(token) if token is not None else _("no token")
        lines.append(f"`{slot}` {tile_part} + {token_part}")
    return "\n".join(lines)


def progress_text(state: GameState, *, locale: str | None = None) -> str:
    """Round, turn and tiles left, e.g. ``"round 3 of 20 · turn 9 of 40 · 35 tiles left"``."""
    total = TURNS_PER_PLAYER * state.players
    turn = min(state.turn + 1, total)
    with voice(locale):
        return _n(
            "round {round} of {rounds} · turn {turn} of {turns} · {n} tile left",
            "round {round} of {rounds} · turn {turn} of {turns} · {n} tiles left",
            state.tiles_left,
            round=state.round,
            rounds=TURNS_PER_PLAYER,
            turn=turn,
            turns=total,
        )


def _slots_text(slots: Sequence[int]) -> str:
    return and_list([str(s) for s in slots])


def capitalized(text: str) -> str:
    """``text`` with its first letter a capital (the rest as it is)."""
    return text[:1].upper() + text[1:]


# --- what happened ----------------------------------------------------------------------------


def article(word: str) -> str:
    """``word`` with its English indefinite article: "a salmon", "an elk"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def describe_turn(before: GameState, actions: Sequence[Action], player: Player) -> str:
    """What ``player`` did with the turn ``actions`` (take, place tile, place token), played
    on ``before``, e.g. "**Ada** took pair 2 — a forest-river tile (elk, salmon) and an elk —
    placed the tile at `1,-1` and put the elk on it, earning a nature token."."""
    take = next((a for a in actions if isinstance(a, Take)), None)
    place = next((a for a in actions if isinstance(a, PlaceTile)), None)
    token_action = next((a for a in actions if isinstance(a, PlaceToken)), None)
    if take is None or place is None or token_action is None:
        raise ValueError(f"not a whole turn: {' / '.join(map(str, actions))}")
    tile = before.display_tiles[take.tile - 1]
    token = before.display_tokens[take.token - 1]
    if tile is None or token is None:
        raise ValueError(f"pair {take.tile} was empty")
    pieces = _("a {tile} and {token}", tile=tile_text(tile), token=a_token(token))
    if take.free_choice:
        took = _(
            "{name} spent a nature token to take tile {tile} and token {token}",
            name=player.shown,
            tile=take.tile,
            token=take.token,
        )
    else:
        took = _("{name} took pair {pair}", name=player.shown, pair=take.tile)
    fields = {"took": took, "pieces": pieces, "at": place.at, "token": _(_THE_TOKEN[token])}
    if token_action.at is None:
        return _(
            "{took} — {pieces} — placed the tile at `{at}` and returned {token} to the bag.",
            **fields,
        )
    if token_action.at == place.at:
        if tile.keystone:
            return _(
                "{took} — {pieces} — placed the tile at `{at}` and put {token} on it, earning a"
                " nature token.",
                **fields,
            )
        return _("{took} — {pieces} — placed the tile at `{at}` and put {token} on it.", **fields)
    there = token_action.at
    if before.current_player.environment[there].tile.keystone:
        return _(
            "{took} — {pieces} — placed the tile at `{at}` and put {token} on `{there}`, earning"
            " a nature token.",
            there=there,
            **fields,
        )
    return _(
        "{took} — {pieces} — placed the tile at `{at}` and put {token} on `{there}`.",
        there=there,
        **fields,
    )


def describe_wipe(before: GameState, action: WipeThree | NatureWipe, player: Player) -> str:
    """What a wipe did, e.g. "**Ada** wiped the three hawks from the display."."""
    name = player.shown
    if isinstance(action, WipeThree):
        species = before.three_of_a_kind()
        if species is Wildlife.BEAR:
            return _("{name} wiped the three bears from the display.", name=name)
        if species is Wildlife.ELK:
            return _("{name} wiped the three elk from the display.", name=name)
        if species is Wildlife.SALMON:
            return _("{name} wiped the three salmon from the display.", name=name)
        if species is Wildlife.HAWK:
            return _("{name} wiped the three hawks from the display.", name=name)
        if species is Wildlife.FOX:
            return _("{name} wiped the three foxes from the display.", name=name)
        return _("{name} wiped three tokens from the display.", name=name)
    tokens = [before.display_tokens[s - 1] for s in action.slots]
    names = ", ".join(wildlife_word(t) for t in tokens if t is not None)
    return _n(
        "{name} spent a nature token to wipe token {slots} ({names}).",
        "{name} spent a nature token to wipe tokens {slots} ({names}).",
        len(action.slots),
        name=name,
        slots=_slots_text(action.slots),
        names=names,
    )


def your_turn_line(
    state: GameState, player: Player, call: Call | None = None, *, locale: str | None = None
) -> str:
    """The line that tells the player to move that it is their turn: a mention, or in their
    quiet hours only the name; by when they play and whether they are away (see
    :class:`~bot.game.hooks.Call`). A computer is named, not pinged: it plays within
    seconds. In the language of ``locale`` (default: the reader's)."""
    with voice(locale):
        progress = progress_text(state)
        if player.computer is not None:
            return _(
                "{name} plays next (the computer): {progress}.",
                name=player.shown,
                progress=progress,
            )
        call = call or Call()
        name = player.mention if call.ping and player.computer is None else player.shown
        by = ""
        if call.deadline is not None:
            by = _(" · plays by {time}", time=timestamp(call.deadline))
        line = _("{name}, it's your turn: {progress}{by}.", name=name, progress=progress, by=by)
        if call.away is not None:
            away = away_text(call.away)
            line += _(" {name} is {away}.", name=player.shown, away=away)
        return line


def away_text(period: AwayPeriod, *, locale: str | None = None) -> str:
    """``"away until <date>"``, with the note if there is one."""
    note = f" ({safe(period.note)})" if period.note else ""
    with voice(locale):
        return _("away until {time}{note}", time=timestamp(period.end, "f"), note=note)


def turn_message(
    before: GameState, after: GameState, actions: Sequence[Action], players: Sequence[Player]
) -> str:
    """The channel message after a turn: what the mover did, then the next player's ping.

    The only mention in it is the next player's (the mover is named, not mentioned).
    """
    line = describe_turn(before, actions, players[before.current])
    return f"{line}\n{your_turn_line(after, players[after.current])}"


def start_message(
    state: GameState,
    players: Sequence[Player],
    call: Call | None = None,
    *,
    locale: str | None = None,
) -> str:
    """The channel message that opens a game and calls the first player, in the language of
    ``locale`` (default: the reader's, the game's: the message is public)."""
    with voice(locale):
        names = ", ".join(p.shown for p in players)
        on = _("The game is on (solo rules)!") if state.solo else _("The game is on!")
        first = players[state.current]
        if first.computer is None:
            how = _(
                "Press **Play** below to play your turn step by step (or type `/cascadia play`);"
            )
        else:
            # The computer moves at once: the people's Play comes with their own turn's message.
            how = _(
                "When your turn comes, press **Play** on its message to play it step by step"
                " (or type `/cascadia play`);"
            )
        scenario = scenario_of(state)
        goal = "" if scenario is None else f"{scenario_text(scenario)}\n"
        cards = cards_text(state.cards)
        players_line = _("Players: {names}. Cards: {cards}.", names=names, cards=cards)
        rules = _("`/cascadia help` explains the rules.")
        return f"{on} {players_line}\n{goal}{your_turn_line(state, first, call)}\n{how} {rules}"


def scenario_of(state: GameState) -> Scenario | None:
    """The solo scenario a game plays: a solo game whose cards are a scenario's."""
    return scenario_with(state.cards) if len(state.seats) == 1 else None


def scenario_with(cards: CardSet) -> Scenario | None:
    """The solo scenario whose cards are ``cards``, if any."""
    return next((s for s in SCENARIOS if s.cards == cards), None)


def scenario_text(scenario: Scenario, *, locale: str | None = None) -> str:
    """What a solo scenario asks, in one line: the target and every extra condition."""
    with voice(locale):
        target = _("{target} points or more", target=scenario.target)
        # The conditions' words are the engine's, marked there.
        asks = "; ".join([target, *(_(c.words) for c in scenario.extras)])
        return _("**Solo scenario {number}**: {asks}.", number=scenario.number, asks=asks)


def scenario_result(check: ScenarioCheck) -> str:
    """Which of a solo scenario's conditions held at the end, and whether it was met."""
    target = _("{target} points or more", target=check.scenario.target)
    conditions = [(target, check.target), *((_(c.words), ok) for c, ok in check.extras)]
    held = " · ".join(f"{'✅' if ok else '❌'} {words}" for words, ok in conditions)
    number = check.scenario.number
    if check.met:
        return _("**Solo scenario {number} met**: {held}", number=number, held=held)
    return _("**Solo scenario {number} not met**: {held}", number=number, held=held)


def computer_choice_text(strong_seconds: float) -> str:
    """The host's private question when adding a computer: what each computer player does,
    ``strong`` with the seconds the bot lets it think about one turn."""
    seconds = _n(
        "{n} second",
        "{n} seconds",
        1 if strong_seconds == 1 else 2,
        n=number(strong_seconds),
    )
    # Its last turn is played at once: nothing is left to try out after it.
    return _(
        "Which computer player? **fast** moves at once; **strong** thinks for up to"
        " {seconds} on each of its turns but the last, trying its best moves out in sampled"
        " games, and plays better.",
        seconds=seconds,
    )


def turn_passed_text(latest: str | None = None) -> str:
    """The answer to a press on a past turn's Play button or panel: where to play now, with a
    link to the game's latest turn message when its address is known."""
    if latest:
        return _(
            "This turn has passed: press **Play** on the [latest turn]({link}) message. Nothing"
            " was played.",
            link=latest,
        )
    return _("This turn has passed: press **Play** on the latest turn message. Nothing was played.")


def wipe_message(before: GameState, action: WipeThree | NatureWipe, player: Player) -> str:
    """The channel message after a wipe (no ping: the same player is still to move)."""
    return _("{wipe} The new display is attached.", wipe=describe_wipe(before, action, player))


def places(sheet: ScoreSheet) -> list[tuple[int, str]]:
    """The players best first, each with their place from 1: players tied on total and
    nature tokens (the tie-breaker) share the better place (1, 2, 2, 4), as in the picture."""
    found: list[tuple[int, str]] = []
    previous: tuple[int, int] | None = None
    for index, name in enumerate(sheet.ranking):
        score = sheet.player(name)
        key = (score.total, score.nature_tokens)
        place = found[-1][0] if key == previous else index + 1
        found.append((place, name))
        previous = key
    return found


def ranking_text(sheet: ScoreSheet, *, final: bool = True) -> str:
    """Players best first with their totals, then who won (or, before the end, who leads)."""
    lines = []
    for place, name in places(sheet):
        score = sheet.player(name)
        bold = f"**{safe(name)}**"
        lines.append(
            _(
                "{place}. {name}: {total} points (wildlife {wildlife}, habitats {habitats},"
                " nature tokens {tokens})",
                place=place,
                name=bold,
                total=number(score.total),
                wildlife=score.wildlife_total,
                habitats=score.habitat_total,
                tokens=score.nature_tokens,
            )
        )
    winners = [f"**{safe(w)}**" for w in sheet.winners]
    if len(sheet.players) == 1:
        total = number(sheet.players[0].total)
        if final:
            lines.append(_("Final score: {total}.", total=total))
        else:
            lines.append(_("Current score: {total}.", total=total))
    elif not final:
        if len(winners) == 1:
            lines.append(_("{names} leads.", names=winners[0]))
        else:
            lines.append(_("{names} share the lead.", names=and_list(winners)))
    elif len(winners) == 1:
        lines.append(_("{name} wins!", name=winners[0]))
    else:
        lines.append(_("Shared victory: {names}!", names=", ".join(winners)))
    return "\n".join(lines)


def game_over_message(
    last_turn: str, sheet: ScoreSheet, players: Sequence[Player], *, pinged: Collection[int]
) -> str:
    """The channel message after the last turn: the move, the ranking and a call to every
    person, a mention for those ``pinged`` (by user id), the name for the others."""
    everyone = " ".join(
        p.mention if p.user_id in pinged else p.shown for p in players if p.computer is None
    )
    over = _("**The game is over.**")
    return f"{last_turn}\n{over} {everyone}\n{ranking_text(sheet)}"


def left_message(leaver: Player, computer: str, *, their_turn: bool) -> str:
    """The channel message when a player leaves a game in play and the computer player
    ``computer`` takes over their seat."""
    if their_turn:
        return _(
            "{name} left the game: the computer ({computer}) plays their seat from now on."
            " It plays their turn now.",
            name=leaver.shown,
            computer=computer,
        )
    return _(
        "{name} left the game: the computer ({computer}) plays their seat from now on.",
        name=leaver.shown,
        computer=computer,
    )


def computer_lead(player: Player) -> str:
    """The first line of the turn message of a turn the computer played for ``player``, whose
    seat it plays for good."""
    return _("The computer played for {name}.", name=player.shown) + "\n"


def play_command(move: Move) -> str:
    """The ``/cascadia play`` command that plays ``move``, as a player would type it."""
    text = f"/cascadia play pair:{move.tile} tile_at:{move.at} rotation:{move.rotation}"
    text += f" token_at:{move.token_at if move.token_at is not None else 'return'}"
    return f"{text} token:{move.token}" if move.free_choice else text


def hint_message(suggestions: Sequence[tuple[str, int]]) -> str:
    """The private answer to ``/cascadia hint``: each suggested move as the exact
    ``/cascadia play`` command with its score change, in the fast player's order, which
    counts what a move sets up for later turns as well as its points now (so a move with
    fewer points now may come first; the first is the move it would play)."""
    if not suggestions:
        return _("I have no move to suggest.")
    lines = [
        _(
            "The fast computer player would choose, best first "
            "(points now and what each move sets up for later):"
        )
    ]
    for place, (command, gain) in enumerate(suggestions, start=1):
        signed = f"{gain:+d}"
        lines.append(
            _n(
                "{place}. `{command}` ({gain} point now)",
                "{place}. `{command}` ({gain} points now)",
                abs(gain),
                place=place,
                command=command,
                gain=signed,
            )
        )
    lines.append(_("The picture shows the first. That was your hint for this turn."))
    return "\n".join(lines)


def host_left_message(leaver: Player, heir: Player, *, ping: bool) -> str:
    """The channel message when the host leaves a lobby and ``heir`` hosts it from now on
    (mentioned with ``ping``, else named)."""
    who = heir.mention if ping else heir.shown
    return _(
        "{name} left the lobby. {heir} is the host now: press **Start** when ready.",
        name=leaver.shown,
        heir=who,
    )


def ended_message(by: Player, *, started: bool) -> str:
    """The channel message when a game (or its lobby) is stopped early."""
    if started:
        return _(
            "The game was ended by {name}. Start a new one with `/cascadia new`.", name=by.shown
        )
    return _("The lobby was ended by {name}. Start a new one with `/cascadia new`.", name=by.shown)


_REMINDERS = {
    ReminderLevel.GENTLE: N_(
        "{mention}, a friendly nudge: it's your turn in Cascadia (since {since})."
    ),
    ReminderLevel.FIRMER: N_(
        "{mention}, the table is still waiting for your move (since {since})."
    ),
    ReminderLevel.FIRMEST: N_(
        "{mention}, your turn has been waiting since {since}. Please play with "
        "`/cascadia play`, or ask the host to end the game."
    ),
}


def reminder_message(level: ReminderLevel, player: Player, since: datetime) -> str:
    """A reminder to the player to move, firmer with each ``level``."""
    return _(_REMINDERS[level], mention=player.mention, since=timestamp(since))


# --- answers to commands ----------------------------------------------------------------------


def lobby_message(
    players: Sequence[Player],
    *,
    host_id: int,
    cards: str,
    closed: str | None = None,
    continues: int | None = None,
) -> str:
    """The lobby message: who is seated, the cards, and how to join; ``closed`` replaces the
    call to join once the lobby has started or ended. ``continues``: the finished game whose
    players pressed **Play again** to open it."""
    host = _("{name} (host)", name=next((p.shown for p in players if p.user_id == host_id), ""))
    seated = "\n".join(
        f"{i}. {host if p.user_id == host_id else p.shown}" for i, p in enumerate(players, start=1)
    )
    head = _(
        "**Cascadia lobby** · cards: {cards} · {seated}/{seats} seated",
        cards=cards,
        seated=len(players),
        seats=MAX_PLAYERS,
    )
    head = f"{head}\n{seated}"
    if continues is not None:
        again = _(
            "Play again: the next game after game {game}, its players seated with the first"
            " seat moved on by one. Anyone may **Leave** before the start.",
            game=continues,
        )
        head = f"{head}\n{again}"
    if closed is not None:
        return f"{head}\n{closed}"
    join = _(
        "Press **Join** to take a seat (up to {seats}). The host may **Add computer** players,"
        " and presses **Start** when everyone is in; one player plays solo.",
        seats=MAX_PLAYERS,
    )
    return f"{head}\n{join}"


def status_message(
    state: GameState,
    players: Sequence[Player],
    *,
    turn_started_at: datetime | None,
    ended: bool = False,
    deadline: datetime | None = None,
    away: Sequence[AwayPeriod | None] = (),
) -> str:
    """Whose turn it is and since when, the turn numbers, tiles left and cards in play;
    ``ended`` for a game stopped early. ``deadline``: by when the player to move plays;
    ``away``: per seat, the time away going on."""
    if ended:
        head = _("This game was ended early.")
    elif state.is_over:
        head = _("The game is over.")
    else:
        name = players[state.current].shown
        if turn_started_at is not None:
            head = _("It's {name}'s turn since {time}.", name=name, time=timestamp(turn_started_at))
        else:
            head = _("It's {name}'s turn.", name=name)
        if deadline is not None:
            head += " " + _("Plays by {time}.", time=timestamp(deadline))
    seats = "\n".join(
        f"{'▶ ' if i == state.current and not (state.is_over or ended) else ''}"
        + _n(
            "{name}: {n} tile, {tokens}",
            "{name}: {n} tiles, {tokens}",
            len(state.seats[i].environment),
            name=p.shown,
            tokens=_n("{n} nature token", "{n} nature tokens", state.seats[i].nature_tokens),
        )
        + _seat_note(p, away[i] if i < len(away) else None)
        for i, p in enumerate(players)
    )
    progress = capitalized(progress_text(state))
    cards = _("Cards: {cards}.", cards=cards_text(state.cards))
    display = _("Display:")
    return f"{head}\n{progress}.\n{cards}\n{seats}\n{display}\n{display_text(state)}"


def _seat_note(player: Player, away: AwayPeriod | None) -> str:
    notes = []
    if player.computer is not None:
        notes.append(_("played by the computer"))
    if away is not None:
        notes.append(away_text(away))
    return f" · {' · '.join(notes)}" if notes else ""


def board_message(state: GameState, seat: int, players: Sequence[Player]) -> str:
    """The words beside a player's environment and the display."""
    player = state.seats[seat]
    head = _n(
        "{name}'s environment: {n} tile, {tokens}.",
        "{name}'s environment: {n} tiles, {tokens}.",
        len(player.environment),
        name=players[seat].shown,
        tokens=_n("{n} nature token", "{n} nature tokens", player.nature_tokens),
    )
    display = _("Display:")
    return f"{head}\n{display}\n{display_text(state)}"


def score_message(sheet: ScoreSheet, *, final: bool) -> str:
    """The score sheet in words (the image carries the detail)."""
    head = _("Final scores:") if final else _("Scores if the game ended now:")
    return f"{head}\n{ranking_text(sheet, final=final)}"


def settings_message(reminder_hours: int, *, changed: bool, deadline_hours: int = 0) -> str:
    """The game's settings, after a change or on request."""
    if reminder_hours == 0:
        reminders = _("off")
    else:
        reminders = _n("after {n} hour of waiting", "after {n} hours of waiting", reminder_hours)
    if deadline_hours == 0:
        deadline = _("none")
    else:
        deadline = _n(
            "{n} hour a turn, then the others may vote to skip it",
            "{n} hours a turn, then the others may vote to skip it",
            deadline_hours,
        )
    text = _(
        "Reminders: {reminders}. Deadline: {deadline}. The host changes these with"
        " `/cascadia settings reminder_hours:` and `deadline_hours:` (0 turns them off).",
        reminders=reminders,
        deadline=deadline,
    )
    saved = _("Saved.")
    return f"{saved} {text}" if changed else text


def preview_message(gain: int, total: int, *, your_turn: bool = True) -> str:
    """The score change of a previewed turn (``gain``, the move's own points) and the total
    it would lead to if the game ended then (``total``, majority bonuses in, as the standings
    show it); a player waiting for their turn is told that the display may change before it
    comes."""
    fields = {"gain": f"{gain:+d}", "total": total}
    if not your_turn:
        return _(
            "Preview only, nothing was played. This move would score {gain}; your total if it"
            " ended now would be {total}, bonuses in. The display may change before your turn.",
            **fields,
        )
    return _(
        "Preview only, nothing was played. This move would score {gain}; your total if it"
        " ended now would be {total}, bonuses in.",
        **fields,
    )


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of ``/cascadia mygames``."""

    guild_id: int
    channel_id: int
    started: bool
    your_turn: bool
    to_move: str | None
    round: int | None
    deadline: datetime | None = None
    """By when the player to move plays, if the game has deadlines."""
    ended: bool = False
    """Stopped early lately (by the host, or because its channel was deleted)."""
    daily: bool = False
    """A daily trek, played in the person's direct messages with the bot."""


MY_GAMES_LIMIT = 1900
"""Room for ``mygames`` inside Discord's 2,000 characters, with the closing line."""


def my_games_message(games: Sequence[GameSummary]) -> str:
    """The caller's open games across channels, their turns first, then the games ended
    lately: as many as fit in one message, then how many more there are."""
    if not games:
        return _("You are not in any game. Open one with `/cascadia new`.")
    lines = [_("Your games:")]
    ordered = sorted(games, key=lambda g: (g.ended, not g.your_turn))
    for shown, game in enumerate(ordered):
        line = _my_game_line(game)
        if sum(len(x) + 1 for x in lines) + len(line) > MY_GAMES_LIMIT:
            rest = ordered[shown:]
            turns = sum(g.your_turn for g in rest)
            if turns:
                lines.append(
                    _("…and {more} more ({turns} of them your turn).", more=len(rest), turns=turns)
                )
            else:
                lines.append(_("…and {more} more.", more=len(rest)))
            break
        lines.append(line)
    return "\n".join(lines)


def _my_game_line(game: GameSummary) -> str:
    # A channel mention of direct messages shows as an unknown channel: the trek is named.
    daily = _("Your daily trek (in our direct messages)")
    where = daily if game.daily else f"<#{game.channel_id}>"
    if game.ended:
        return _("{where}: ended", where=where)
    if not game.started:
        return _("{where}: in the lobby", where=where)
    by = None if game.deadline is None else timestamp(game.deadline)
    if game.your_turn:
        if by is not None:
            return _(
                "{where}: **your turn** (round {round}, play by {time})",
                where=where,
                round=game.round,
                time=by,
            )
        return _("{where}: **your turn** (round {round})", where=where, round=game.round)
    to_move = safe(game.to_move) if game.to_move else _("someone")
    if by is not None:
        return _(
            "{where}: waiting for {name} (round {round}, plays by {time})",
            where=where,
            name=to_move,
            round=game.round,
            time=by,
        )
    return _(
        "{where}: waiting for {name} (round {round})", where=where, name=to_move, round=game.round
    )


HELP = N_("""\
**How to play Cascadia.** Build a landscape of habitat tiles and fill it with wildlife. \
On your turn, press **Play** under the turn message: a private panel walks you through it, \
with a picture and the score change of every choice.
1. **Pair**: take a tile and the wildlife token that goes with it (or **Suggest a move**).
2. **Where**: place the tile touching your tiles; then rotate it and press **Next**.
3. **Token**: put it on one of your tiles that shows that animal and has no token yet, or \
return it to the bag. A token on a keystone tile (one habitat) earns a nature token.
4. **Check** the move and its score change, then **Confirm** (**Back** and **Cancel** change \
nothing). **Play** while you wait plans your next turn.
A nature token buys a **Free choice** (any tile with any token) or a wipe of the tokens you \
pick; three matching tokens may be wiped once a turn for free (**Wipe 3**); four matching \
are replaced automatically. After 20 turns each, points come from the wildlife scoring \
cards, your largest area of each habitat (plus bonuses) and your nature tokens.
Or type: `/cascadia play pair:2 tile_at:1,-1 rotation:3 token_at:0,1`, \
`/cascadia preview` with the same options, `/cascadia wipe`, \
or `/cascadia wipe tokens:1 3` to spend a nature token. `/cascadia hint`: 3 moves, once a turn.

`/cascadia new [cards] [thread]`: a lobby (cards: random, A-D, ABCDA, family, intermediate; \
host: **Add**/**Remove computer**) · `/cascadia join` · `/cascadia leave` · \
`/cascadia start` (host)
Look: `/cascadia board [player]` · `/cascadia status` · `/cascadia score` · `/cascadia mygames` \
· `/cascadia export`
Past games: `/cascadia history [user]` · `/cascadia replay [game]` · `/cascadia stats` \
· `/cascadia server` · `/cascadia leaderboard` · `/cascadia league`
Host: `/cascadia settings` · `/cascadia skip` · `/cascadia end`
You: `/cascadia notify` (DMs, digest, quiet hours, time away)
Daily: `/cascadia daily` (a solo deal a day, in DMs; `action:` board, show, channel)""")


def help_message(locale: str | None = None) -> str:
    """A short how-to-play and the command list, in the language of ``locale`` (default: the
    reader's)."""
    with voice(locale):
        return _(HELP)


def table_opened_line(host: str, thread_id: int, cards: str) -> str:
    """The channel's line for a table opened in a thread of its own."""
    bold = f"**{safe(host)}**"
    return _(
        "{host} opened a Cascadia table in <#{thread}> (cards: {cards}). Press **Join** to take"
        " a seat, here or there.",
        host=bold,
        thread=thread_id,
        cards=cards,
    )


def table_ended_line(thread_id: int) -> str:
    """The channel's line for a game (or lobby) in a thread of its own that was ended early."""
    return _("The table in <#{thread}> was ended early.", thread=thread_id)


def table_result_line(thread_id: int, sheet: ScoreSheet) -> str:
    """The channel's line for a game in a thread of its own that was played to the end: the
    players best first with their totals, and the thread to read it all in."""
    scores = " · ".join(
        f"{place}. **{safe(name)}** {sheet.player(name).total}" for place, name in places(sheet)
    )
    return _("A table finished in <#{thread}>: {scores}.", thread=thread_id, scores=scores)
