"""The payload decoder is json.loads, only cheaper to load (memhooks.fast.jsonfast)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memhooks.fast.jsonfast import loads

PAYLOADS = sorted((Path(__file__).parent.parent / "agents" / "data" / "payloads").rglob("*.json"))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.parametrize("path", PAYLOADS, ids=lambda p: p.name)
def test_every_recorded_payload_decodes_as_json_loads_does(path: Path) -> None:
    raw = path.read_bytes()
    assert loads(raw) == json.loads(raw)


@given(JSON_VALUES, st.sampled_from(["", " ", "\n\t "]))
def test_any_value_decodes_as_json_loads_does(value: object, pad: str) -> None:
    text = pad + json.dumps(value, ensure_ascii=False) + pad
    assert loads(text.encode("utf-8")) == json.loads(text)


@pytest.mark.parametrize("raw", [b"{oops", b'{"a": 1', b"[1, 2,]", b"Nan", b'"\\x"'])
def test_errors_are_json_loads_errors(raw: bytes) -> None:
    with pytest.raises(json.JSONDecodeError) as fast:
        loads(raw)
    with pytest.raises(json.JSONDecodeError) as slow:
        json.loads(raw)
    assert (fast.value.msg, fast.value.pos) == (slow.value.msg, slow.value.pos)


def test_a_bom_and_extra_values() -> None:
    assert loads(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}
    assert loads(b'{"a": 1} {"b": 2}') == {"a": 1}
    assert loads('{"a": "\\u00e9"}'.encode("utf-16")) == {"a": "é"}  # json.loads' encodings


def test_decoding_a_payload_loads_neither_json_decoder_nor_re() -> None:
    probe = (
        "import sys\nfrom memhooks.fast.jsonfast import loads\n"
        "assert loads(b'{\"a\": [1, 2.5, null, true, \"x\"]}') == {'a': [1, 2.5, None, True, 'x']}\n"
        "print(sorted(m for m in ('json.decoder', 're') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout == "[]\n", done.stderr


@given(JSON_VALUES, st.booleans(), st.sampled_from([None, (",", ":"), (", ", ": ")]), st.booleans())
def test_any_value_encodes_as_json_dumps_does(value: object, ascii_only: bool, separators: tuple[str, str] | None, sort: bool) -> None:
    from memhooks.fast.jsonfast import dumps

    options = {"ensure_ascii": ascii_only, "separators": separators, "sort_keys": sort}
    assert dumps(value, **options) == json.dumps(value, **options)  # type: ignore[arg-type]


def test_encoding_errors_are_json_dumps_errors() -> None:
    from memhooks.fast.jsonfast import dumps

    with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
        dumps(float("nan"), allow_nan=False)
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        dumps({1})
