"""Every text the bot says, built by pure functions from engine values and plain data.

Nothing here talks to Discord or the database, so each message is unit-tested as a string.
Mentions are written as ``<@id>``; whether they ping is decided where the message is sent.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
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
from i18n import translate, translate_plural


@dataclass(frozen=True, slots=True)
class Player:
    """A seated player as messages show them: a Discord user and a name unique in the game."""

    user_id: int
    name: str
    computer: str | None = None
    """The computer player that plays this seat for good, if any (never pinged)."""

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


# --- pieces -----------------------------------------------------------------------------------


def cards_text(cards: CardSet, *, locale: str | None = None) -> str:
    """The scoring cards in play, e.g. ``"Bear A · Elk B · Salmon C · Hawk D · Fox A"``, with
    the wildlife named as the edition in the language of ``locale`` names them."""
    if cards.variant is not None:
        variant = translate(cards.variant.value.capitalize(), locale)
        return translate("{variant} card for all wildlife", locale, variant=variant)
    return " · ".join(
        f"{translate(w.value.capitalize(), locale)} {cards.card(w)}" for w in Wildlife
    )


_PLURALS = {Wildlife.ELK: "elk", Wildlife.SALMON: "salmon", Wildlife.FOX: "foxes"}


def count(number: int, word: str) -> str:
    """``number`` of ``word``, plural but for one: "1 nature token", "3 tiles"."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def plural(wildlife: Wildlife) -> str:
    """The species in the plural: bears, elk, salmon, hawks, foxes."""
    return _PLURALS.get(wildlife, f"{wildlife.value}s")


def tile_text(tile: Tile) -> str:
    """A tile in words, e.g. ``"forest-river tile (elk, salmon)"``."""
    kind = "keystone" if tile.keystone else "tile"
    habitats = "-".join(h.value for h in tile.habitats)
    return f"{habitats} {kind} ({', '.join(w.value for w in tile.wildlife)})"


def display_text(state: GameState) -> str:
    """The four display pairs, one per line, as players number them."""
    lines = []
    for slot, (tile, token) in enumerate(
        zip(state.display_tiles, state.display_tokens, strict=True), start=1
    ):
        tile_part = tile_text(tile) if tile is not None else "no tile"
        token_part = token.value if token is not None else "no token"
        lines.append(f"`{slot}` {tile_part} + {token_part}")
    return "\n".join(lines)


def progress_text(state: GameState, *, locale: str | None = None) -> str:
    """Round, turn and tiles left, e.g. ``"round 3 of 20 · turn 9 of 40 · 35 tiles left"``."""
    total = TURNS_PER_PLAYER * state.players
    turn = min(state.turn + 1, total)
    left = state.tiles_left
    tiles = translate_plural("{n} tile", "{n} tiles", left, locale)
    return translate(
        "round {round} of {rounds} · turn {turn} of {turns} · {tiles} left",
        locale,
        round=state.round,
        rounds=TURNS_PER_PLAYER,
        turn=turn,
        turns=total,
        tiles=tiles,
    )


def _slots_text(slots: Sequence[int]) -> str:
    words = [str(s) for s in slots]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --- what happened ----------------------------------------------------------------------------


def article(word: str) -> str:
    """``word`` with its indefinite article: "a salmon", "an elk"."""
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
    pieces = f"{article(tile_text(tile))} and {article(token.value)}"
    if take.free_choice:
        took = f"spent a nature token to take tile {take.tile} and token {take.token}"
    else:
        took = f"took pair {take.tile}"
    text = f"{player.shown} {took} — {pieces} — placed the tile at `{place.at}`"
    if token_action.at is None:
        return f"{text} and returned the {token.value} to the bag."
    if token_action.at == place.at:
        text += f" and put the {token.value} on it"
        earned = tile.keystone
    else:
        text += f" and put the {token.value} on `{token_action.at}`"
        earned = before.current_player.environment[token_action.at].tile.keystone
    return f"{text}, earning a nature token." if earned else f"{text}."


