"""The turn panel in the reader's language: its steps, buttons and refusals in German and
French, and, in the pseudo-locale's longer words, every label within Discord's limits."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator

import discord
import pytest

from bot.game.service import GameService, LoadedGame
from bot.panel.cog import panel_text, panel_view
from bot.panel.draft import PAGE_SIZE, Draft, Offer, Press, Step, Verb, actions
from bot.panel.service import Outcome, PanelRefused, Panels, Shown
from bot.panel.steps import (
    advance,
    offer,
    plan_changed_text,
    plan_kept_text,
    score_change,
    suggestion,
)
from bot.stores import Store
from engine import GameState, PlaceTile, PlaceToken, Take, apply, new_game, ranked_moves
from i18n import PSEUDO, speaking
from tests.bot.panel.test_golden import THREE_ELK_SEED

LABEL, OPTION, PLACEHOLDER, OPTIONS, MESSAGE = 80, 100, 150, 25, 2000
"""Discord's limits: a button label, a select option's label and description, a select's
placeholder, a select's options, a message."""


def _with_nature_tokens(state: GameState, tokens: int = 2) -> GameState:
    seats = list(state.seats)
    seats[state.current] = dataclasses.replace(seats[state.current], nature_tokens=tokens)
    return dataclasses.replace(state, seats=tuple(seats))


def _straight(text: str) -> str:
    """French text with its typographic apostrophes written straight, to compare."""
    return text.replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")


def _labels(step_offer: Offer) -> list[str]:
    return [button.label for row in step_offer.buttons for button in row]


def _to_check(state: GameState, draft: Draft) -> Draft:
    """From the Where step on: the first place, Next (or Return) until Check."""
    where = offer(state, draft).selects[0].options[0].value
    draft = advance(state, draft, Press(Verb.WHERE, (where,)))
    while draft.step is not Step.CHECK:
        draft = advance(state, draft, Press(Verb.NEXT if draft.step is Step.TURN else Verb.RETURN))
    return draft


# --- German and French ----------------------------------------------------------------------


def test_the_steps_speak_german() -> None:
    state = _with_nature_tokens(new_game(players=2, seed=7, cards="A"))
    with speaking("de"):
        pair = offer(state, Draft())
        draft = advance(state, Draft(), Press(Verb.PAIR, ("1",)))
        where = offer(state, draft)
        check_draft = _to_check(state, draft)
        check = offer(state, check_draft)
        free = offer(state, advance(state, Draft(), Press(Verb.FREE)))
    assert "**Schritt 1 von 5: wähle ein Paar** (ein Plättchen und sein Tier)." in pair.text
    assert "Deine Umgebung: 3 Plättchen, 0 Tiere, 2 Zapfen;" in pair.text
    assert _labels(pair)[4:] == [
        "Freie Wahl (kostet einen Zapfen)",
        "Mit Zapfen abräumen",
        "Zug vorschlagen (dein Tipp für diesen Zug)",
        "Abbrechen",
    ]
    assert "**Schritt 2 von 5: wohin kommt das Plättchen?** Paar 1:" in where.text
    [places] = where.selects
    assert places.placeholder == "Wohin das Plättchen kommt"
    assert all(re.fullmatch(r"-?\d+,-?\d+: bis zu [+-]\d+", o.label) for o in places.options)
    assert _labels(where) == ["Zurück", "Abbrechen"]
    assert "**Schritt 5 von 5: prüfe deinen Zug.**" in check.text
    assert "kommt zurück in den Beutel" in check.text
    assert "Entspricht `/cascadia play pair:1 tile_at:" in check.text  # the command stays
    assert _labels(check) == ["Bestätigen", "Zurück", "Abbrechen"]
    assert [s.placeholder for s in free.selects] == [
        "Freie Wahl: das Plättchen",
        "Freie Wahl: das Tier",
    ]
    assert free.selects[1].options[0].label.startswith("Tier 1: ")


