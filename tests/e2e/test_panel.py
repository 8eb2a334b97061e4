"""Turns played by tapping: the Play button on turn messages and the private panel, through
the real bot process, choosing only among what the panel offers."""

# Waiting helpers take explicit timeouts so failures can say what was awaited for how long.

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.game.errors import NotInGame
from bot.panel.draft import Verb
from fakediscord import InteractionHandle, MessageRecord
from sandbox import ACK_LIMIT
from tests.e2e.harness import (
    GameChannel,
    World,
    button,
    check_pngs,
    labels,
)

JSON = dict[str, Any]


def _walk(components: Iterable[JSON]) -> Iterable[JSON]:
    for component in components:
        yield component
        yield from _walk(component.get("components", []))


def buttons(message: MessageRecord) -> list[JSON]:
    """The enabled buttons of a message."""
    return [c for c in _walk(message.components) if c.get("type") == 2 and not c.get("disabled")]


def selects(message: MessageRecord) -> list[JSON]:
    """The string selects of a message."""
    return [c for c in _walk(message.components) if c.get("type") == 3]


@dataclass
class Panel:
    """One player's private panel message, pressed through the server as they would."""

    table: GameChannel
    user: int
    message: MessageRecord

    @property
    def text(self) -> str:
        return self.message.text

    def labels(self) -> list[str]:
        return [str(b.get("label", "")) for b in buttons(self.message)]

    def verbs(self) -> set[Verb]:
        """What the panel's buttons and selects ask for, read from their custom ids: the
        step it shows, without reading its words."""
        components = [*buttons(self.message), *selects(self.message)]
        return {Verb(str(c["custom_id"]).split(":")[6]) for c in components}

    @property
    def at_check(self) -> bool:
        """Whether the panel shows the Check step (Confirm, unless it only plans)."""
        return bool(self.verbs()) and self.verbs() <= {Verb.CONFIRM, Verb.BACK, Verb.CANCEL}

    async def _answer(self, handle: InteractionHandle, edited: str | None) -> str | None:
        """Wait for the press to be acknowledged, then for the panel to be edited or a
        private refusal to follow; returns the refusal's text, if any."""
        server = self.table.server
        record = await handle.response(timeout=ACK_LIMIT + 1)
        assert record.callback_type in (6, 7), record.callback_type
        message = self.message

        def done() -> bool:
            return bool(handle.followup_messages) or message.edited_at != edited

        await server.wait_for(done, timeout=20.0, what=f"the answer to {record.name}")
        followups = handle.followup_messages
        if followups:
            assert followups[0].ephemeral
            return str(followups[0].text)
        return None

    async def press(self, label: str) -> str | None:
        """Press the button whose label contains ``label``."""
        found = [b for b in buttons(self.message) if label in str(b.get("label", ""))]
        assert found, f"no {label!r} button on the panel: {self.labels()}\n{self.text}"
        return await self.press_id(str(found[0]["custom_id"]))

    async def press_id(self, custom_id: str, *, user: int | None = None) -> str | None:
        edited = self.message.edited_at
        handle = await self.table.server.click(
            self.user if user is None else user,
            self.message,
            custom_id,
        )
        return await self._answer(handle, edited)

    async def choose(self, placeholder: str, values: list[str]) -> str | None:
        """Choose ``values`` in the select whose placeholder contains ``placeholder``."""
        found = [s for s in selects(self.message) if placeholder in str(s.get("placeholder"))]
        assert found, f"no {placeholder!r} select on the panel\n{self.text}"
        edited = self.message.edited_at
        handle = await self.table.server.select(
            self.user,
            self.message,
            str(found[0]["custom_id"]),
            values,
        )
        return await self._answer(handle, edited)


async def open_panel(table: GameChannel, user: int, turn_message: MessageRecord) -> Panel:
    """Press Play on ``turn_message``; returns the private panel."""
    assert "Play" in labels(turn_message), labels(turn_message)
    handle = await table.server.click(user, turn_message, button(turn_message, "Play"))
    message = await table.reply(handle)
    assert message.ephemeral
    return Panel(table, user, message)


