"""The game's texts in each language: the help, the start, a turn, the recap since a player's
last turn, the end, and the refusals (answered in the person's language, logged in English)."""

from __future__ import annotations

import logging
import random
import re
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.game.buttons import AGAIN_LABEL
from bot.game.errors import (
    BotError,
    HintUsed,
    LobbyFull,
    MissingPermissions,
    NotHost,
    NotInGame,
    NotYourTurn,
)
from bot.game.hooks import AwayPeriod, Call
from bot.game.messages import (
    HELP,
    Player,
    describe_turn,
    game_over_message,
    help_message,
    scenario_text,
    start_message,
    status_message,
    turn_message,
)
from bot.game.outbox import Announcement
from bot.game.records import move_text
from bot.game.replays import story
from bot.game.rows import MoveRow
from bot.game.service import GameService
from bot.game.since import since_last_turn
from bot.shell import errors
from bot.shell.errors import user_message
from bot.stores import Store
from engine import (
    SCENARIOS,
    Action,
    GameState,
    IllegalAction,
    Reason,
    ScoreSheet,
    new_game,
    play_turn,
    turn_actions,
)
from engine.scoring.sheet import final_scores
from i18n import LANGUAGES, N_, PSEUDO, _, speaking, translate
from tests.bot.game.test_service import CHANNEL, GUILD, _any_turn
from tests.bot.game.test_store import START

CLOCK_START = START

DISCORD_MESSAGE_LIMIT = 2000


@pytest.mark.parametrize("locale", [None, "en-US", "pt-BR", "de", "fr"])
def test_the_help_fits_one_message_in_every_language(locale: str | None) -> None:
    assert len(help_message(locale)) <= DISCORD_MESSAGE_LIMIT


def test_the_help_is_german_for_german_and_french_for_french() -> None:
    assert help_message() == HELP
    assert help_message("en-GB") == HELP
    assert help_message("de").startswith("**So spielt man Cascadia.**")
    assert help_message("fr").startswith("**Comment jouer à Cascadia.**")
    assert help_message(PSEUDO).startswith("⟦")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_keeps_every_command_and_button(lang: str) -> None:
    def commands(text: str) -> list[str]:
        return [word for word in text.split("`") if word.startswith("/cascadia")]

    def buttons(text: str) -> set[str]:
        return set(text.split("**")[1::2])

    assert commands(help_message(lang)) == commands(HELP)
    # The help names the buttons as they read in the language: the words the buttons are
    # labelled with, none left in English.
    shown = {translate(word, lang) for word in ("Play", "Back", "Confirm", "Cancel", "Next")}
    assert shown <= buttons(help_message(lang))
    english = {"Play", "Pair", "Where", "Next", "Token", "Check", "Confirm", "Back", "Cancel"}
    assert not english & buttons(help_message(lang))


ADA, BOB = Player(101, "Ada"), Player(102, "Bob")
AWAY = AwayPeriod(
    start=datetime(2026, 12, 1, tzinfo=UTC), end=datetime(2026, 12, 24, tzinfo=UTC), note=None
)
CALL = Call(ping=True, deadline=datetime(2026, 12, 5, tzinfo=UTC), away=AWAY)


def test_the_start_message_in_german_names_the_cards_as_the_german_edition() -> None:
    state = new_game(players=2, seed=5, cards="ABCDA")
    text = start_message(state, (ADA, BOB), CALL, locale="de")
    assert text.startswith("Die Partie beginnt! Mitspielende: **Ada**, **Bob**.")
    assert "Wertungskarten: Bär A · Hirsch B · Lachs C · Bussard D · Fuchs A." in text
    assert "du bist am Zug: Runde 1 von 20 · Zug 1 von 40 · noch " in text
    assert " · zieht bis <t:" in text
    assert "ist abwesend bis <t:" in text
    assert text.endswith("`/cascadia help` erklärt die Regeln.")