def test_the_steps_speak_french() -> None:
    state = new_game(players=1, seed=3, cards="A")
    with speaking("fr"):
        pair = offer(state, Draft())
        two_habitats = next(
            slot
            for slot in (1, 2, 3, 4)
            if (tile := state.display_tiles[slot - 1]) is not None and len(tile.habitats) == 2
        )
        draft = advance(state, Draft(), Press(Verb.PAIR, (str(two_habitats),)))
        where = offer(state, draft).selects[0].options[0].value
        turn = offer(state, advance(state, draft, Press(Verb.WHERE, (where,))))
        check = offer(state, _to_check(state, draft))
    assert pair.text.startswith("**Étape 1 sur 5 : choisis un lot** (une tuile et son jeton).")
    assert "Ton environnement : 3 tuiles, 0 jeton Faune, 0 jeton Nature ;" in pair.text
    assert _labels(pair)[-2:] == ["Suggérer un coup (ton indice de ce tour)", "Annuler"]
    assert turn.step is Step.TURN
    assert "**Étape 3 sur 5 : tourne la tuile** en `" in turn.text
    assert "puis **Suivant**." in turn.text
    assert _labels(turn) == [
        "Tourner à gauche ↺",
        "Tourner à droite ↻",
        "Suivant",
        "Retour",
        "Annuler",
    ]
    assert "**Étape 5 sur 5 : vérifie ton coup.** Lot " in check.text
    assert "Orientation : " in check.text
    assert " côté " in check.text
    assert _labels(check) == ["Confirmer", "Retour", "Annuler"]


def test_the_score_change_and_the_plan_notices_are_worded_in_the_language() -> None:
    state = new_game(players=1, seed=2, cards="A")
    move = ranked_moves(state, 1)[0][1].move
    draft = suggestion(state, move)
    after = state
    for action in actions(draft):
        after = apply(after, action, seat=after.current)
    with speaking("de"):
        german = score_change(state, after, 0)
        kept = plan_kept_text(3, confirm=True)
        changed = plan_changed_text(tile_gone=False, token="hawk")
    with speaking("fr"):
        french = score_change(state, after, 0)
        gone = plan_changed_text(tile_gone=True, token="hawk")
    english = score_change(state, after, 0)
    assert [value for _name, value in german.parts] == [v for _name, v in english.parts]
    german_names = {"Bär", "Hirsch", "Lachs", "Bussard", "Fuchs", "Zapfen"}
    assert all(n in german_names or n.startswith("Gebiet ") for n, _v in german.parts)
    french_names = {"ours", "wapiti", "saumon", "buse", "renard", "jetons Nature"}
    assert all(n in french_names or n.startswith("zone ") for n, _v in french.parts)
    assert kept.endswith("(jetzt Paar 3), also prüfe ihn und drücke **Bestätigen**.")
    assert changed == (
        "Dein Plan hat sich geändert: der geplante Bussard liegt nicht mehr in der Auslage,"
        " wähle also neu."
    )
    assert _straight(gone) == (
        "Ton plan a changé : la tuile prévue n'est plus dans l'offre, choisis à nouveau."
    )


GUILD, CHANNEL = 1, 10
ADA, BOB = 100, 200


@pytest.fixture
def service(store: Store) -> GameService:
    return GameService(store, seeds=lambda: 5)


async def _started(service: GameService) -> LoadedGame:
    loaded = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards="A"
    )
    await service.lobby.join(loaded.game.id, user_id=BOB, name="Bob")
    await service.lobby.start(loaded.game.id, user_id=ADA)
    return await service.game(CHANNEL)


async def test_a_planning_panel_and_its_refusal_in_german_and_french(
    service: GameService,
) -> None:
    loaded = await _started(service)
    state = loaded.require_state()
    waiting = loaded.players[1 - state.current].user_id
    panels = Panels(service)
    with speaking("de"):
        shown = await panels.open(loaded.game.id, user_id=waiting, turn=state.turn)
        text = panel_text(shown)
        with pytest.raises(PanelRefused) as refused:
            await panels.press(
                shown.game_id,
                user_id=waiting,
                turn=shown.turn,
                version=shown.version,
                press=Press(Verb.CONFIRM),
            )
    mover = loaded.players[state.current].name
    assert text.startswith(f"**Nur Planung**: {mover} ist am Zug, was du hier wählst,")
    assert "**Schritt 1 von 5: wähle ein Paar**" in text
    # Answered in the person's language, logged in English.
    with speaking("de"):
        assert refused.value.message() == (
            "Du bist nicht am Zug: dieses Fenster plant nur. Es wurde nichts gespielt."
        )
    assert str(refused.value) == "It is not your turn: this panel only plans. Nothing was played."
    with speaking("fr"):
        shown = await panels.open(loaded.game.id, user_id=waiting, turn=state.turn)
        cancelled = await panels.press(
            shown.game_id,
            user_id=waiting,
            turn=shown.turn,
            version=shown.version,
            press=Press(Verb.CANCEL),
        )
        assert cancelled.outcome is Outcome.CANCELLED
        with pytest.raises(PanelRefused) as closed:
            await panels.press(
                shown.game_id,
                user_id=waiting,
                turn=shown.turn,
                version=cancelled.version + 1,
                press=Press(Verb.BACK),
            )
    with speaking("fr"):
        answer = closed.value.message()
    assert _straight(answer) == (
        "Ce panneau a été fermé : appuie sur **Jouer** sous le message du tour pour l'ouvrir."
        " Rien n'a été joué."
    )


