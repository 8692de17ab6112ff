"""The opt-in switch: a file in the user's config dir, project entry over user entry, off by default."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.capture import settings
from memhooks.errors import MemhooksError


def test_off_when_nothing_was_ever_turned_on(tmp_path: Path) -> None:
    path = str(tmp_path / "none" / "capture.json")
    loaded = settings.load(path)
    assert not settings.anything_on(loaded)
    assert settings.effective(loaded, "p") == (False, settings.DEFAULT)
    assert not os.path.exists(path)


def test_lives_in_the_xdg_config_dir(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "HOME": str(tmp_path)}
    assert settings.config_path(env) == str(tmp_path / "cfg" / "memhooks" / "capture.json")
    # The XDG spec: a relative XDG_CONFIG_HOME is ignored.
    env["XDG_CONFIG_HOME"] = "relative"
    assert settings.config_path(env) == str(tmp_path / ".config" / "memhooks" / "capture.json")


def test_project_entry_wins_over_the_user_entry(tmp_path: Path) -> None:
    path = str(tmp_path / "capture.json")
    settings.switch(True, settings.USER, path=path)
    settings.switch(False, settings.PROJECT, "github.com/acme/api", path=path)
    loaded = settings.load(path)
    assert settings.effective(loaded, "github.com/acme/api") == (False, settings.PROJECT)
    assert settings.effective(loaded, "github.com/acme/web") == (True, settings.USER)
    assert settings.anything_on(loaded)
    assert json.loads(Path(path).read_text("utf-8")) == {
        "version": 1,
        "user": True,
        "projects": {"github.com/acme/api": False},
    }


def test_one_project_on_leaves_the_others_off(tmp_path: Path) -> None:
    path = str(tmp_path / "capture.json")
    settings.switch(True, settings.PROJECT, "/srv/a", path=path)
    loaded = settings.load(path)
    assert settings.effective(loaded, "/srv/a") == (True, settings.PROJECT)
    assert settings.effective(loaded, "/srv/b") == (False, settings.DEFAULT)


def test_a_malformed_file_means_off_on_the_hook_path_and_an_error_for_the_command(
    tmp_path: Path,
) -> None:
    path = tmp_path / "capture.json"
    path.write_text('{"user": tru', encoding="utf-8")
    assert not settings.anything_on(settings.load(str(path)))
    with pytest.raises(MemhooksError, match=r"cannot read the capture settings .*capture\.json"):
        settings.switch(True, settings.USER, path=str(path))
    assert path.read_text("utf-8") == '{"user": tru'


def test_values_of_the_wrong_type_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "capture.json"
    path.write_text('{"user": "yes", "projects": {"a": 1, "b": true}}', encoding="utf-8")
    loaded = settings.load(str(path))
    assert loaded == {"user": None, "projects": {"b": True}}