def describe_wipe(before: GameState, action: WipeThree | NatureWipe, player: Player) -> str:
    """What a wipe did, e.g. "**Ada** wiped the three hawks from the display."."""
    if isinstance(action, WipeThree):
        species = before.three_of_a_kind()
        what = f"the three {plural(species)}" if species is not None else "three tokens"
        return f"{player.shown} wiped {what} from the display."
    tokens = [before.display_tokens[s - 1] for s in action.slots]
    names = ", ".join(t.value for t in tokens if t is not None)
    many = "s" if len(action.slots) > 1 else ""
    return (
        f"{player.shown} spent a nature token to wipe token{many} "
        f"{_slots_text(action.slots)} ({names})."
    )


def your_turn_line(
    state: GameState, player: Player, call: Call | None = None, *, locale: str | None = None
) -> str:
    """The line that tells the player to move that it is their turn: a mention, or in their
    quiet hours only the name; by when they play and whether they are away (see
    :class:`~bot.game.hooks.Call`). A computer is named, not pinged: it plays within
    seconds."""
    progress = progress_text(state, locale=locale)
    if player.computer is not None:
        return translate(
            "{name} plays next (the computer): {progress}.",
            locale,
            name=player.shown,
            progress=progress,
        )
    call = call or Call()
    name = player.mention if call.ping and player.computer is None else player.shown
    by = ""
    if call.deadline is not None:
        by = translate(" · plays by {time}", locale, time=timestamp(call.deadline))
    line = translate(
        "{name}, it's your turn: {progress}{by}.", locale, name=name, progress=progress, by=by
    )
    if call.away is not None:
        away = away_text(call.away, locale=locale)
        line += translate(" {name} is {away}.", locale, name=player.shown, away=away)
    return line