def test_the_start_message_in_french_names_the_cards_as_the_french_edition() -> None:
    state = new_game(players=2, seed=5, cards="ABCDA")
    text = start_message(state, (ADA, BOB), locale="fr")
    assert text.startswith("La partie commence ! Joueurs : **Ada**, **Bob**.")
    assert "Cartes : Ours A · Wapiti B · Saumon C · Buse D · Renard A." in text
    assert "est ton tour : manche 1 sur 20 · tour 1 sur 40 · " in text
    assert text.endswith("`/cascadia help` explique les règles.")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_start_message_keeps_its_shape_and_mentions(locale: str) -> None:
    state = new_game(players=2, seed=5, cards="family")
    english = start_message(state, (ADA, BOB), CALL)
    translated = start_message(state, (ADA, BOB), CALL, locale=locale)
    assert translated != english
    assert translated.count("\n") == english.count("\n")
    assert re.findall(r"<[@t][^>]*>", translated) == re.findall(r"<[@t][^>]*>", english)
    assert "family" not in translated.lower()


def test_a_solo_scenario_start_reads_its_target_in_german() -> None:
    scenario = SCENARIOS[0]
    state = new_game(players=1, seed=5, cards=scenario.cards)
    text = start_message(state, (ADA,), locale="de")
    assert text.startswith("Die Partie beginnt (Solo-Regeln)!")
    assert f"**Solo-Szenario {scenario.number}**: {scenario.target} Punkte oder mehr" in text


def test_the_pseudo_locale_wraps_every_word_of_the_start_message() -> None:
    state = new_game(players=2, seed=5, cards="ABCDA")
    text = start_message(state, (ADA, BOB), locale=PSEUDO)
    unwrapped = ""
    while unwrapped != text:  # inside out: a text may be filled into another
        unwrapped, text = text, re.sub(r"⟦[^⟦⟧]*⟧", "", text)
    assert re.sub(r"[\s·.,!;:A-D]|\*\*\w+\*\*|<@\d+>", "", unwrapped) == ""


# --- the turn, the end and the refusals ------------------------------------------------------


def _keystone_turn(state: GameState) -> tuple[GameState, tuple[Action, ...]]:
    """A turn that puts a keystone tile and its own species on it (earning a nature token)."""
    pair = next(
        slot
        for slot, (tile, token) in enumerate(
            zip(state.display_tiles, state.display_tokens, strict=True), start=1
        )
        if tile is not None and tile.keystone and token in tile.wildlife
    )
    at = state.current_player.environment.frontier()[0]
    after = play_turn(state, pair=pair, tile_at=at, rotation=0, token_at=at)
    return after, tuple(turn_actions(pair, at, 0, at))


def _sheet(state: GameState) -> ScoreSheet:
    players = [
        (p.name, s.environment, s.nature_tokens)
        for p, s in zip((ADA, BOB), state.seats, strict=True)
    ]
    return final_scores(state.cards, players)


def test_a_turn_message_in_german_uses_the_editions_words() -> None:
    before = new_game(players=2, seed=14, cards="A")
    after, actions = _keystone_turn(before)
    with speaking("de"):
        text = turn_message(before, after, actions, (ADA, BOB))
    first, second = text.splitlines()
    assert first.startswith("**Ada** nahm Paar 2 — ein Fluss-Schlüsselplättchen (Bussard) und ")
    assert first.endswith("setzte den Bussard darauf und bekam dafür einen Zapfen.")
    assert second == "<@102>, du bist am Zug: Runde 1 von 20 · Zug 2 von 40 · noch 38 Plättchen."


