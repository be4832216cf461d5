"""The layout holds: packages import downward only, no import cycle, short files, nothing hidden in __init__.py.

Every import of the project's own modules is read from the source with `ast`, at module level and inside
functions alike (an import moved into a function to dodge a cycle is still an edge of the graph).
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Lower layers never import higher ones; a layer's members may import each other only without a cycle.
LAYERS = [
    {"models", "hebrew", "accounts", "configuration"},
    {"storage"},
    {"search"},
    {"postgres"},
    {"question"},
    {"checks"},
    {"ingest"},
    {"writers"},
    {"retrieval", "generator"},
    {"pipeline"},
    {"web", "measuring", "training", "benchmarks", "authoring"},
    {"app"},
]
TOP_LEVEL = {"README.md", "requirements.txt", "app.py", "pipeline.py", "models.py", "retrieval.py", "generator.py",
             "static", "data", "query_classifier_model", "tests",
             "Makefile", "package.json", "package-lock.json", "pytest.ini", "docs"}
MAX_LINES = 300


def source_files() -> list[Path]:
    """The project's Python files (code and tests), without the virtualenv and caches."""
    skip = {".venv", "node_modules", "__pycache__", ".git"}
    return sorted(p for p in ROOT.rglob("*.py") if not skip & set(p.relative_to(ROOT).parts))


def module_name(path: Path) -> str:
    """search/library.py -> search.library; app.py -> app."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    """Every importable module of the project (not the tests), by dotted name."""
    return {module_name(p): p for p in source_files() if p.relative_to(ROOT).parts[0] != "tests"}


def imports_of(path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules that path imports, anywhere in the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in modules}
    return found


def graph() -> dict[str, set[str]]:
    """module -> the project modules it imports (a package's __init__ is not counted as a dependency)."""
    modules = project_modules()
    edges = {}
    for name, path in modules.items():
        targets = imports_of(path, modules) - {name}
        edges[name] = {t for t in targets if modules[t].name != "__init__.py" or t == name}
    return edges


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == "open":
                return stack[stack.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        state[node] = "done"
        stack.pop()
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def layer(module: str) -> int:
    """The layer of a module's package (or top-level file)."""
    top = module.split(".")[0]
    return next(i for i, members in enumerate(LAYERS) if top in members)


def test_every_module_belongs_to_a_layer():
    unplaced = sorted({m.split(".")[0] for m in project_modules()} - set().union(*LAYERS))
    assert not unplaced, f"add {unplaced} to LAYERS"


def test_no_import_cycle_between_modules():
    assert cycle(graph()) is None


def test_no_import_cycle_between_packages():
    edges = graph()
    packages = {}
    for source, targets in edges.items():
        packages.setdefault(source.split(".")[0], set()).update(t.split(".")[0] for t in targets)
    assert cycle({p: targets - {p} for p, targets in packages.items()}) is None


def test_imports_point_down():
    upward = sorted(f"{source} imports {target}" for source, targets in graph().items() for target in targets
                    if layer(target) > layer(source))
    assert not upward


def test_the_cycle_finder_finds_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_files_are_short():
    lengths = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in source_files()}
    assert {path: n for path, n in lengths.items() if n > MAX_LINES} == {}


def test_package_init_files_hold_only_their_docstring():
    for init in ROOT.glob("*/__init__.py"):
        body = ast.parse(init.read_text(encoding="utf-8")).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), init


def test_the_top_level_holds_the_fixed_files_and_the_packages():
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    visible = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")} - {"node_modules", "test-output"}
    assert visible - packages - TOP_LEVEL == set()
    assert packages == set().union(*LAYERS) - {"models", "retrieval", "generator", "pipeline", "app"}


def test_each_package_map_lists_every_module():
    """A package's __init__.py docstring names each of its modules (and sub-packages, as name/)."""
    missing = []
    for init in sorted(p for p in source_files() if p.name == "__init__.py" and p.relative_to(ROOT).parts[0] != "tests"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        members = [p.name for p in init.parent.glob("*.py") if p.name != "__init__.py"]
        members += [d.name + "/" for d in init.parent.iterdir() if (d / "__init__.py").exists()]
        missing += [f"{init.parent.relative_to(ROOT)}/{m}" for m in members if m not in doc]
    assert missing == []