def away_text(period: AwayPeriod, *, locale: str | None = None) -> str:
    """``"away until <date>"``, with the note if there is one."""
    note = f" ({safe(period.note)})" if period.note else ""
    return translate("away until {time}{note}", locale, time=timestamp(period.end, "f"), note=note)


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
    ``locale`` (the server's: the message is public)."""
    names = ", ".join(p.shown for p in players)
    on = "The game is on (solo rules)!" if state.solo else "The game is on!"
    first = players[state.current]
    if first.computer is None:
        how = "Press **Play** below to play your turn step by step (or type `/cascadia play`);"
    else:
        # The computer moves at once: the people's Play comes with their own turn's message.
        how = (
            "When your turn comes, press **Play** on its message to play it step by step"
            " (or type `/cascadia play`);"
        )
    scenario = scenario_of(state)
    goal = "" if scenario is None else f"{scenario_text(scenario, locale=locale)}\n"
    cards = cards_text(state.cards, locale=locale)
    players_line = translate("Players: {names}. Cards: {cards}.", locale, names=names, cards=cards)
    return (
        f"{translate(on, locale)} {players_line}\n"
        f"{goal}{your_turn_line(state, first, call, locale=locale)}\n"
        f"{translate(how, locale)} {translate('`/cascadia help` explains the rules.', locale)}"
    )


def scenario_of(state: GameState) -> Scenario | None:
    """The solo scenario a game plays: a solo game whose cards are a scenario's."""
    return scenario_with(state.cards) if len(state.seats) == 1 else None


def scenario_with(cards: CardSet) -> Scenario | None:
    """The solo scenario whose cards are ``cards``, if any."""
    return next((s for s in SCENARIOS if s.cards == cards), None)


def scenario_text(scenario: Scenario, *, locale: str | None = None) -> str:
    """What a solo scenario asks, in one line: the target and every extra condition."""
    target = translate("{target} points or more", locale, target=scenario.target)
    asks = "; ".join([target, *(c.words for c in scenario.extras)])
    return translate(
        "**Solo scenario {number}**: {asks}.", locale, number=scenario.number, asks=asks
    )


def scenario_result(check: ScenarioCheck) -> str:
    """Which of a solo scenario's conditions held at the end, and whether it was met."""
    held = " · ".join(f"{'✅' if ok else '❌'} {words}" for words, ok in check.lines()[1:])
    verdict = "met" if check.met else "not met"
    return f"**Solo scenario {check.scenario.number} {verdict}**: {held}"


def computer_choice_text(strong_seconds: float) -> str:
    """The host's private question when adding a computer: what each computer player does,
    ``strong`` with the seconds the bot lets it think about one turn."""
    seconds = f"{strong_seconds:g} second{'' if strong_seconds == 1 else 's'}"
    # Its last turn is played at once: nothing is left to try out after it.
    return (
        "Which computer player? **fast** moves at once; **strong** thinks for up to"
        f" {seconds} on each of its turns but the last, trying its best moves out in sampled"
        " games, and plays better."
    )


def turn_passed_text(latest: str | None = None) -> str:
    """The answer to a press on a past turn's Play button or panel: where to play now, with a
    link to the game's latest turn message when its address is known."""
    where = f"the [latest turn]({latest}) message" if latest else "the latest turn message"
    return f"This turn has passed: press **Play** on {where}. Nothing was played."


def wipe_message(before: GameState, action: WipeThree | NatureWipe, player: Player) -> str:
    """The channel message after a wipe (no ping: the same player is still to move)."""
    return f"{describe_wipe(before, action, player)} The new display is attached."


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
        lines.append(
            f"{place}. **{safe(name)}**: {score.total} points"
            f" (wildlife {score.wildlife_total}, habitats {score.habitat_total},"
            f" nature tokens {score.nature_tokens})"
        )
    if len(sheet.players) == 1:
        lines.append(f"{'Final' if final else 'Current'} score: {sheet.players[0].total}.")
    elif not final:
        leaders = " and ".join(f"**{safe(w)}**" for w in sheet.winners)
        lines.append(f"{leaders} {'leads' if len(sheet.winners) == 1 else 'share the lead'}.")
    elif len(sheet.winners) == 1:
        lines.append(f"**{safe(sheet.winners[0])}** wins!")
    else:
        lines.append("Shared victory: " + ", ".join(f"**{safe(w)}**" for w in sheet.winners) + "!")
    return "\n".join(lines)


def game_over_message(
    last_turn: str, sheet: ScoreSheet, players: Sequence[Player], *, pinged: Collection[int]
) -> str:
    """The channel message after the last turn: the move, the ranking and a call to every
    person, a mention for those ``pinged`` (by user id), the name for the others."""
    everyone = " ".join(
        p.mention if p.user_id in pinged else p.shown for p in players if p.computer is None
    )
    return f"{last_turn}\n**The game is over.** {everyone}\n{ranking_text(sheet)}"


def left_message(leaver: Player, computer: str, *, their_turn: bool) -> str:
    """The channel message when a player leaves a game in play and the computer player
    ``computer`` takes over their seat."""
    text = f"{leaver.shown} left the game: the computer ({computer}) plays their seat from now on."
    return f"{text} It plays their turn now." if their_turn else text


def computer_lead(player: Player) -> str:
    """The first line of the turn message of a turn the computer played for ``player``, whose
    seat it plays for good."""
    return f"The computer played for {player.shown}.\n"


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
        return "I have no move to suggest."
    lines = [
        "The fast computer player would choose, best first "
        "(points now and what each move sets up for later):"
    ]
    for number, (command, gain) in enumerate(suggestions, start=1):
        points = "point" if abs(gain) == 1 else "points"
        lines.append(f"{number}. `{command}` ({gain:+d} {points} now)")
    lines.append("The picture shows the first. That was your hint for this turn.")
    return "\n".join(lines)


def host_left_message(leaver: Player, heir: Player, *, ping: bool) -> str:
    """The channel message when the host leaves a lobby and ``heir`` hosts it from now on
    (mentioned with ``ping``, else named)."""
    who = heir.mention if ping else heir.shown
    return f"{leaver.shown} left the lobby. {who} is the host now: press **Start** when ready."


def ended_message(by: Player, *, started: bool) -> str:
    """The channel message when a game (or its lobby) is stopped early."""
    what = "game" if started else "lobby"
    return f"The {what} was ended by {by.shown}. Start a new one with `/cascadia new`."


_REMINDERS = {
    ReminderLevel.GENTLE: "{mention}, a friendly nudge: it's your turn in Cascadia"
    " (since {since}).",
    ReminderLevel.FIRMER: "{mention}, the table is still waiting for your move (since {since}).",
    ReminderLevel.FIRMEST: (
        "{mention}, your turn has been waiting since {since}. Please play with "
        "`/cascadia play`, or ask the host to end the game."
    ),
}


def reminder_message(level: ReminderLevel, player: Player, since: datetime) -> str:
    """A reminder to the player to move, firmer with each ``level``."""
    return _REMINDERS[level].format(mention=player.mention, since=timestamp(since))


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
    seated = "\n".join(
        f"{i}. {p.shown}{' (host)' if p.user_id == host_id else ''}"
        for i, p in enumerate(players, start=1)
    )
    head = f"**Cascadia lobby** · cards: {cards} · {len(players)}/{MAX_PLAYERS} seated\n{seated}"
    if continues is not None:
        head = (
            f"{head}\nPlay again: the next game after game {continues}, its players seated "
            "with the first seat moved on by one. Anyone may **Leave** before the start."
        )
    if closed is not None:
        return f"{head}\n{closed}"
    return (
        f"{head}\nPress **Join** to take a seat (up to {MAX_PLAYERS}). "
        "The host may **Add computer** players, and presses **Start** when everyone is in; "
        "one player plays solo."
    )


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
        head = "This game was ended early."
    elif state.is_over:
        head = "The game is over."
    else:
        since = f" since {timestamp(turn_started_at)}" if turn_started_at is not None else ""
        by = f" Plays by {timestamp(deadline)}." if deadline is not None else ""
        head = f"It's {players[state.current].shown}'s turn{since}.{by}"
    seats = "\n".join(
        f"{'▶ ' if i == state.current and not (state.is_over or ended) else ''}{p.shown}: "
        f"{count(len(state.seats[i].environment), 'tile')}, "
        f"{count(state.seats[i].nature_tokens, 'nature token')}"
        f"{_seat_note(p, away[i] if i < len(away) else None)}"
        for i, p in enumerate(players)
    )
    return (
        f"{head}\n{progress_text(state).capitalize()}.\nCards: {cards_text(state.cards)}.\n"
        f"{seats}\nDisplay:\n{display_text(state)}"
    )


def _seat_note(player: Player, away: AwayPeriod | None) -> str:
    notes = []
    if player.computer is not None:
        notes.append("played by the computer")
    if away is not None:
        notes.append(away_text(away))
    return f" · {' · '.join(notes)}" if notes else ""


def board_message(state: GameState, seat: int, players: Sequence[Player]) -> str:
    """The words beside a player's environment and the display."""
    player = state.seats[seat]
    return (
        f"{players[seat].shown}'s environment: {count(len(player.environment), 'tile')}, "
        f"{count(player.nature_tokens, 'nature token')}.\nDisplay:\n{display_text(state)}"
    )


def score_message(sheet: ScoreSheet, *, final: bool) -> str:
    """The score sheet in words (the image carries the detail)."""
    head = "Final scores:" if final else "Scores if the game ended now:"
    return f"{head}\n{ranking_text(sheet, final=final)}"


def settings_message(reminder_hours: int, *, changed: bool, deadline_hours: int = 0) -> str:
    """The game's settings, after a change or on request."""
    if reminder_hours == 0:
        reminders = "off"
    else:
        reminders = f"after {reminder_hours} hour{'s' if reminder_hours != 1 else ''} of waiting"
    if deadline_hours == 0:
        deadline = "none"
    else:
        deadline = f"{_hours(deadline_hours)} a turn, then the others may vote to skip it"
    saved = "Saved. " if changed else ""
    return (
        f"{saved}Reminders: {reminders}. Deadline: {deadline}. "
        "The host changes these with `/cascadia settings reminder_hours:` and"
        " `deadline_hours:` (0 turns them off)."
    )


def _hours(hours: int) -> str:
    return f"{hours} hour{'s' if hours != 1 else ''}"


def preview_message(gain: int, total: int, *, your_turn: bool = True) -> str:
    """The score change of a previewed turn (``gain``, the move's own points) and the total
    it would lead to if the game ended then (``total``, majority bonuses in, as the standings
    show it); a player waiting for their turn is told that the display may change before it
    comes."""
    text = (
        f"Preview only, nothing was played. This move would score {gain:+d}; your total if it "
        f"ended now would be {total}, bonuses in."
    )
    if not your_turn:
        return f"{text} The display may change before your turn."
    return text


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
        return "You are not in any game. Open one with `/cascadia new`."
    lines = ["Your games:"]
    ordered = sorted(games, key=lambda g: (g.ended, not g.your_turn))
    for shown, game in enumerate(ordered):
        line = _my_game_line(game)
        if sum(len(x) + 1 for x in lines) + len(line) > MY_GAMES_LIMIT:
            rest = ordered[shown:]
            turns = sum(g.your_turn for g in rest)
            more = f"…and {len(rest)} more"
            lines.append(f"{more} ({turns} of them your turn)." if turns else f"{more}.")
            break
        lines.append(line)
    return "\n".join(lines)


def _my_game_line(game: GameSummary) -> str:
    # A channel mention of direct messages shows as an unknown channel: the trek is named.
    where = "Your daily trek (in our direct messages)" if game.daily else f"<#{game.channel_id}>"
    if game.ended:
        return f"{where}: ended"
    if not game.started:
        return f"{where}: in the lobby"
    if game.your_turn:
        return f"{where}: **your turn** (round {game.round}{_by(game, 'play')})"
    to_move = safe(game.to_move) if game.to_move else "someone"
    return f"{where}: waiting for {to_move} (round {game.round}{_by(game, 'plays')})"


def _by(game: GameSummary, verb: str) -> str:
    return f", {verb} by {timestamp(game.deadline)}" if game.deadline is not None else ""


HELP = """\
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
Daily: `/cascadia daily` (a solo deal a day, in DMs; `action:` board, show, channel)"""


def help_message(locale: str | None = None) -> str:
    """A short how-to-play and the command list, in the language of ``locale``."""
    return translate(HELP, locale)


def table_opened_line(host: str, thread_id: int, cards: str) -> str:
    """The channel's line for a table opened in a thread of its own."""
    return (
        f"**{safe(host)}** opened a Cascadia table in <#{thread_id}> (cards: {cards}). "
        "Press **Join** to take a seat, here or there."
    )


def table_ended_line(thread_id: int) -> str:
    """The channel's line for a game (or lobby) in a thread of its own that was ended early."""
    return f"The table in <#{thread_id}> was ended early."


def table_result_line(thread_id: int, sheet: ScoreSheet) -> str:
    """The channel's line for a game in a thread of its own that was played to the end: the
    players best first with their totals, and the thread to read it all in."""
    scores = " · ".join(
        f"{place}. **{safe(name)}** {sheet.player(name).total}" for place, name in places(sheet)
    )
    return f"A table finished in <#{thread_id}>: {scores}."