def test_a_turn_message_in_french_uses_the_editions_words() -> None:
    before = new_game(players=2, seed=14, cards="A")
    after, actions = _keystone_turn(before)
    with speaking("fr"):
        text = turn_message(before, after, actions, (ADA, BOB))
        at = before.current_player.environment.frontier()[0]
        returned = describe_turn(before, turn_actions(1, at, 0, None), ADA)
    assert text.startswith("**Ada** a pris le lot 2 — une tuile Habitat Idéal rivière (buse) et ")
    assert "y a placé la buse, gagnant un jeton Nature." in text
    assert text.endswith("est ton tour : manche 1 sur 20 · tour 2 sur 40 · 38 tuiles restantes.")
    assert returned.startswith("**Ada** a pris le lot 1 — une tuile prairie-marais (renard, buse)")
    assert returned.endswith("et a remis le wapiti dans le sac.")


@pytest.mark.parametrize(
    ("locale", "over", "ranked", "shared"),
    [
        ("de", "**Die Partie ist vorbei.**", "1. **Ada**: 10 Punkte (Tiere 0, Landschaften 10,"
         " Zapfen 0)", "Geteilter Sieg: **Ada**, **Bob**!"),
        ("fr", "**La partie est terminée.**", "1. **Ada** : 10 points (faune 0, habitats 10,"
         " jetons Nature 0)", "Victoire partagée : **Ada**, **Bob** !"),
    ],
)  # fmt: skip
def test_the_final_message_ranks_in_the_game_s_language(
    locale: str, over: str, ranked: str, shared: str
) -> None:
    state = new_game(players=2, seed=5, cards="A")
    with speaking(locale):
        text = game_over_message("…", _sheet(state), (ADA, BOB), pinged={101})
    rows = [ranked, ranked.replace("Ada", "Bob")]
    assert text.splitlines() == ["…", f"{over} <@101> **Bob**", *rows, shared]


def test_the_recap_since_a_player_s_last_turn_reads_in_german() -> None:
    before = new_game(players=2, seed=14, cards="A")
    after, actions = _keystone_turn(before)
    move = MoveRow(1, 1, ADA.user_id, move_text(list(actions)), datetime(2026, 12, 1, tzinfo=UTC))
    with speaking("de"):
        since = since_last_turn(after, [move], (ADA, BOB))
        assert since is not None
        text = since.text()
    head, line, standings = text.splitlines()
    assert head == "Seit Beginn der Partie:"
    assert line.startswith("**Ada** nahm Fluss und einen Bussard: ")
    assert line.endswith(", +1 Zapfen")
    assert standings.startswith("Stand, wenn die Partie jetzt endete, Boni eingerechnet: **")


@pytest.mark.parametrize(
    ("error", "german", "french"),
    [
        (NotHost(N_("start the game")), "Nur der Gastgeber kann die Partie starten.",
         "hôte peut lancer la partie."),
        (NotYourTurn("Ada"), "Du bist nicht am Zug, sondern Ada.",
         "est pas ton tour : c"),
        (NotInGame("Bob is"), "Bob spielt in dieser Partie nicht mit.",
         "Bob ne participe pas à cette partie."),
        (MissingPermissions(["Attach Files"]), "Mir fehlt in diesem Kanal die Berechtigung"
         " **Dateien anhängen**", "Il me manque la permission **Joindre des fichiers**"),
        (LobbyFull(1, 4), "Die Lobby ist voll: 4 Mitspielende.",
         "La table est complète : 4 joueurs."),
        (IllegalAction(Reason.GAME_OVER, "the game is over"),
         "Nicht erlaubt: Die Partie ist vorbei.", "Pas permis : la partie est terminée."),
    ],
)  # fmt: skip
def test_a_refusal_answers_in_the_person_s_language_and_logs_english(
    error: Exception, german: str, french: str
) -> None:
    english = user_message(error)
    with speaking("de"):
        assert german in (user_message(error) or "")
    with speaking("fr"):
        assert french in (user_message(error) or "")
    if isinstance(error, BotError):
        assert str(error) == english, "the log reads the English"


