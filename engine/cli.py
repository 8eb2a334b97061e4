"""The ``python -m engine`` command line: one subcommand per job.

Each subcommand is a function ``run(args) -> exit status`` plus one :class:`Command` entry in
:data:`COMMANDS`. Bad input (an :class:`~engine.errors.InvalidInput`, a file that cannot be
read or written) is reported as one line on standard error with exit status 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.achievements import game_achievements
from engine.components import MAX_PLAYERS
from engine.daily import Day, daily_deal
from engine.errors import CascadiaError, InvalidInput
from engine.players import Budget, play_game, policy_names, random_game
from engine.rounds import replay_rounds
from engine.scoring.sheet import PlayerScore, final_scores
from engine.serialize import GameRecord, decode_json, record_for
from engine.summary import score_state, state_table
from engine.table import read_table

T = TypeVar("T")

EXIT_BAD_INPUT = 2
"""The exit status for input that cannot be used (as argparse uses for bad arguments)."""


@dataclass(frozen=True, slots=True)
class Argument:
    """One ``add_argument`` call: its names or flags and its keyword options."""

    flags: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


def argument(*flags: str, **options: Any) -> Argument:
    """An :class:`Argument`, written like ``parser.add_argument(...)``."""
    return Argument(flags, options)


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand: its name, one-line help, arguments and the function that runs it."""

    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    arguments: tuple[Argument, ...] = ()


