"""The lean install: serving needs only the project's dependencies (``make run``, the
Dockerfile); the test tools are the ``dev`` extra (``make test``). No Docker daemon runs here,
so the Dockerfile is checked by hadolint and against the same files as the Makefile."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions, requires
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
HADOLINT = Path(sys.executable).parent / "hadolint"


def name_of(requirement: str) -> str:
    return Requirement(requirement).name.lower().replace("_", "-")


def closure(names: set[str]) -> set[str]:
    """The distributions ``names`` need, themselves included (extras left out)."""
    found, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        for text in requires(name) or ():
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(name_of(text))
    return found


def imported_modules() -> set[str]:
    """The top-level modules the app's code imports."""
    modules = set()
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    return modules - set(sys.stdlib_module_names) - {"app"}


def test_the_app_imports_only_what_serving_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    serving = closure({name_of(text) for text in project["dependencies"]})
    dev = {name_of(text) for text in project["optional-dependencies"]["dev"]}
    assert not dev & {name_of(text) for text in project["dependencies"]}
    where = packages_distributions()
    for module in imported_modules():
        distributions = {name.lower().replace("_", "-") for name in where.get(module, ())}
        assert distributions & serving, f"app imports {module}, which serving does not install"


def recipe(makefile: str, target: str) -> str:
    match = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert match, target
    return match.group(1)


def test_make_run_and_the_image_install_the_same_without_the_test_tools():
    makefile = (ROOT / "Makefile").read_text()
    serving = recipe(makefile, "$(INSTALLED)")
    assert "pip install --quiet -e .\n" in serving and "[dev]" not in serving
    assert "'.[dev]'" in recipe(makefile, "$(DEV_INSTALLED)")
    assert re.search(r"^run: setup$", makefile, re.MULTILINE)
    assert re.search(r"^test: setup-dev", makefile, re.MULTILINE)
    # The Makefile's install depends on these files; the image's Python stage copies them in
    # before it installs, and installs the same way.
    inputs = re.search(r"^\$\(INSTALLED\): (.*)$", makefile, re.MULTILINE)
    assert inputs
    dockerfile = (ROOT / "Dockerfile").read_text()
    python_stage = dockerfile[dockerfile.index("AS app"):]
    before_install = python_stage[: python_stage.index("pip install")]
    copied = {part for line in re.findall(r"^COPY (.*)$", before_install, re.MULTILINE)
              for part in line.split()[:-1]}
    for needed in inputs.group(1).split():
        top = needed.split("/")[0]
        assert needed in copied or top in copied, f"the image installs without {needed}"
    assert re.search(r"pip install -e \.(\s|$)", python_stage)
    assert "[dev]" not in dockerfile


def test_the_dockerfile_passes_hadolint():
    checked = subprocess.run([str(HADOLINT), "--no-color", "Dockerfile"], cwd=ROOT,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
