"""The house's layers, read from its own imports (docs/architecture.md): engine imports no service, the
metrics package imports nothing above it, and no two modules import each other round a circle (type-only
imports included: a circle there is a design knot even when Python would load it)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "services", "cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The project's modules `path` imports, absolute or relative, wherever in the file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {f for f in found if f.split(".")[0] in PACKAGES}


def graph() -> dict[str, set[str]]:
    files = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    modules = {module_name(p): p for p in files}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def test_engine_imports_no_service_and_no_command():
    edges = graph()
    wrong = {(a, b) for a, targets in edges.items() if a.startswith("engine") for b in targets
             if not b.startswith("engine")}
    assert not wrong, sorted(wrong)


def test_metrics_imports_nothing_above_it():
    edges = graph()
    wrong = {(a, b) for a, targets in edges.items() if a.startswith("services.metrics") for b in targets
             if not b.startswith(("services.metrics", "engine"))}
    assert not wrong, sorted(wrong)


def test_no_module_imports_round_a_circle():
    edges = graph()
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(edges[node]):
            if target.endswith("__init__") or edges.get(target) is None:
                continue
            if state.get(target) == 1 and not _package_of(node, target):
                circles.append(path[path.index(target):] + [target])
            elif state.get(target) is None:
                walk(target, path + [target])
        state[node] = 2

    for start in sorted(edges):
        if state.get(start) is None:
            walk(start, [start])
    assert not circles, circles


def _package_of(node: str, target: str) -> bool:
    """A package's __init__ that re-exports its modules, imported by one of them: a package, not a circle."""
    return node.startswith(target + ".")


def test_the_gateways_parts_import_as_its_map_says():
    """services/gateway/__init__.py: the top may import every part; routes and sockets import guards and
    links (never each other); guards import the error body and the socket frames only; links import the
    overload answer only; no part imports the top (app, plugin, wiring)."""
    allowed = {
        "routes": {"errors", "guards", "links"},
        "sockets": {"errors", "guards", "links"},
        "guards": {"errors", "sockets.messages"},
        "links": {"guards.overload"},
    }
    wrong = []
    for a, targets in graph().items():
        parts = a.split(".")
        if len(parts) < 4 or parts[:2] != ["services", "gateway"] or parts[2] not in allowed:
            continue
        for b in targets:
            if not b.startswith("services.gateway.") or b.split(".")[2] == parts[2]:
                continue
            inside = b.removeprefix("services.gateway.")
            if not any(inside == ok or inside.startswith(ok + ".") for ok in allowed[parts[2]]):
                wrong.append((a, b))
    assert not wrong, sorted(wrong)


def test_services_have_no_loose_modules():
    loose = [p.name for p in (ROOT / "services").glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"group these by capability (runtime/, identity/, ...): {loose}"
