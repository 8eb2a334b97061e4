"""What a finished game leaves behind: its replay GIF and score chart, with their alt text.

:func:`game_pictures` draws both from the game's record; it is CPU work for the picture
worker (see :mod:`bot.game.pictures`), never the event loop. The descriptions say in words
what the pictures show, for screen readers: who won, by how much, and when the lead
changed. A round's leader is whoever would win if the game ended after it (the highest
total, then the most nature tokens, as the score sheet ranks), so the last round's leaders
are the winners. They are written in the reader's language: the game's, as its final message
is drawn (see :func:`bot.game.outbox.render_pictures`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from bot.game.captions import MAX_DESCRIPTION, Attachment
from bot.game.messages import and_list
from engine import TURNS_PER_PLAYER, GameRecord, Round, replay_rounds
from i18n import _, _n
from render import render_replay, render_score_chart

REPLAY_FILE = "replay.gif"
CHART_FILE = "score-chart.png"


@dataclass(frozen=True, slots=True)
class Lead:
    """A stretch of rounds in which the same players led."""

    leaders: tuple[str, ...]
    first: int
    """The first round of the stretch."""
    last: int


def leads(rounds: Sequence[Round]) -> list[Lead]:
    """Who led after each round, runs of the same leaders joined, in order."""
    found: list[Lead] = []
    for played in rounds:
        leaders = played.sheet.winners
        if found and found[-1].leaders == leaders:
            found[-1] = Lead(leaders, found[-1].first, played.number)
        else:
            found.append(Lead(leaders, played.number, played.number))
    return found


def _names(names: Sequence[str]) -> str:
    return and_list(names) if names else ""


def _points(number: int) -> str:
    return _n("{n} point", "{n} points", number)


def _span(lead: Lead) -> str:
    if lead.first == lead.last:
        return _("round {round}", round=lead.first)
    return _("rounds {first}-{last}", first=lead.first, last=lead.last)


def _since(rounds: Sequence[Round], last_lead: Lead) -> str:
    """Since when the last leaders led, as a phrase that follows their names."""
    first, together = last_lead.first, len(last_lead.leaders) > 1
    if first == 1:
        return _("led from the first round")
    if first == rounds[-1].number:
        if together:
            return _("drew level in round {round}", round=first)
        return _("took the lead in round {round}", round=first)
    if together:
        return _("were level from round {round}", round=first)
    return _("led from round {round}", round=first)


def _outcome(rounds: Sequence[Round], last_lead: Lead) -> str:
    """The sentence on the end of the game: who won (or was ahead when it was ended), by how
    much, and since when they led."""
    sheet = rounds[-1].sheet
    finished = rounds[-1].state.is_over
    winners = list(last_lead.leaders)
    since = _since(rounds, last_lead)
    best = sheet.player(winners[0]).total
    if len(winners) > 1:
        fields = {"names": _names(winners), "since": since, "points": _points(best)}
        if finished:
            return _("{names} {since} and shared the win on {points}.", **fields)
        return _("{names} {since} and were level when the game was ended on {points}.", **fields)
    others = [s for s in sheet.players if s.name != winners[0]]
    runner_up = max(s.total for s in others)
    if runner_up == best:
        level = [s.name for s in others if s.total == best]
        how = _(
            "on nature tokens, level on {points} with {names}",
            points=_points(best),
            names=_names(level),
        )
    else:
        how = _("by {points}", points=_points(best - runner_up))
    if finished:
        return _("{name} {since} and won {how}.", name=winners[0], since=since, how=how)
    return _(
        "{name} {since} and was ahead {how} when the game was ended.",
        name=winners[0],
        since=since,
        how=how,
    )


def _earlier(history: Sequence[Lead]) -> str:
    """The leads before the last one, each with its rounds."""
    if not history:
        return ""
    parts = [
        _("{names} together in {span}", names=_names(lead.leaders), span=_span(lead))
        if len(lead.leaders) > 1
        else _("{names} in {span}", names=_names(lead.leaders), span=_span(lead))
        for lead in history
    ]
    return _("Before that the lead was held by {parts}.", parts="; ".join(parts))


def _final(rounds: Sequence[Round]) -> str:
    sheet = rounds[-1].sheet
    ranked = ", ".join(f"{name} {sheet.player(name).total}" for name in sheet.ranking)
    if rounds[-1].state.is_over:
        return _("Final scores: {ranked}.", ranked=ranked)
    return _(
        "Scores after round {round} of {rounds}: {ranked}.",
        round=rounds[-1].number,
        rounds=TURNS_PER_PLAYER,
        ranked=ranked,
    )


def _solo(rounds: Sequence[Round]) -> str:
    score = rounds[-1].sheet.players[0]
    first = rounds[0].sheet.players[0].total
    gains = [
        (played.sheet.players[0].total - before.sheet.players[0].total, played.number)
        for before, played in pairwise(rounds)
    ]
    fields = {
        "name": score.name,
        "points": _points(first),
        "total": score.total,
        "round": rounds[-1].number,
    }
    if gains:
        gain, number = max(gains, key=lambda g: (g[0], -g[1]))
        if gain > 0:
            return _(
                "{name} went from {points} after round 1 to {total} after round {round}; the"
                " best round was round {best}, +{gain}.",
                best=number,
                gain=gain,
                **fields,
            )
    return _("{name} went from {points} after round 1 to {total} after round {round}.", **fields)


def story(rounds: Sequence[Round], *, room: int = MAX_DESCRIPTION) -> str:
    """The game's course in words: who won by how much and when the lead changed (for a
    solo game, the score from first round to last), then the final scores; at most ``room``
    characters, the lead changes told more briefly where they would not fit. In the
    reader's language."""
    if not rounds:
        return _("No round was played.")
    if len(rounds[-1].sheet.players) == 1:
        return _clip(_solo(rounds), room)
    history = leads(rounds)
    outcome, final = _outcome(rounds, history[-1]), _final(rounds)
    changes = len(history) - 1
    briefly = ""
    if changes > 1:
        briefly = _n(
            "The lead changed hands {n} time before that.",
            "The lead changed hands {n} times before that.",
            changes,
        )
    for middle in (_earlier(history[:-1]), briefly, ""):
        text = " ".join(part for part in (outcome, middle, final) if part)
        if len(text) <= room:
            return text
    return _clip(f"{outcome} {final}", room)


