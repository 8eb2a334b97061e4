"""A finished game's results per seat, worked out once from its final state and move log.

The statistics and the league read these values (:class:`~bot.game.rows.SeatResult`) instead of
replaying games. Ranks follow the rules: the higher total first, ties broken by the nature
tokens left, players still tied sharing a rank. A turn's time is from the previous turn's
message (the commit of the turn before) to the player's committed move, leaving out the time
the player was away or in their quiet hours; turns a player did not choose (skipped, played by
the host or the computer) have none, and neither has the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.attendance.presence import Presence
from bot.game.messages import Player
from bot.game.rows import GameRow, MoveRow, SeatResult
from engine import (
    MOVE_SEPARATOR,
    GameState,
    Move,
    NatureWipe,
    ScoreSheet,
    parse_action,
    score_state,
)


def ranks(sheet: ScoreSheet) -> tuple[int, ...]:
    """Every seat's rank (1 first) by total, then nature tokens left; still tied, shared."""
    keys = [(p.total, p.nature_tokens) for p in sheet.players]
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def tokens_used(moves: Sequence[MoveRow], user_id: int) -> int:
    """The nature tokens a player spent: turns that split a pair, and nature-token wipes."""
    used = 0
    for move in moves:
        if move.user_id != user_id:
            continue
        if MOVE_SEPARATOR in move.action:
            used += Move.parse(move.action).free_choice
        elif isinstance(parse_action(move.action), NatureWipe):
            used += 1
    return used


def turn_seconds(
    moves: Sequence[MoveRow], user_id: int, presence: Presence | None = None
) -> tuple[float, ...]:
    """How long each turn the player chose took, from the previous turn's commit, without
    the time ``presence`` says they were away or in quiet hours."""
    counted = presence or Presence()
    seconds: list[float] = []
    previous: datetime | None = None
    for move in moves:
        if MOVE_SEPARATOR not in move.action:
            continue  # a wipe: the turn goes on
        if previous is not None and move.user_id == user_id and move.played_for is None:
            seconds.append(counted.counted_seconds(previous, move.created_at))
        previous = move.created_at
    return tuple(seconds)


def seat_results(
    game: GameRow,
    players: Sequence[Player],
    state: GameState,
    moves: Sequence[MoveRow],
    *,
    finished_at: datetime,
    rated: bool,
    season: int,
    presences: Mapping[int, Presence] | None = None,
) -> list[SeatResult]:
    """The results of every seat of a finished game (``state`` its final state, ``moves``
    its whole log; ``presences`` the players' time away and quiet hours, by user id)."""
    sheet = score_state(state, [p.name for p in players])
    places = ranks(sheet)
    results = []
    for seat, (player, score) in enumerate(zip(players, sheet.players, strict=True)):
        corridors = score.habitats
        results.append(
            SeatResult(
                game_id=game.id,
                seat=seat,
                guild_id=game.guild_id,
                user_id=player.user_id,
                name=player.name,
                computer=player.computer,
                handed_over=player.computer is not None and player.user_id > 0,
                players=len(players),
                cards=str(state.cards),
                score=score.total,
                rank=places[seat],
                nature_tokens=score.nature_tokens,
                tokens_used=tokens_used(moves, player.user_id),
                wildlife={w.value: n for w, n in score.wildlife.items()},
                habitats={h.value: n for h, n in corridors.items()},
                corridor=max(corridors.values(), default=0),
                turn_seconds=turn_seconds(
                    moves, player.user_id, (presences or {}).get(player.user_id)
                ),
                rated=rated,
                season=season,
                finished_at=finished_at,
            )
        )
    return results


def may_be_rated(players: Sequence[Player]) -> bool:
    """Whether a finished game with these seats can count in a league.

    It needs more than one seat and no person's seat handed to the computer; games the host
    ended early never finish, so they are never asked about.
    """
    if len(players) < 2:
        return False
    return not any(p.computer is not None and p.user_id > 0 for p in players)
