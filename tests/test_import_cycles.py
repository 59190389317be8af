"""No import circles inside koikoi_desktop (ARCHITECTURE: "no import circles").

The rule, as this test reads the source with ``ast``:

* every ``import`` / ``from ... import`` statement in a module is a dependency of that module,
  wherever it sits: at module level, inside a function, or under ``if TYPE_CHECKING:``. A
  function-level import that closes a circle is still a circle (it only hides it from the
  interpreter until the call), so moving an import into a function does not fix one;
* ``from pkg import name`` depends on ``pkg.name`` when that is a module, else on ``pkg``;
* the implicit import of a parent package (importing ``a.b.c`` runs ``a/__init__`` and
  ``a/b/__init__``) is not an edge: a package's ``__init__`` re-exporting its modules is normal.

A circle is a strongly connected component of more than one module. The package has none, and
any new one fails at once (``KNOWN`` stays empty: the last circle, storage.legacy ↔ storage.store,
went with issue 17 when the import started to report through ``legacy.Reporter``).

No circles is not yet an order: the package is also built in layers (:data:`LAYERS`, bottom to
top, from ARCHITECTURE.md's layout and the import graph as it is), and a module imports only its
own layer or lower ones. An edge that goes up fails with its two modules named.
"""

from __future__ import annotations

import ast
from pathlib import Path

import koikoi_desktop

ROOT = Path(koikoi_desktop.__file__).parent

#: Circles tolerated for now: none. Nothing may be added here.
KNOWN: list[frozenset[str]] = []


#: The package's layers, bottom to top: (name, the top-level modules and packages in it, what
#: it is and what it may import). A module imports its own layer and the layers below, never one
#: above. The root ``koikoi_desktop/__init__`` (the version, nothing else) is below them all.
#: Where two layers do not import each other the order is the architecture's, not the graph's
#: (e.g. ``ai`` below ``i18n``: the opponents know no words; ARCHITECTURE.md: "ai/ imports
#: engine only").
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "processes",
        ("processes",),
        "how a worker process starts and dies with the game: the standard library only, at the"
        " bottom so ai (which imports engine only), review and ui/audio all use the one module",
    ),
    ("engine", ("engine",), "the rules: pure, imports nothing of the package"),
    ("ai", ("ai",), "the opponents: see a PlayerView, keep their reasons as facts"),
    ("i18n", ("i18n",), "catalogs and Words (engine.yaku: the yaku keys)"),
    ("ratings", ("ratings",), "Glicko-2 and the levels' ratings"),
    ("storage", ("storage",), "settings, ledger, saved matches (i18n: a language is checked)"),
    ("review", ("review",), "judging a recorded match: ai + storage"),
    (
        "words",
        ("words",),
        "facts into words, no pygame",
    ),
    (
        "desktop",
        ("chatter", "assets", "text", "menu_entry"),
        "native libraries' noise, asset files, fonts, the Linux menu entry",
    ),
    ("ui", ("ui",), "input, drawing, widgets, sound (reads the settings model)"),
    ("screens", ("scenes", "deck_sheet"), "the screens and the deck sheet, drawn with ui"),
    ("cli", ("cli",), "the command line: opens screens, prints reports"),
    ("app", ("crash", "app"), "the crash handler and the app that owns the loop"),
    ("main", ("__main__",), "python -m koikoi_desktop"),
)

#: Screen packages inside ``scenes`` that only the router (``koikoi_desktop.scenes``, one case
#: per record) enters: every other module opens their screens through a record of
#: ``scenes.screens``, never by importing them (each package's own order is stated in its own
#: test: ``tests/test_ledger_layers.py``).
ENTERED_BY_THE_ROUTER: tuple[str, ...] = ("koikoi_desktop.scenes.ledger",)

#: Edges that go up and stay for now, each with why: none.
UPWARD_ALLOWED: dict[tuple[str, str], str] = {}


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(["koikoi_desktop", *parts])] = path
    return out


def _targets(mod: str, node: ast.Import | ast.ImportFrom, is_pkg: bool, mods: set[str]) -> set[str]:
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            pkg = mod.split(".") if is_pkg else mod.split(".")[:-1]
            pkg = pkg[: len(pkg) - node.level + 1]
            base = ".".join([*pkg, base] if base else pkg)
        for a in node.names:
            sub = f"{base}.{a.name}"
            names.append(sub if sub in mods else base)
    out = set()
    for name in names:
        while name and name not in mods:  # a name inside a module: the module
            name = name.rpartition(".")[0]
        if name and name != mod:
            out.add(name)
    return out


