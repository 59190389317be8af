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
"""

from __future__ import annotations

import ast
from pathlib import Path

import koikoi_desktop

ROOT = Path(koikoi_desktop.__file__).parent

#: Circles tolerated for now: none. Nothing may be added here.
KNOWN: list[frozenset[str]] = []


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
