"""The ledger's screens import one way (issue 43): common → list / match / statistics, stated
as data.

Inside ``scenes/ledger`` each module imports only the modules listed before it in
:data:`LEDGER_LAYERS`, and no screen imports another screen's module: the list opens the match
and the statistics through their records (``screens.LedgerMatch`` / ``screens.LedgerStats``)
and the router (``app.router.build``), like every other screen. Outside the package only the
router (``koikoi_desktop.scenes``) imports a ledger module (``tests/test_import_cycles.py``:
``ENTERED_BY_THE_ROUTER``).
"""

from __future__ import annotations

from tests.test_import_cycles import import_graph

LEDGER = "koikoi_desktop.scenes.ledger"

#: The ledger's modules, bottom to top: (module, what it is, its kind). A module imports only
#: modules listed before it, and a screen imports no other screen.
LEDGER_LAYERS: tuple[tuple[str, str, str], ...] = (
    ("", "the package: its docstring names the three screens, nothing imported", "package"),
    (
        "common",
        "the rows read from storage, recorded names, chips, body, footer, scrollbar",
        "shared",
    ),
    ("listing", "the list of matches, its chips, export and warnings", "screen"),
    ("match", "one match to its rounds, its deals' check, its review", "screen"),
    ("statistics", "lifetime statistics, the totals' and the rating's charts", "screen"),
)


def ledger_graph() -> dict[str, set[str]]:
    """The ledger's modules and the ledger modules each imports (short names; "" the package)."""
    out: dict[str, set[str]] = {}
    for mod, deps in import_graph().items():
        if mod == LEDGER or mod.startswith(LEDGER + "."):
            short = mod.removeprefix(LEDGER).removeprefix(".")
            out[short] = {
                d.removeprefix(LEDGER).removeprefix(".")
                for d in deps
                if d == LEDGER or d.startswith(LEDGER + ".")
            }
    return out


def test_every_ledger_module_has_a_layer() -> None:
    assert set(ledger_graph()) == {name for name, _, _ in LEDGER_LAYERS}


def test_the_ledger_imports_one_way() -> None:
    order = [name for name, _, _ in LEDGER_LAYERS]
    wrong = [
        f"{mod} imports {dep} (listed after it)"
        for mod, deps in ledger_graph().items()
        for dep in sorted(deps)
        if order.index(dep) >= order.index(mod)
    ]
    assert not wrong, wrong


def test_no_ledger_screen_imports_another() -> None:
    graph = ledger_graph()
    screens = {name for name, _, kind in LEDGER_LAYERS if kind == "screen"}
    assert {mod: graph[mod] & screens for mod in screens} == {mod: set() for mod in screens}
    assert all(graph[mod] == {"common"} for mod in screens)  # what they share, only
    assert graph["common"] == set() and graph[""] == set()


def test_the_screens_open_each_other_through_their_records() -> None:
    graph = import_graph()
    for name in ("listing", "match", "statistics"):
        assert "koikoi_desktop.scenes.screens" in graph[f"{LEDGER}.{name}"]