async def tap_a_turn(
    table: GameChannel, panel: Panel, *, wipes: bool = False, keystones: bool = False
) -> None:
    """Play the turn on the panel by choosing at random among what it offers (Back now and
    then) until Confirm, which is pressed. Wipes are left alone unless ``wipes`` (a wipe's own
    Confirm posts the new display, which is checked); with ``keystones``, a token goes on a
    keystone whenever the panel offers one (to earn nature tokens)."""
    rng = table.rng
    for _ in range(60):
        text = panel.text
        offered = panel.labels()
        assert "Cancel" in offered, f"no Cancel on the panel: {offered}\n{text}"
        if "Confirm" in offered and panel.at_check:
            refusal = await panel.press("Confirm")
            assert refusal is None, refusal
            assert "Turn played" in panel.text, panel.text
            return
        choices: list[tuple[str, str | list[str]]] = []
        for select in selects(panel.message):
            options = select["options"]
            values = [str(o["value"]) for o in options]
            count = rng.randint(int(select.get("min_values", 1)), int(select.get("max_values", 1)))
            picked = rng.sample(values, count)
            nature = [str(o["value"]) for o in options if "nature" in str(o.get("description"))]
            if keystones and nature:
                picked = [nature[0]]
            choices.append(("select:" + str(select["placeholder"]), picked))
        for label in offered:
            if label == "Cancel" or (label == "Back" and rng.random() < 0.8):
                continue
            if ("Wipe" in label or label.startswith("Confirm")) and not wipes:
                continue
            choices.append(("button", label))
        assert choices, f"the panel offers nothing to go on with: {offered}\n{text}"
        kind, what = rng.choice(choices)
        since = len(table.server.messages)
        if kind == "button":
            refusal = await panel.press(str(what))
        else:
            assert isinstance(what, list)
            refusal = await panel.choose(kind.removeprefix("select:"), what)
        assert refusal is None, f"{kind} {what}: {refusal}"
        if kind == "button" and str(what).startswith("Confirm"):
            wiped = await table.next_post(since, what="the new display after a wipe")
            [*_, (_, _, action)] = table.world.db.moves(table.game_id)
            assert action.split()[0] in ("wipe", "nature-wipe"), action
            assert "Play" in labels(wiped), "the display after a wipe has no Play button"
            check_pngs(wiped, expect=["display.png"])
            assert Verb.PAIR in panel.verbs(), panel.text
    raise AssertionError(f"no Confirm after 60 presses:\n{panel.text}")


async def play_game_by_tapping(
    table: GameChannel, start_message: MessageRecord, *, wipes: bool = False
) -> MessageRecord:
    """Every turn through Play and the panel; returns the final message."""
    message = start_message
    for _ in range(100):
        mover = table.to_move
        assert mover is not None
        moves = len(table.world.db.moves(table.game_id))
        panel = await open_panel(table, mover, message)
        assert Verb.PAIR in panel.verbs(), panel.text
        check_pngs(panel.message, expect=["panel.png"])
        since = len(table.server.messages)
        await tap_a_turn(table, panel, wipes=wipes)
        message = await table.turn_posted(since, mover)
        assert len(table.world.db.moves(table.game_id)) >= moves + 1
        if table.to_move is None:
            return message
        assert "Play" in labels(message), "a turn message without its Play button"
    raise AssertionError("the game did not end")


async def test_two_player_game_played_only_by_tapping(world: World) -> None:
    table = world.table()
    start = await table.setup([world.alice, world.bob])
    final = await play_game_by_tapping(table, start, wipes=True)
    assert table.turns == 40
    table.check_final(final)
    assert "Play" not in labels(final), "the final message offers Play"
    assert max(world.server.ack_latencies) < ACK_LIMIT


async def test_solo_game_played_only_by_tapping(world: World) -> None:
    table = world.table()
    await table.open(world.carol, cards="A")
    start = await table.start(world.carol, button=False)
    final = await play_game_by_tapping(table, start)
    assert table.turns == 20
    table.check_final(final)
    assert max(world.server.ack_latencies) < ACK_LIMIT


def _latest(table: GameChannel) -> MessageRecord:
    return table.public_messages()[-1]


