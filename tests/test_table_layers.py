"""The table's modules import one way (issue 43): input → gesture → controller → engine →
events → Director → view, stated as data.

Inside ``scenes/table`` each module imports only the modules listed before it in
:data:`TABLE_LAYERS` (the gesture machine imports none of them; the view reads the snapshot,
never the controller; only the scene, the router, holds them all). The gesture machine and the
controller (and what they hold) are pygame-free: importing them loads no pygame, no Director,
no drawing. The Director (``ui.board``) knows no scene at all (``tests/test_import_cycles.py``'s
layers: ``ui`` is below ``screens``).
"""

from __future__ import annotations

import subprocess
import sys

from tests.test_import_cycles import import_graph

TABLE = "koikoi_desktop.scenes.table"

#: The table's modules, bottom to top: (module, what it is). A module imports only modules
#: listed before it.
TABLE_LAYERS: tuple[tuple[str, str], ...] = (
    ("gesture", "the pointer's gesture: intents + hit-test answers -> commands (no pygame)"),
    ("text", "the table's words: facts -> sentences"),
    ("snapshot", "what the view draws besides the moving cards, read-only"),
    ("seats", "the computer seats and their thinking (no pygame)"),
    ("coaching", "the coach's judgements of the person's decisions (no pygame)"),
    ("recording", "the match saved and recorded (no pygame)"),
    ("controller", "commands -> engine actions; engine events -> cues (no pygame)"),
    ("sidebar", "draws the yaku tracker and the move log from a snapshot"),
    ("view", "draws a frame: the snapshot, the Director's sprites, the layout"),
    ("prompts", "the questions asked over the table"),
    (
        "scene",
        "the router: intents to the gesture, commands to the controller, cues to the "
        "Director and the prompts",
    ),
)

#: Modules that must load without pygame (and so without the Director or any drawing).
PYGAME_FREE = ("gesture", "text", "snapshot", "seats", "coaching", "recording", "controller")


def table_graph() -> dict[str, set[str]]:
    """The table's modules and the table modules each imports (short names)."""
    graph = import_graph()
    out: dict[str, set[str]] = {}
    for mod, deps in graph.items():
        if mod.startswith(TABLE + "."):
            short = mod.removeprefix(TABLE + ".")
            out[short] = {d.removeprefix(TABLE + ".") for d in deps if d.startswith(TABLE + ".")}
    return out


def test_every_table_module_has_a_layer() -> None:
    named = {name for name, _ in TABLE_LAYERS}
    assert set(table_graph()) == named


def test_the_table_imports_one_way() -> None:
    order = [name for name, _ in TABLE_LAYERS]
    wrong = [
        f"{mod} imports {dep} (listed after it)"
        for mod, deps in table_graph().items()
        for dep in sorted(deps)
        if order.index(dep) >= order.index(mod)
    ]
    assert not wrong, wrong


def test_the_gesture_imports_nothing_of_the_table_and_the_view_not_the_controller() -> None:
    graph = table_graph()
    assert graph["gesture"] == set()
    assert "controller" not in graph["view"] and "controller" not in graph["sidebar"]
    assert "gesture" in graph["controller"]  # it takes the gesture's commands
    assert {"seats", "coaching", "recording"} <= graph["controller"]  # its collaborators


def test_the_gesture_and_the_controller_load_without_pygame() -> None:
    probe = "; ".join(
        [
            "import sys",
            *(f"import {TABLE}.{m}" for m in PYGAME_FREE),
            "bad = sorted(m for m in sys.modules if m == 'pygame' or m.startswith("
            "('koikoi_desktop.ui.board', 'koikoi_desktop.ui.animation', "
            "'koikoi_desktop.scenes.table.view')))",
            "print(bad)",
        ]
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
