"""simgui.core must import and work with no Qt or pyqtgraph installed."""

import subprocess
import sys
import textwrap


def test_core_works_without_qt():
    code = textwrap.dedent("""
        import sys, importlib.abc

        class NoGui(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("PySide6", "PyQt5", "PyQt6", "pyqtgraph", "superqt"):
                    raise ImportError(f"{name} is blocked: the core must not need it")
                return None

        sys.meta_path.insert(0, NoGui())
        import simgui.core, simgui.core.reading.scanner, simgui.core.store, simgui.core.search.keys
        import simgui.cli
        table = simgui.core.sum_table(b"the tee\\x00\\x00")
        assert table.sum() > 0
        gui = [m for m in sys.modules if m.split(".")[0] in ("PySide6", "pyqtgraph")]
        assert not gui, gui
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_core_sources_never_mention_qt():
    import pathlib

    import simgui.core
    root = pathlib.Path(simgui.core.__file__).parent
    for source in root.rglob("*.py"):
        text = source.read_text()
        for name in ("PySide6", "PyQt", "pyqtgraph", "superqt"):
            assert f"import {name}" not in text and f"from {name}" not in text, source


# -- the import graph -----------------------------------------------------------------

import ast  # noqa: E402
import pathlib  # noqa: E402

_PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "simgui"


def _module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: pathlib.Path = _PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports, at any depth of its code
    (imports inside functions count: they are circles all the same, only later)."""
    files = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                while name and name not in files:
                    name = name.rpartition(".")[0]
                # a package's own __init__ runs before its modules: not an edge back to it
                if name and name != module and not module.startswith(name + "."):
                    graph[module].add(name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_in_simgui():
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle_inside_a_function(tmp_path):
    package = tmp_path / "simgui"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from simgui import b\n")
    (package / "b.py").write_text("def f():\n    from simgui.a import x\n")
    (package / "c.py").write_text("import simgui.a\n")
    assert circles(import_graph(package)) == [["simgui.a", "simgui.b"]]


# the stages of the core, in pipeline order: a stage may import earlier stages and the
# shared modules, never a later stage
_STAGES = ["simgui.core.reading", "simgui.core.store", "simgui.core.search",
           "simgui.core.cleanup"]
_ALLOWED = {  # a stage -> the stages it may import
    "simgui.core.store": set(),  # the store knows nothing of kernels, searches or clean-up
    "simgui.core.reading": {"simgui.core.store"},  # the scan writes what it read there
    "simgui.core.search": {"simgui.core.reading", "simgui.core.store"},
    "simgui.core.cleanup": {"simgui.core.search", "simgui.core.store"},
}


def _stage(module: str) -> str | None:
    return next((s for s in _STAGES if module == s or module.startswith(s + ".")), None)


def test_core_stages_import_down_the_pipeline_only():
    graph = import_graph()
    wrong = []
    for module, imported in graph.items():
        if not module.startswith("simgui.core"):
            continue
        for other in imported:
            if not other.startswith("simgui.core"):
                wrong.append((module, other))  # the core never imports the window or the CLI
                continue
            mine, theirs = _stage(module), _stage(other)
            if mine and theirs and mine != theirs and theirs not in _ALLOWED[mine]:
                wrong.append((module, other))
    assert wrong == []


def test_shared_core_modules_import_no_stage():
    # tags, progress, units, folders, ... are used by every stage: they depend on none
    # (settings and the package's own __init__ gather defaults and the public API)
    graph = import_graph()
    shared = [m for m in graph if m.startswith("simgui.core.") and _stage(m) is None
              and m not in ("simgui.core.settings",)]
    assert shared, "no shared modules found: the test looks in the wrong place"
    wrong = {m: sorted(o for o in graph[m] if _stage(o)) for m in shared}
    assert {m: o for m, o in wrong.items() if o} == {}


# -- simgui.cluster: a layer above the core, like the command line ------------------------

_CLUSTER_LIBRARIES = ("dask", "distributed", "pyarrow")


def test_the_cluster_package_imports_only_the_core():
    graph = import_graph()
    cluster = [m for m in graph if m == "simgui.cluster" or m.startswith("simgui.cluster.")]
    assert cluster, "no simgui.cluster modules found: the test looks in the wrong place"
    wrong = {m: sorted(o for o in graph[m] if not o.startswith(("simgui.core", "simgui.cluster")))
             for m in cluster}
    assert {m: o for m, o in wrong.items() if o} == {}
    users = sorted(m for m, imported in graph.items()
                   if m not in cluster and any(o.startswith("simgui.cluster") for o in imported))
    assert users == ["simgui.cli_cluster"]  # never the core, the window or cli.py itself


def test_only_the_cluster_layer_names_dask_or_pyarrow():
    wrong = []
    for path in _PACKAGE.rglob("*.py"):
        module = _module_name(path, _PACKAGE)
        if module.startswith("simgui.cluster") or module == "simgui.cli_cluster":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            wrong += [(module, n) for n in names if n.split(".")[0] in _CLUSTER_LIBRARIES]
    assert wrong == []


def test_the_command_line_starts_without_dask_or_pyarrow():
    code = textwrap.dedent("""
        import sys
        import simgui.cli, simgui.core.search.analysis, simgui.cluster
        simgui.cli.build_parser()
        loaded = sorted({m.split(".")[0] for m in sys.modules} & {"dask", "distributed",
                                                                  "pyarrow"})
        print(loaded)
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