async def test_planning_mode_and_refusals_change_nothing(world: World) -> None:
    table = world.table()
    start = await table.setup([world.alice, world.bob])
    mover = table.to_move
    assert mover is not None
    waiting = next(u for u in table.seats if u != mover)

    # The player waiting may plan, but the panel never offers Confirm.
    before = world.db.snapshot()["moves"]
    planner = await open_panel(table, waiting, start)
    while not planner.at_check:
        await tap_step(planner)
    assert Verb.CONFIRM not in planner.verbs(), planner.labels()
    assert world.db.snapshot()["moves"] == before

    # Someone not in the game is told so.
    handle = await world.server.click(world.eve, start, button(start, "Play"))
    answer = await table.reply(handle)
    assert answer.text == str(NotInGame())

    panel = await open_panel(table, mover, start)
    while not panel.at_check:
        await tap_step(panel)
    # Another player pressing Confirm on the mover's panel (a shared custom id) is turned
    # away, and the panel stays as it is for its owner.
    confirm = next(b["custom_id"] for b in buttons(panel.message) if b["label"] == "Confirm")
    await table.settled()
    snapshot = world.db.snapshot()
    handle = await world.server.click(waiting, panel.message, confirm, forged=True)
    reply = await table.reply(handle)
    assert "someone else's" in reply.text
    assert world.db.snapshot() == snapshot
    assert Verb.CONFIRM in panel.verbs()

    # Cancel: the panel closes, nothing is played, only the draft is cleared.
    await panel.press("Cancel")
    assert "Cancelled" in panel.text
    assert world.db.snapshot()["moves"] == before
    assert world.db.snapshot()["games"] == snapshot["games"]
    drafts = [tuple(r) for r in world.db.rows("SELECT user_id, draft FROM panels")]
    assert (mover, "") in drafts, drafts

    # A new panel plays the turn; the old start message's Play goes before the next is posted.
    panel = await open_panel(table, mover, start)
    since = len(world.server.messages)
    await tap_a_turn(table, panel)
    message = await table.turn_posted(since, mover)
    assert "Play" not in labels(start), "the start message still offers Play"
    assert "Play" in labels(message)

    # The planner's panel was a plan for the turn that has now come: a press plays nothing
    # and brings the plan, in place, to this turn (kept, or what changed said).
    played = world.db.snapshot()["moves"]
    planned = [b for b in buttons(planner.message) if b["label"] != "Cancel"]
    assert await planner.press_id(str(planned[0]["custom_id"])) is None
    assert world.db.snapshot()["moves"] == played
    assert planner.text.startswith(("Your plan is kept", "Your plan changed")), planner.text
    assert "turn has passed" not in planner.text


async def test_suggest_is_the_turns_hint_counted_once(world: World) -> None:
    table = world.table()
    start = await table.setup([world.alice, world.bob])
    mover = table.to_move
    assert mover is not None
    waiting = next(u for u in table.seats if u != mover)
    game = table.game_id

    # A hint belongs to the player to move: a planning panel does not offer one.
    planner = await open_panel(table, waiting, start)
    assert Verb.SUGGEST not in planner.verbs(), planner.labels()

    panel = await open_panel(table, mover, start)
    assert await panel.press("Suggest") is None
    assert panel.at_check, panel.text
    suggested = re.findall(r"Same as `(/cascadia play [^`]+)`", panel.text)
    assert len(suggested) == 1, panel.text
    noted = "SELECT turn, user_id, moves FROM hints WHERE game_id = ?"
    hints = [tuple(r) for r in world.db.rows(noted, game)]
    assert [(turn, user) for turn, user, _ in hints] == [(0, mover)]
    await table.refused(mover, "hint", reason="one per turn")

    # Back to the first step and Suggest again: the same move, and still one hint noted.
    while Verb.PAIR not in panel.verbs():
        assert await panel.press("Back") is None
    assert await panel.press("Suggest") is None
    assert re.findall(r"Same as `(/cascadia play [^`]+)`", panel.text) == suggested
    assert [tuple(r) for r in world.db.rows(noted, game)] == hints
    since = len(world.server.messages)
    assert await panel.press("Confirm") is None
    assert "Turn played" in panel.text, panel.text
    await table.turn_posted(since, mover)
    # The move played is the hint's best, as noted.
    [(_, user, action)] = world.db.moves(game)
    assert (user, action) == (mover, str(hints[0][2]).split("\n")[0])