def read_input(path: str) -> str:
    """The text of the file at ``path``, or of standard input for ``-``."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                data = file.read()
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(f"{path} is not UTF-8 text") from None


def say(text: str) -> None:
    """Print one result to standard output. Output that cannot take it (a full disk, a
    closed pipe) is reported like any file that cannot be written."""
    try:
        print(text, flush=True)
    except OSError as error:
        # What stays in the buffer would fail again, with a traceback, as Python exits.
        with contextlib.suppress(OSError, ValueError):  # not a real file (a test's capture)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        raise InvalidInput(f"cannot write standard output: {error.strerror or error}") from None


def run_score(args: argparse.Namespace) -> int:
    """``score FILE``: print the score sheet of a table-json document as JSON."""
    cards, players = read_table(read_input(args.file))
    sheet = final_scores(cards, players)
    say(json.dumps(sheet.to_json(), indent=2))
    return 0


def run_achievements(args: argparse.Namespace) -> int:
    """``achievements FILE``: print every player's achievement ids and, solo, the scenarios
    met, for a table-json document."""
    cards, players = read_table(read_input(args.file))
    seats = game_achievements(cards, players)
    say(json.dumps({"players": [seat.to_json() for seat in seats]}, indent=2))
    return 0


def _replayed(replay: Callable[[GameRecord], T], record: GameRecord) -> T:
    """``replay(record)``, a rule the record breaks reported as bad input."""
    try:
        return replay(record)
    except CascadiaError as error:
        raise InvalidInput(f"the record does not replay: {error}") from None


def run_replay(args: argparse.Namespace) -> int:
    """``replay RECORD``: replay a game record and print its score sheet as JSON (with
    ``--rounds``, every player's total after each round; see :mod:`engine.rounds`).

    Takes the engine's record, or a bot export that carries one under ``record``.
    """
    data = decode_json(read_input(args.record))
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        data = data["record"]
    if not isinstance(data, dict):
        raise InvalidInput(f"{args.record} is not a game record")
    record = GameRecord.from_json(data)
    if args.table and args.rounds:
        raise InvalidInput("--table and --rounds cannot be combined")
    if args.rounds:
        rounds = _replayed(replay_rounds, record)
        say(json.dumps([played.to_json() for played in rounds], indent=2))
        return 0
    state = _replayed(GameRecord.replay, record)
    if args.table:
        say(json.dumps(state_table(state, record.names or None), indent=2))
        return 0
    sheet = score_state(state, record.names or None)
    say(json.dumps({**sheet.to_json(), "finished": state.is_over}, indent=2))
    return 0


def _player_count(text: str) -> int:
    if not text.isdecimal() or not 1 <= int(text) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"players must be 1-{MAX_PLAYERS}, not {text!r}")
    return int(text)


def _positive(text: str) -> int:
    if not text.isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    """A time budget: a finite number of seconds above 0 (``nan`` would never run out)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {text!r}")
    return value


def run_simulate(args: argparse.Namespace) -> int:
    """``simulate``: play random legal games to the end; one score sheet per line (JSON)."""
    for seed in range(args.seed, args.seed + args.games):
        state, actions = random_game(players=args.players, seed=seed, cards=args.cards)
        sheet = score_state(state)
        line = {"seed": seed, "cards": str(state.cards), "actions": len(actions)}
        say(json.dumps({**line, **sheet.to_json()}))
    return 0


def base_score(score: PlayerScore) -> int:
    """Wildlife, largest corridors and nature tokens: the score without any habitat bonus."""
    return score.wildlife_total + sum(score.habitats.values()) + score.nature_tokens


def _confidence(values: list[float]) -> float:
    """Half the width of a 95 % confidence interval of the mean (normal approximation)."""
    if len(values) < 2:
        return float("nan")
    spread: float = statistics.stdev(values)
    return 1.96 * spread / math.sqrt(len(values))


def _policy_summary(name: str, lines: list[dict[str, Any]]) -> str:
    """One policy's line: mean base and total score with 95 % intervals (the game's mean over
    the policy's seats is the unit), per-move p50 and p99, and the score split."""
    base, total, seconds = [], [], []
    split: dict[str, list[float]] = {}
    for line in lines:
        seats = [i for i, policy in enumerate(line["policies"]) if policy == name]
        if not seats:
            continue
        scores = [line["scores"][i] for i in seats]
        base.append(statistics.fmean(s["base"] for s in scores))
        total.append(statistics.fmean(s["total"] for s in scores))
        seconds += [secs for seat, secs in line["seconds"] if seat in seats]
        for s in scores:
            parts = {**s["wildlife"], "corridors": sum(s["habitats"].values())}
            parts["nature"] = s["nature_tokens"]
            for part, points in parts.items():
                split.setdefault(part, []).append(points)
    if not base:
        return f"{name}: no seats"
    quantiles = statistics.quantiles(seconds, n=100) if len(seconds) > 1 else [0.0] * 99
    parts_text = " ".join(f"{part} {statistics.fmean(v):.1f}" for part, v in split.items())
    return (
        f"{name}: base {statistics.fmean(base):.2f} +- {_confidence(base):.2f}"
        f" (total {statistics.fmean(total):.2f} +- {_confidence(total):.2f}) over {len(base)}"
        f" games; per move p50 {statistics.median(seconds) * 1e3:.1f} ms"
        f" p99 {quantiles[98] * 1e3:.1f} ms; {parts_text}"
    )


def _selfplay_lines(
    args: argparse.Namespace, policies: Sequence[str], budget: Budget
) -> Iterator[dict[str, Any]]:
    """One line per game as ``selfplay`` writes it, played when asked for."""
    for game in range(args.games):
        seed = args.seed + game
        seats = [policies[(seat + game) % len(policies)] for seat in range(args.players)]
        played = play_game(
            players=args.players,
            seed=seed,
            cards=args.cards,
            policies=seats,
            budget=budget,
            clock=time.perf_counter,
        )
        names = [f"{seat + 1} {policy}" for seat, policy in enumerate(seats)]
        sheet = score_state(played.state, names)
        yield {
            "game": game,
            "seed": seed,
            "players": args.players,
            "cards": str(played.state.cards),
            "policies": seats,
            "record": record_for(played.state, played.actions, names).to_json(),
            "seconds": [[seat, round(secs, 6)] for seat, secs in played.seconds],
            "scores": [{**score.to_json(), "base": base_score(score)} for score in sheet.players],
        }


def run_selfplay(args: argparse.Namespace) -> int:
    """``selfplay``: computer players play whole games; one JSON line per game to ``--out``
    (the replayable record, each decision's seconds, the scores), a summary per policy.

    A file that cannot be written, at the start or after some games (a full disk), is one
    line; the file keeps the lines of the games written whole, without a torn last line."""
    policies = policy_names(args.policy)
    budget = Budget(seconds=args.seconds, clock=time.monotonic, rollouts=args.rollouts)
    lines: list[dict[str, Any]] = []
    try:
        out = open(args.out, "wb")  # noqa: SIM115 - written game by game
    except OSError as error:
        raise InvalidInput(f"cannot write {args.out}: {error.strerror or error}") from None
    whole = 0  # bytes of the lines written whole
    try:
        with out:
            for line in _selfplay_lines(args, policies, budget):
                data = (json.dumps(line) + "\n").encode()
                out.write(data)
                out.flush()
                whole += len(data)
                lines.append(line)
    except OSError as error:
        with contextlib.suppress(OSError):  # not every file can be cut (/dev/full)
            os.truncate(args.out, whole)
        games = "1 game" if len(lines) == 1 else f"{len(lines)} games"
        kept = f"; it keeps the {games} written before" if lines else ""
        raise InvalidInput(f"cannot write {args.out}: {error.strerror or error}{kept}") from None
    for name in dict.fromkeys(policies):
        say(_policy_summary(name, lines))
    return 0


def today() -> Day:
    """Today's date in UTC: the day whose deal ``daily`` prints without ``--date``."""
    now = datetime.datetime.now(datetime.UTC)
    return Day(now.year, now.month, now.day)


def run_daily(args: argparse.Namespace) -> int:
    """``daily``: print the day's deal as JSON; with ``--play``, a computer player plays the
    day's game and the deal is printed with its final score sheet (the ``score`` shape)."""
    day = Day.parse(args.date) if args.date is not None else today()
    deal = daily_deal(day)
    if args.play is None:
        say(json.dumps(deal.to_json(), indent=2))
        return 0
    names = policy_names(args.play)
    if len(names) != 1:
        raise InvalidInput(f"the day's game has one player: name one policy, not {args.play!r}")
    (policy,) = names
    played = play_game(
        players=1,
        seed=deal.seed,
        cards=deal.cards,
        policies=[policy],
        budget=Budget(rollouts=args.rollouts),
    )
    sheet = score_state(played.state, [policy])
    say(json.dumps({**deal.to_json(), "policy": policy, **sheet.to_json()}, indent=2))
    return 0


COMMANDS: tuple[Command, ...] = (
    Command(
        "score",
        "print the final scores of a table-json file",
        run_score,
        (argument("file", metavar="FILE", help="a table-json file, or - for standard input"),),
    ),
    Command(
        "achievements",
        "print each player's achievements (and solo scenarios met) of a table-json file",
        run_achievements,
        (argument("file", metavar="FILE", help="a table-json file, or - for standard input"),),
    ),
    Command(
        "replay",
        "replay a game record and print its score sheet",
        run_replay,
        (
            argument("record", metavar="RECORD", help="a game record (JSON), or - for stdin"),
            argument(
                "--table",
                action="store_true",
                help="print the environments in the table-json input shape instead",
            ),
            argument(
                "--rounds",
                action="store_true",
                help='print each round\'s totals instead: [{"round": n, "scores": {name: total}}]',
            ),
        ),
    ),
    Command(
        "simulate",
        "play random legal games and print each final score sheet",
        run_simulate,
        (
            argument("--players", type=_player_count, required=True, help="1-4"),
            argument("--seed", type=int, required=True, help="seed of the first game"),
            argument("--cards", default="random", help="ABCDA, A, family, intermediate, random"),
            argument("--games", type=_positive, default=1, help="how many games (seeds S, S+1...)"),
        ),
    ),
    Command(
        "selfplay",
        "computer players play whole games; one JSON line per game, a summary per policy",
        run_selfplay,
        (
            argument("--players", type=_player_count, required=True, help="1-4"),
            argument("--cards", default="random", help="ABCDA, A, family, intermediate, random"),
            argument(
                "--policy",
                required=True,
                help="policies by seat, comma-separated (random, greedy, opportunity, fast,"
                " strong); game g seats them from the (g mod count)-th on",
            ),
            argument("--games", type=_positive, default=1, help="how many games (seeds S, S+1...)"),
            argument("--seed", type=int, required=True, help="seed of the first game"),
            argument("--out", required=True, metavar="FILE.jsonl", help="where the lines go"),
            argument("--seconds", type=_seconds, default=None, help="strong: seconds per move"),
            argument("--rollouts", type=_positive, default=None, help="strong: rollouts per move"),
        ),
    ),
    Command(
        "daily",
        "print the day's solo deal as JSON; --play plays it and adds the final score sheet",
        run_daily,
        (
            argument(
                "--date", default=None, metavar="YYYY-MM-DD", help="the day (default: today, UTC)"
            ),
            argument(
                "--play", default=None, metavar="POLICY", help="random, greedy, fast or strong"
            ),
            argument(
                "--rollouts",
                type=_positive,
                default=None,
                help="strong: rollouts per move (the same play on every machine)",
            ),
        ),
    ),
)
"""Every subcommand, in help order."""


def build_parser(commands: Sequence[Command] = COMMANDS) -> argparse.ArgumentParser:
    """The argument parser with one subparser per command."""
    parser = argparse.ArgumentParser(prog="python -m engine", description="Cascadia engine tools.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in commands:
        sub = subparsers.add_parser(command.name, help=command.help, description=command.help)
        for arg in command.arguments:
            sub.add_argument(*arg.flags, **arg.options)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except InvalidInput as error:
        message = " ".join(str(error).split())
        print(f"error: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return status
