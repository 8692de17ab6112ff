"""Write memhooks' plugins and extensions, and the marketplace manifests that list them,
from :mod:`memhooks.install.plugins` (the hosts' ``INSTALL`` rows, the skill, the version).

    python scripts/gen_plugins.py           # rewrite src/memhooks/plugins/ and the marketplaces
    python scripts/gen_plugins.py --check   # exit 1 when a committed file is out of date

Run it after changing a host's ``events`` (or anything else a plugin carries): the
plugins and ``memhooks agents install`` wire the same events, and
``tests/install/test_plugins.py`` fails until the committed files match.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from memhooks.install import plugins


def stale() -> tuple[dict[str, tuple[str, int]], list[Path]]:
    """(files to write, files to delete): what differs from the generated tree."""
    wanted = plugins.tree()
    write = {}
    for rel, (text, mode) in wanted.items():
        path = ROOT / rel
        if (
            not path.is_file()
            or path.read_text(encoding="utf-8") != text
            or (path.stat().st_mode & 0o111) != (mode & 0o111)
        ):
            write[rel] = (text, mode)
    folder = ROOT / plugins.IN_REPO
    extra = [p for p in folder.rglob("*") if p.is_file() and str(p.relative_to(ROOT)) not in wanted]
    return write, extra


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    write, extra = stale()
    if args.check:
        for rel in [*write, *(str(p.relative_to(ROOT)) for p in extra)]:
            print(f"out of date: {rel}")
        return 1 if write or extra else 0
    for rel, (text, mode) in write.items():
        path = ROOT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        os.chmod(path, mode)
        print(f"wrote {rel}")
    for path in extra:
        path.unlink()
        print(f"removed {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