async def test_double_confirm_and_confirm_after_the_game_ended(world: World) -> None:
    table = world.table()
    start = await table.setup([world.alice, world.bob])
    mover = table.to_move
    assert mover is not None
    panel = await open_panel(table, mover, start)
    while not panel.at_check:
        await tap_step(panel)
    # Confirm tapped twice at once: one turn is played, and both taps say so on the panel,
    # neither with a message of its own nor "someone was faster".
    confirm = str(next(b["custom_id"] for b in buttons(panel.message) if b["label"] == "Confirm"))
    since = len(world.server.messages)
    first = await world.server.click(mover, panel.message, confirm)
    second = await world.server.click(mover, panel.message, confirm)
    await table.turn_posted(since, mover)
    taps = [await tap.response() for tap in (first, second)]

    def edited(token: str) -> bool:
        return any(
            r.method == "PATCH" and f"/{token}/messages/@original" in r.path
            for r in world.server.requests
        )

    await world.server.wait_for(
        lambda: all(edited(tap.token) for tap in taps), what="both taps to edit the panel"
    )
    assert "Turn played" in panel.text, panel.text
    assert first.followup_messages == second.followup_messages == []
    await table.settled()
    assert len(world.db.moves(table.game_id)) == 1

    # The next player gets as far as Check, then the host ends the game: Confirm plays nothing.
    nxt = table.to_move
    assert nxt is not None
    panel = await open_panel(table, nxt, _latest(table))
    while not panel.at_check:
        await tap_step(panel)
    question = await table.run(world.alice, "end")
    since = len(world.server.messages)
    await table.press(world.alice, question, "End the game")
    await table.next_post(since, what="the message that the game was ended")
    await table.settled()
    snapshot = world.db.snapshot()
    assert await panel.press("Confirm") is None, "one answer: the panel says it in place"
    assert "was ended" in panel.text, panel.text
    assert panel.labels() == []
    assert world.db.snapshot() == snapshot


async def tap_step(panel: Panel) -> None:
    """One step forward on the panel (the first offer of each step, no wipes)."""
    for select in selects(panel.message):
        if "Free choice" in str(select["placeholder"]):
            continue
        value = str(select["options"][0]["value"])
        assert await panel.choose(str(select["placeholder"]), [value]) is None
        return
    for label in panel.labels():
        if label.startswith(("1:", "Next", "Return to bag")):
            assert await panel.press(label) is None
            return
    raise AssertionError(f"no way forward on the panel: {panel.labels()}\n{panel.text}")


def _step(panel: Panel) -> str:
    found = re.search(r"Step \d of 5", panel.text)
    assert found is not None, panel.text
    return found[0]


async def test_a_restart_between_steps_resumes_the_panel(world: World) -> None:
    table = world.table()
    start = await table.setup([world.alice, world.bob])
    mover = table.to_move
    assert mover is not None
    panel = await open_panel(table, mover, start)
    await tap_step(panel)
    await tap_step(panel)
    step = _step(panel)
    await world.bot.restart()
    # The same panel message goes on where it was.
    await tap_step(panel)
    assert _step(panel) != step
    # Play again opens the same draft at the same step.
    again = await open_panel(table, mover, start)
    assert _step(again) == _step(panel)
    since = len(world.server.messages)
    await tap_a_turn(table, again)
    await table.turn_posted(since, mover)


async def test_free_choice_and_wipe_through_the_panel(world: World) -> None:
    table = world.table()
    message = await table.setup([world.alice, world.bob])
    free_done = wipe_done = False
    for _ in range(40):
        mover = table.to_move
        assert mover is not None
        state = world.db.state(table.game_id)
        tokens = state.seats[state.current].nature_tokens
        panel = await open_panel(table, mover, message)
        if tokens and not wipe_done:
            # A wipe with a nature token: its own Confirm, then the new display is posted.
            await panel.press("Wipe with a nature token")
            assert await panel.choose("nature token", ["1", "2"]) is None
            assert panel.verbs() == {Verb.CONFIRM, Verb.BACK, Verb.CANCEL}, panel.text
            since = len(world.server.messages)
            assert await panel.press("Confirm") is None
            wiped = await table.next_post(since, what="the display after the wipe")
            assert "Play" in labels(wiped)
            assert Verb.PAIR in panel.verbs(), panel.text
            assert world.db.moves(table.game_id)[-1][2] == "nature-wipe 1 2"
            state = world.db.state(table.game_id)
            assert state.seats[state.current].nature_tokens == tokens - 1
            tokens -= 1
            wipe_done = True
        since = len(world.server.messages)
        if tokens and not free_done:
            # A free choice: tile 1 with token 2, for a nature token.
            await panel.press("Free choice")
            assert await panel.choose("the tile", ["1"]) is None
            assert await panel.choose("the token", ["2"]) is None
            assert Verb.WHERE in panel.verbs(), panel.text
            while not panel.at_check:
                await tap_step(panel)
            assert await panel.press("Confirm") is None
            message = await table.turn_posted(since, mover)
            assert world.db.moves(table.game_id)[-1][2].startswith("take 1 2; ")
            free_done = True
        else:
            await tap_a_turn(table, panel, keystones=True)
            message = await table.turn_posted(since, mover)
        if free_done and wipe_done:
            return
    raise AssertionError(f"no nature tokens for a wipe and a free choice: {free_done, wipe_done}")


