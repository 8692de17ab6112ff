"""The wheel and the sdist build cleanly from the checkout and carry everything the package
needs at run time: the skill, the schemas, the plugins and extensions with their
marketplaces (the plugins' ``bin/memhooks`` executable), under memhooks' one version."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import memhooks
from memhooks.install import plugins

ROOT = Path(__file__).resolve().parents[2]


def _checkout_copy(into: Path) -> Path:
    """The files git would commit (tracked, and new ones not ignored), copied under ``into``:
    the build then sees neither a stale ``build/`` or ``*.egg-info`` of the checkout (a module
    deleted from ``src`` would still ship from ``build/lib``) nor another build or ``pip
    install -e`` writing there at the same time, and it leaves the checkout unwritten."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout  # fmt: skip
    copy = into / "checkout"
    for rel in filter(None, listed.decode().split("\0")):
        source = ROOT / rel
        if source.is_file():  # a tracked file deleted in the work tree is not shipped
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / rel)
    return copy


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and wheel, built in this environment (no isolated build: no download) from a
    copy of the checkout's files."""
    out = tmp_path_factory.mktemp("dist")
    source = _checkout_copy(tmp_path_factory.mktemp("source"))
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return out


def test_the_wheel_carries_the_skill_the_schemas_and_the_plugins(dist: Path) -> None:
    (wheel,) = dist.glob(f"memhooks-{memhooks.__version__}-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = {info.filename: info for info in archive.infolist()}
        metadata = archive.read(f"memhooks-{memhooks.__version__}.dist-info/METADATA").decode()
    assert f"\nVersion: {memhooks.__version__}\n" in metadata
    shipped = ROOT / "src"
    for folder, pattern in (("memhooks/skill", "*.md"), ("memhooks/schemas", "*.json")):
        wanted = {str(p.relative_to(shipped)) for p in (shipped / folder).rglob(pattern)}
        assert wanted and wanted <= set(names), wanted - set(names)
    for rel, (_, mode) in plugins.tree().items():
        if not rel.startswith(plugins.IN_REPO + "/"):
            continue  # the repository's own marketplaces, for a clone
        name = "memhooks/" + rel[len("src/memhooks/") :]
        assert name in names, name
        assert bool(names[name].external_attr >> 16 & 0o111) == bool(mode & 0o111), name


def test_the_sdist_carries_the_sources_of_everything(dist: Path) -> None:
    (sdist,) = dist.glob(f"memhooks-{memhooks.__version__}.tar.gz")
    with tarfile.open(sdist) as archive:
        names = set(archive.getnames())
    prefix = f"memhooks-{memhooks.__version__}/"
    for rel in plugins.tree():
        if rel.startswith(plugins.IN_REPO + "/"):
            assert prefix + rel in names, rel
    assert prefix + "src/memhooks/skill/SKILL.md" in names