def test_a_refusal_made_in_one_language_answers_in_the_reader_s() -> None:
    with speaking("fr"):
        error = HintUsed(N_("It was for the display before the wipe."))
    with speaking("de"):
        assert error.message() == (
            "Du hattest deinen Tipp für diesen Zug schon: einer pro Zug. Er galt der Auslage vor"
            " dem Abräumen."
        )
    assert str(error).startswith("You had your hint for this turn")


def test_the_pseudo_locale_wraps_every_word_of_a_turn_and_it_fits_a_message() -> None:
    before = new_game(players=4, seed=14, cards="A")
    after, actions = _keystone_turn(before)
    players = (ADA, BOB, Player(103, "Cy"), Player(104, "Di"))
    with speaking(PSEUDO):
        text = turn_message(before, after, actions, players)
        status = status_message(after, players, turn_started_at=datetime(2026, 12, 1, tzinfo=UTC))
        label = _(AGAIN_LABEL)
    for words in (text, status):
        assert len(words) <= DISCORD_MESSAGE_LIMIT
        unwrapped = ""
        while unwrapped != words:
            unwrapped, words = words, re.sub(r"⟦[^⟦⟧]*⟧", "", words)
        assert re.sub(r"[\s·.,!;:+▶`\-\d()]|\*\*\w+\*\*|<@\d+>|<t:\d+:R>", "", unwrapped) == ""
    assert len(label) <= 80


async def test_a_german_game_posts_its_turns_in_german(service: GameService, store: Store) -> None:
    await store.note_guild_locale(GUILD, "de")
    opened = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA.user_id, name="Ada", cards="A"
    )
    await service.lobby.join(opened.game.id, user_id=BOB.user_id, name="Bob")
    with speaking("fr"):  # the person who plays reads French; the channel reads the game's
        await service.lobby.start(opened.game.id, user_id=ADA.user_id)
        table = await service.game(CHANNEL)
        mover = table.players[table.require_state().current].user_id
        await service.turns.play(CHANNEL, user_id=mover, move=_any_turn(table, random.Random(3)))
    rows = [Announcement.from_row(row) for row in await store.pending()]
    turn = next(a for a in rows if a.kind == "turn")
    assert turn.locale == "de"
    assert turn.text.startswith("Seit Beginn der Partie:\n**Ada** nahm ")
    assert "du bist am Zug: Runde 1 von 20 · Zug 2 von 40" in turn.text


def test_the_replay_s_story_is_told_in_the_reader_s_language() -> None:
    from tests.bot.game.test_replays import rounds_of

    rounds = rounds_of([{"ada": 3, "bob": 6}, {"ada": 12, "bob": 10}, {"ada": 20, "bob": 16}])
    with speaking("de"):
        german = story(rounds)
    with speaking("fr"):
        french = story(rounds)
    assert german == (
        "ada führte ab Runde 2 und gewann (Vorsprung: 4 Punkte). Davor führten: bob in Runde 1."
        " Endstand: ada 20, bob 16."
    )
    assert french.startswith("ada a mené depuis la manche 2 et a gagné avec 4 points d")


def test_a_scenario_s_conditions_are_told_in_the_reader_s_language() -> None:
    scenario = next(s for s in SCENARIOS if s.extras)
    with speaking(PSEUDO):
        text = scenario_text(scenario)
    assert all(f"⟦{condition.words}" in text for condition in scenario.extras)


async def test_a_refusal_is_answered_in_the_person_s_language_and_logged_in_english(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sent: list[str] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, text: str, *, ephemeral: bool) -> None:
            sent.append(text)

    interaction = SimpleNamespace(
        command=None, data={}, id=1, user=SimpleNamespace(id=2), channel_id=3, response=Response()
    )
    caplog.set_level(logging.INFO, logger="bot.shell.errors")
    with speaking("de"):
        await errors.report(interaction, NotHost(N_("start the game")))  # type: ignore[arg-type]
    assert sent == ["Nur der Gastgeber kann die Partie starten."]
    assert "Only the host can start the game." in caplog.text