def import_graph() -> dict[str, set[str]]:
    """Each koikoi_desktop module and the koikoi_desktop modules it imports (see the rule)."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                deps |= _targets(mod, node, path.name == "__init__.py", set(mods))
        graph[mod] = deps
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(frozenset(comp))
    return found


def layer_of(mod: str) -> int:
    """The index in :data:`LAYERS` of a module (-1 for the root package); KeyError when no
    layer names it (a new top-level module must be given its place)."""
    if mod == "koikoi_desktop":
        return -1
    top = mod.removeprefix("koikoi_desktop.").split(".")[0]
    for i, (_, members, _) in enumerate(LAYERS):
        if top in members:
            return i
    raise KeyError(f"{mod}: no layer in LAYERS names {top!r}")


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a lower layer to a higher one, as "a (layer) -> b (layer)"."""
    out = []
    for mod in sorted(graph):
        for dep in sorted(graph[mod]):
            if layer_of(dep) > layer_of(mod) and (mod, dep) not in UPWARD_ALLOWED:
                below, above = LAYERS[layer_of(mod)][0], LAYERS[layer_of(dep)][0]
                out.append(f"{mod} ({below}) imports {dep} ({above})")
    return out


def _short(c: frozenset[str]) -> frozenset[str]:
    return frozenset(m.removeprefix("koikoi_desktop.") for m in c)


def test_the_finder_sees_circles_through_function_level_imports() -> None:
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": set()}
    assert circles(g) == [frozenset({"a", "b", "c"})]
    tree = ast.parse("def f():\n    from koikoi_desktop.engine import notation\n")
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    mods = set(_modules())
    assert _targets("koikoi_desktop.engine.match", node, False, mods) == {
        "koikoi_desktop.engine.notation"
    }


def test_the_engine_has_no_import_circles() -> None:
    graph = import_graph()
    engine = [c for c in circles(graph) if any(m.startswith("koikoi_desktop.engine") for m in c)]
    assert engine == []
    assert "koikoi_desktop.engine.notation" in graph["koikoi_desktop.engine"]  # it did parse


def test_the_package_has_no_import_circles() -> None:
    found = {_short(c) for c in circles(import_graph())}
    assert found - set(KNOWN) == set(), "a new import circle"
    assert set(KNOWN) - found == set(), "a known circle is gone: delete it from KNOWN"
    assert KNOWN == []


def test_every_module_has_a_layer_and_the_root_imports_nothing() -> None:
    graph = import_graph()
    tops = [top for _, members, _ in LAYERS for top in members]
    assert len(tops) == len(set(tops)), "a module in two layers"
    unplaced = []
    for mod in graph:
        try:
            layer_of(mod)
        except KeyError as exc:
            unplaced.append(str(exc))
    assert unplaced == []
    assert graph["koikoi_desktop"] == set()  # the version only: any module may import it
    # each name in LAYERS is a real module or package (no stale entry)
    real = {m.removeprefix("koikoi_desktop.").split(".")[0] for m in graph}
    assert set(tops) <= real, set(tops) - real


def test_the_layer_check_names_an_upward_import() -> None:
    g = {
        "koikoi_desktop": set(),
        "koikoi_desktop.engine.cards": {"koikoi_desktop"},
        "koikoi_desktop.ai.base": {"koikoi_desktop.engine.cards", "koikoi_desktop.i18n"},
        "koikoi_desktop.i18n": {"koikoi_desktop.engine.cards"},
        "koikoi_desktop.scenes.title": {"koikoi_desktop.ai.base", "koikoi_desktop.ui.gfx"},
        "koikoi_desktop.ui.gfx": set(),
    }
    assert upward(g) == ["koikoi_desktop.ai.base (ai) imports koikoi_desktop.i18n (i18n)"]


def test_no_lower_layer_imports_a_higher_one() -> None:
    graph = import_graph()
    assert upward(graph) == [], "imports that go up a layer:\n" + "\n".join(upward(graph))
    # the rule the architecture names: the opponents import the engine only (and themselves),
    # and the one module that starts worker processes (the Expert thinks in one), which knows
    # nothing of the game: it imports no module of the package at all
    assert graph["koikoi_desktop.processes"] <= {"koikoi_desktop"}
    ai = {
        d
        for m, ds in graph.items()
        if m.startswith("koikoi_desktop.ai")
        for d in ds
        if not d.startswith("koikoi_desktop.ai")
    }
    allowed = {layer_of("koikoi_desktop.engine"), layer_of("koikoi_desktop.processes"), -1}
    assert {layer_of(d) for d in ai} <= allowed, ai
    assert UPWARD_ALLOWED == {}


def test_screen_packages_are_entered_only_by_the_router() -> None:
    graph = import_graph()
    for pkg in ENTERED_BY_THE_ROUTER:
        inside = {m for m in graph if m == pkg or m.startswith(pkg + ".")}
        assert len(inside) > 1, pkg  # the package and its modules are seen
        entering = {
            m
            for m, deps in graph.items()
            if m not in inside and deps & inside and m != "koikoi_desktop.scenes"
        }
        assert not entering, (pkg, sorted(entering))