def replay_description(rounds: Sequence[Round]) -> str:
    """The replay GIF's alt text: what it shows, then :func:`story`."""
    if len(rounds[-1].sheet.players) == 1:
        what = _(
            "Replay of the game, one frame per round for {rounds} rounds: the environment as"
            " it grew, each round's new tile ringed, the totals so far.",
            rounds=len(rounds),
        )
    else:
        what = _(
            "Replay of the game, one frame per round for {rounds} rounds: every environment as"
            " it grew, each round's new tile ringed, the totals so far.",
            rounds=len(rounds),
        )
    return f"{what} {story(rounds, room=MAX_DESCRIPTION - len(what) - 1)}"


def chart_description(rounds: Sequence[Round]) -> str:
    """The score chart's alt text: what it shows, then :func:`story`."""
    if len(rounds[-1].sheet.players) == 1:
        what = _("Chart of the score if the game had ended after every round, bonuses in.")
    else:
        what = _(
            "Chart of each player's total score if the game had ended after every round,"
            " bonuses in."
        )
    return f"{what} {story(rounds, room=MAX_DESCRIPTION - len(what) - 1)}"


def game_pictures(record: GameRecord) -> list[Attachment]:
    """The replay GIF and the score chart of the game ``record`` holds, named and
    described; nothing when the record has no whole turn. Replays the game once for both;
    a few hundred milliseconds of CPU, for the picture worker."""
    rounds = replay_rounds(record)
    if not rounds:
        return []
    return [
        Attachment(REPLAY_FILE, render_replay(rounds), replay_description(rounds)),
        Attachment(CHART_FILE, render_score_chart(rounds), chart_description(rounds)),
    ]


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
