"""Turn messages as Components V2 layouts, built from their words, files and buttons."""

from __future__ import annotations

from bot.game.captions import Attachment
from bot.shell.layout import Layout

PLAY = ("Play", "cascadia:play:7:3")
HAND_OVER = ("Hand over", "cascadia:computer:7:1")


def test_one_container_holds_the_words_the_pictures_and_the_buttons() -> None:
    layout = Layout.of(
        "<@1>, it's your turn",
        [
            Attachment("display.png", b"", "The display: 1 forest tile with a bear, ..."),
            Attachment("alice.png", b"", "alice's environment: 4 tiles, 5 points"),
            Attachment("cascadia-game-7.json", b"{}"),
        ],
    )
    view = layout.view([PLAY, HAND_OVER])
    assert view.has_components_v2()
    [container] = view.to_components()
    assert container["type"] == 17
    text, gallery, file, row = container["components"]
    assert text == {"type": 10, "content": "<@1>, it's your turn"} | _id(text)
    assert gallery["type"] == 12
    assert [(i["media"]["url"], i["description"]) for i in gallery["items"]] == [
        ("attachment://display.png", "The display: 1 forest tile with a bear, ..."),
        ("attachment://alice.png", "alice's environment: 4 tiles, 5 points"),
    ]
    assert (file["type"], file["file"]["url"]) == (13, "attachment://cascadia-game-7.json")
    assert row["type"] == 1
    assert [(b["label"], b["custom_id"]) for b in row["components"]] == [PLAY, HAND_OVER]


def test_a_picture_without_a_description_is_described_by_its_name() -> None:
    layout = Layout.of("words", [Attachment("display.png", b"")])
    assert layout.files == (("display.png", "picture display.png"),)


def test_without_pictures_or_buttons_only_the_words_remain() -> None:
    [container] = Layout("only words").view([]).to_components()
    [text] = container["components"]
    assert text["content"] == "only words"


def _id(component: dict[str, object]) -> dict[str, object]:
    return {"id": component["id"]} if "id" in component else {}