# --- the pseudo-locale: Discord's limits ---------------------------------------------------


def _states() -> Iterator[GameState]:
    """Game states that show every step: a few turns into games of one to four players,
    with nature tokens, three matching tokens and more places than a select holds."""
    for players, seed in ((1, 1), (2, 2), (4, 4)):
        state = new_game(players=players, seed=seed)
        for turn in range(12):
            if turn % 4 == 0:
                yield _with_nature_tokens(state)
            move = ranked_moves(state, 1)[0][1].move
            for action in move.actions():
                state = apply(state, action)
    yield new_game(players=2, seed=THREE_ELK_SEED, cards="A")
    crowded = new_game(players=1, seed=4)
    rng = random.Random(4)
    while len(crowded.current_player.environment.frontier()) <= PAGE_SIZE:
        pair = rng.randint(1, 4)
        crowded = apply(crowded, Take(pair, pair))
        frontier = crowded.current_player.environment.frontier()
        crowded = apply(crowded, PlaceTile(rng.choice(frontier)))
        crowded = apply(crowded, PlaceToken(None))
    yield _with_nature_tokens(crowded)


def _offers(state: GameState) -> Iterator[Offer]:
    """Every step's offer along the ways through one turn: each pair, a free choice, both
    wipes and a suggestion, each with the first choice at each later step."""
    starts = [Draft(tile=slot, token=slot) for slot in (1, 2, 3, 4)]
    first = offer(state, Draft())
    yield first
    verbs = first.verbs()
    if Verb.FREE in verbs:
        free = advance(state, Draft(), Press(Verb.FREE))
        yield offer(state, free)
        starts.append(Draft(tile=1, token=2, free=True))
    if Verb.NATURE_WIPE in verbs:
        wipe = advance(state, Draft(), Press(Verb.NATURE_WIPE))
        yield offer(state, wipe)
        yield offer(state, advance(state, wipe, Press(Verb.WIPE_SLOTS, ("1", "2"))))
    if Verb.WIPE_THREE in verbs:
        yield offer(state, advance(state, Draft(), Press(Verb.WIPE_THREE)))
    starts.append(suggestion(state, ranked_moves(state, 1)[0][1].move))
    for draft in starts:
        for _step in range(6):
            shown = offer(state, draft)
            yield shown
            yield offer(state, draft, planning=True)
            if shown.step is Step.CHECK:
                break
            if shown.selects:
                select = shown.selects[0]
                draft = advance(state, draft, Press(select.verb, (select.options[0].value,)))
            elif shown.step is Step.TURN:
                draft = advance(state, draft, Press(Verb.LEFT))
                yield offer(state, draft)
                draft = advance(state, draft, Press(Verb.NEXT))
            else:
                draft = advance(state, draft, Press(shown.buttons[0][0].verb))
        if shown.step is Step.WHERE and Verb.MORE in shown.verbs():
            yield offer(state, advance(state, draft, Press(Verb.MORE)))


_WORDLESS = re.compile(r"[-+0-9,: ]+")
"""A label without words (a place and its score change): nothing to translate."""


async def test_every_label_of_every_step_fits_discord_in_the_pseudo_locale() -> None:
    seen: set[Step] = set()
    with speaking(PSEUDO):
        for state in _states():
            for shown in _offers(state):
                seen.add(shown.step)
                assert len(shown.text) <= MESSAGE
                for line in shown.lines:
                    assert "⟦" in line, f"untranslated: {line!r}"
                panel = Shown(
                    Outcome.SHOWN, 1, 2, state.turn, 1, state.current, "Ada", False, offer=shown
                )
                assert len(panel_text(panel)) <= MESSAGE
                view = panel_view(panel)
                assert view is not None
                for child in view.children:
                    item = getattr(child, "item", child)
                    if isinstance(item, discord.ui.Button):
                        assert item.label is not None
                        assert len(item.label) <= LABEL, item.label
                        assert "⟦" in item.label or _WORDLESS.fullmatch(item.label)
                    elif isinstance(item, discord.ui.Select):
                        assert len(item.placeholder or "") <= PLACEHOLDER
                        assert "⟦" in (item.placeholder or "")
                        assert 1 <= len(item.options) <= OPTIONS
                        for option in item.options:
                            assert len(option.label) <= OPTION, option.label
                            assert len(option.description or "") <= OPTION
                            assert "⟦" in option.label or _WORDLESS.fullmatch(option.label)
    assert seen == set(Step)
