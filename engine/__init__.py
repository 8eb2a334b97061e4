"""The rules of Cascadia: pure, synchronous and deterministic from a seed.

The renderer and the bot only ask this package; it imports nothing but the standard library.
A whole turn after any wipes is one :class:`Move` (take, tile, token), read with
:meth:`Move.parse` and written with ``str(move)``; single steps are the actions of
:mod:`engine.actions`, applied by :func:`apply`.
"""

from engine.achievements import (
    ACHIEVEMENT_IDS,
    ACHIEVEMENTS,
    SCENARIOS,
    Achievement,
    Condition,
    Scenario,
    ScenarioCheck,
    SeatAchievements,
    check_scenario,
    game_achievements,
    scenarios_met,
    seat_achievements,
    state_achievements,
)
from engine.actions import Action, NatureWipe, PlaceTile, PlaceToken, Take, WipeThree, parse_action
from engine.components import (
    MAX_PLAYERS,
    TURNS_PER_PLAYER,
    CardLetter,
    CardSet,
    Habitat,
    Tile,
    Variant,
    Wildlife,
)
from engine.daily import DailyDeal, Day, daily_deal, daily_game
from engine.environment import Environment, PlacedTile
from engine.errors import CascadiaError, IllegalAction, InvalidInput, Reason
from engine.game import (
    GameState,
    Phase,
    PlayerState,
    apply,
    apply_all,
    can_wipe_three,
    legal_actions,
    new_game,
    tile_positions,
)
from engine.hexes import Direction, Hex
from engine.move import MOVE_SEPARATOR, Move, play_turn, turn_actions
from engine.players import POLICIES, Budget, choose, play_game, ranked_moves
from engine.rounds import Round, play_rounds, replay_rounds
from engine.scorer import MoveScorer, PositionGain, ScoredMove, TargetGain, own_score, scored_moves
from engine.scoring.sheet import PlayerScore, ScoreSheet, final_scores
from engine.serialize import (
    GameRecord,
    Progress,
    progress_from_json,
    public_view,
    record_for,
    state_from_json,
    state_to_json,
)
from engine.summary import score_state, seat_score, state_table
from engine.text import INVISIBLE_CODE_POINTS

__all__ = [
    "ACHIEVEMENTS",
    "ACHIEVEMENT_IDS",
    "INVISIBLE_CODE_POINTS",
    "MAX_PLAYERS",
    "MOVE_SEPARATOR",
    "POLICIES",
    "SCENARIOS",
    "TURNS_PER_PLAYER",
    "Achievement",
    "Action",
    "Budget",
    "CardLetter",
    "CardSet",
    "CascadiaError",
    "Condition",
    "DailyDeal",
    "Day",
    "Direction",
    "Environment",
    "GameRecord",
    "GameState",
    "Habitat",
    "Hex",
    "IllegalAction",
    "InvalidInput",
    "Move",
    "MoveScorer",
    "NatureWipe",
    "Phase",
    "PlaceTile",
    "PlaceToken",
    "PlacedTile",
    "PlayerScore",
    "PlayerState",
    "PositionGain",
    "Progress",
    "Reason",
    "Round",
    "Scenario",
    "ScenarioCheck",
    "ScoreSheet",
    "ScoredMove",
    "SeatAchievements",
    "Take",
    "TargetGain",
    "Tile",
    "Variant",
    "Wildlife",
    "WipeThree",
    "apply",
    "apply_all",
    "can_wipe_three",
    "check_scenario",
    "choose",
    "daily_deal",
    "daily_game",
    "final_scores",
    "game_achievements",
    "legal_actions",
    "new_game",
    "own_score",
    "parse_action",
    "play_game",
    "play_rounds",
    "play_turn",
    "progress_from_json",
    "public_view",
    "ranked_moves",
    "record_for",
    "replay_rounds",
    "scenarios_met",
    "score_state",
    "scored_moves",
    "seat_achievements",
    "seat_score",
    "state_achievements",
    "state_from_json",
    "state_table",
    "state_to_json",
    "tile_positions",
    "turn_actions",
]
