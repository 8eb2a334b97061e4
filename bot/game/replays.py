"""What a finished game leaves behind: its replay GIF and score chart, with their alt text.

:func:`game_pictures` draws both from the game's record; it is CPU work for the picture
worker (see :mod:`bot.game.pictures`), never the event loop. The descriptions say in words
what the pictures show, for screen readers: who won, by how much, and when the lead
changed. A round's leader is whoever would win if the game ended after it (the highest
total, then the most nature tokens, as the score sheet ranks), so the last round's leaders
are the winners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from bot.game.captions import MAX_DESCRIPTION, Attachment
from engine import TURNS_PER_PLAYER, GameRecord, Round, replay_rounds
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
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _points(number: int) -> str:
    return f"{number} point{'' if number == 1 else 's'}"


def _span(lead: Lead) -> str:
    if lead.first == lead.last:
        return f"round {lead.first}"
    return f"rounds {lead.first}-{lead.last}"


def _outcome(rounds: Sequence[Round], last_lead: Lead) -> str:
    """The sentence on the end of the game: who won (or was ahead when it was ended), by how
    much, and since when they led."""
    sheet = rounds[-1].sheet
    finished = rounds[-1].state.is_over
    winners = list(last_lead.leaders)
    if last_lead.first == 1:
        since = "led from the first round"
    elif last_lead.first == rounds[-1].number:
        took = "drew level" if len(winners) > 1 else "took the lead"
        since = f"{took} in round {last_lead.first}"
    elif len(winners) > 1:
        since = f"were level from round {last_lead.first}"
    else:
        since = f"led from round {last_lead.first}"
    best = sheet.player(winners[0]).total
    if len(winners) > 1:
        end = "shared the win" if finished else "were level when the game was ended"
        return f"{_names(winners)} {since} and {end} on {_points(best)}."
    others = [s for s in sheet.players if s.name != winners[0]]
    runner_up = max(s.total for s in others)
    if runner_up == best:
        level = [s.name for s in others if s.total == best]
        how = f"on nature tokens, level on {_points(best)} with {_names(level)}"
    else:
        how = f"by {_points(best - runner_up)}"
    if finished:
        return f"{winners[0]} {since} and won {how}."
    return f"{winners[0]} {since} and was ahead {how} when the game was ended."


def _earlier(history: Sequence[Lead]) -> str:
    """The leads before the last one, each with its rounds."""
    if not history:
        return ""
    parts = [
        f"{_names(lead.leaders)}{' together' if len(lead.leaders) > 1 else ''} in {_span(lead)}"
        for lead in history
    ]
    return "Before that the lead was held by " + "; ".join(parts) + "."


def _final(rounds: Sequence[Round]) -> str:
    sheet = rounds[-1].sheet
    ranked = ", ".join(f"{name} {sheet.player(name).total}" for name in sheet.ranking)
    if rounds[-1].state.is_over:
        return f"Final scores: {ranked}."
    return f"Scores after round {rounds[-1].number} of {TURNS_PER_PLAYER}: {ranked}."


def _solo(rounds: Sequence[Round]) -> str:
    score = rounds[-1].sheet.players[0]
    first = rounds[0].sheet.players[0].total
    gains = [
        (played.sheet.players[0].total - before.sheet.players[0].total, played.number)
        for before, played in pairwise(rounds)
    ]
    text = f"{score.name} went from {_points(first)} after round 1 to {score.total}"
    text += f" after round {rounds[-1].number}"
    if gains:
        gain, number = max(gains, key=lambda g: (g[0], -g[1]))
        if gain > 0:
            text += f"; the best round was round {number}, +{gain}"
    return text + "."


def story(rounds: Sequence[Round], *, room: int = MAX_DESCRIPTION) -> str:
    """The game's course in words: who won by how much and when the lead changed (for a
    solo game, the score from first round to last), then the final scores; at most ``room``
    characters, the lead changes told more briefly where they would not fit."""
    if not rounds:
        return "No round was played."
    if len(rounds[-1].sheet.players) == 1:
        return _clip(_solo(rounds), room)
    history = leads(rounds)
    outcome, final = _outcome(rounds, history[-1]), _final(rounds)
    changes = len(history) - 1
    briefly = f"The lead changed hands {changes} times before that." if changes > 1 else ""
    for middle in (_earlier(history[:-1]), briefly, ""):
        text = " ".join(part for part in (outcome, middle, final) if part)
        if len(text) <= room:
            return text
    return _clip(f"{outcome} {final}", room)


def replay_description(rounds: Sequence[Round]) -> str:
    """The replay GIF's alt text: what it shows, then :func:`story`."""
    envs = "the environment" if len(rounds[-1].sheet.players) == 1 else "every environment"
    what = (
        f"Replay of the game, one frame per round for {len(rounds)} rounds: {envs} as it"
        " grew, each round's new tile ringed, the totals so far."
    )
    return f"{what} {story(rounds, room=MAX_DESCRIPTION - len(what) - 1)}"


def chart_description(rounds: Sequence[Round]) -> str:
    """The score chart's alt text: what it shows, then :func:`story`."""
    whose = "the" if len(rounds[-1].sheet.players) == 1 else "each player's total"
    what = f"Chart of {whose} score if the game had ended after every round, bonuses in."
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