_POINTS = re.compile(r"(\S+)'s environment: \d+ tiles?, (-?\d+) points?")


_RETURNED = r"to the bag \((?:then )?the move scores ([+-]\d+)\)"


def _points(message: MessageRecord, filename: str) -> int:
    """The points an environment picture of ``message`` is described with."""
    [picture] = [a for a in message.attachments if a.filename == filename]
    found = _POINTS.search(picture.description or "")
    assert found, (filename, picture.description)
    return int(found[2])


async def test_the_panel_its_pictures_and_the_turn_message_give_one_score(world: World) -> None:
    # Three players: majority bonuses (+3 for the largest corridor, +1 for the second) are
    # in play from the starting tiles on; every total shown counts them, as if it ended now,
    # and the move's own points are the change the panel lists.
    table = world.table()
    message = await table.setup([world.alice, world.bob, world.carol])
    for _ in range(4):
        mover = table.to_move
        assert mover is not None
        name = world.name(mover)
        panel = await open_panel(table, mover, message)
        found = re.search(r"score (-?\d+) if it ended now, bonuses in", panel.text)
        assert found, panel.text
        score = int(found[1])
        assert _points(panel.message, "panel.png") == score
        assert _points(message, f"{name}.png") == score, "the turn message's picture differs"

        pair = next(label for label in panel.labels() if re.match(r"[1-4]: ", label))
        assert await panel.press(pair) is None
        [where] = selects(panel.message)
        best = where["options"][0]
        listed = int(re.fullmatch(r"\S+: up to ([+-]\d+)", str(best["label"]))[1])  # type: ignore[index]
        assert await panel.choose("Where the tile goes", [str(best["value"])]) is None
        if Verb.LEFT in panel.verbs():  # the Turn step
            assert await panel.press("Next") is None
        returned = int(re.search(_RETURNED, panel.text)[1])  # type: ignore[index]
        targets = selects(panel.message)
        if not targets:
            assert await panel.press("Next") is None
        elif int(re.split(r": ([+-]\d+)", str(targets[0]["options"][0]["label"]))[1]) >= returned:
            assert await panel.choose("goes", [str(targets[0]["options"][0]["value"])]) is None
        else:
            assert await panel.press("Return to bag") is None
        assert panel.at_check, panel.text
        assert f"Score: {listed:+d}" in panel.text, (listed, panel.text)
        after = _points(panel.message, "panel.png")

        since = len(table.server.messages)
        await panel.press("Confirm")
        message = await table.turn_posted(since, mover)
        assert _points(message, f"{name}.png") == after
        assert f"{world.name(mover)}** {after}" in message.text, message.text


def _live_play(table: GameChannel) -> list[int]:
    """The channel's messages that offer a Play button."""
    return [m.id for m in table.public_messages() if "Play" in labels(m)]


async def test_only_the_latest_turn_message_offers_play(world: World) -> None:
    table = world.table()
    message = await table.setup([world.alice, world.bob])
    assert _live_play(table) == [message.id]
    posted = [message]
    for turn in range(4):
        if turn == 2:
            # After a restart the bot reads the previous message back to take its Play away.
            await world.bot.restart()
        message = await table.play()
        # The previous turn message lost its Play before this one was posted.
        assert _live_play(table) == [message.id]
        previous, words = posted[-1], posted[-1].text
        posted.append(message)
        assert previous.edited_at is not None
        # It keeps its words, its pictures and their alt text: a layout is sent whole again.
        assert previous.components_v2
        assert previous.text == words
        shown = [(item.attachment.filename, item.description) for item in previous.gallery
                 if item.attachment is not None]  # fmt: skip
        assert len(shown) == 3, shown
        assert all(description for _, description in shown), shown
    fetched = [r for r in world.server.requests if r.method == "GET" and "/messages/" in r.path]
    assert len(fetched) == 1, "only the first edit after the restart reads the message back"

    # Ending the game takes the last Play away too.
    question = await table.run(world.alice, "end")
    since = len(world.server.messages)
    await table.press(world.alice, question, "End the game")
    await table.next_post(since, what="the message that the game was ended")
    assert _live_play(table) == []
