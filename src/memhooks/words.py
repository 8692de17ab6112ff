"""Content words: what a piece of prose is about, as words — one rule for every place
memhooks compares prose by its words (a conversation's topics, :mod:`memhooks.transcripts`;
the prompt-time relevance floor, :mod:`memhooks.recall.floor`; a commit's message against
the prompt at line-level recall, :mod:`memhooks.recall.line_rank`).

Lower-cased words of three or more letters (and numbers), common words left out, plural
and verb endings taken off by a light stemmer (``windows`` and ``window``, ``merging`` and
``merge`` are one word); and the identifier-like words of a text (:func:`identifiers`).
Pure, no I/O.

No :mod:`re` on the way: the prompt hook reads words on every prompt (the relevance floor,
:mod:`memhooks.recall.floor`), and ``re`` with what it imports (``enum``, ``functools``,
``collections``) cost ~3 ms of CPU per prompt idle, ~6 ms at load 7, about a tenth of the
call (bench A/B against a513c91). The words are found with the C string methods instead
(ASCII bytes translated, then split), giving exactly what the patterns :data:`WORD` and
:data:`IDENTIFIER` find (``tests/test_words.py`` holds them equal); ``re`` itself is
loaded only for a text with a decimal digit outside ASCII, which the pattern's ``\\d``
also matches.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

#: What :func:`words` finds (as ``re.findall`` of this pattern would).
WORD = r"[A-Za-z][A-Za-z0-9_]{2,}|\d+(?:\.\d+)?"
#: What :func:`identifiers` finds (as ``re.findall`` of this pattern would).
IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
_DIGITS = "0123456789"
_UPPER = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_IDENT = "abcdefghijklmnopqrstuvwxyz" + _UPPER.decode() + "_" + _DIGITS


_ALL = bytes(range(256))


def _table(keep: str) -> bytes:
    """A :meth:`bytes.translate` table: the bytes of ``keep`` kept, every other a space
    (made by translating, not byte by byte: the prompt hook imports this)."""
    others = _ALL.translate(None, keep.encode("ascii"))
    return _ALL.translate(bytes.maketrans(others, b" " * len(others)))


_WORD_BYTES = _table(_IDENT + ".")
#: :data:`_WORD_BYTES` with the ASCII capitals made small.
_LOWER_WORD_BYTES = _WORD_BYTES.translate(bytes.maketrans(_UPPER, _UPPER.lower()))
_IDENT_BYTES = _table(_IDENT)
_ASCII = bytes(range(128))
_STOP = frozenset(
    """the and for that this with from have has had are was were will would should could
    can not but you your our its it's into onto then than them they their there here
    what when where which while who why how all any each every some more most much many
    also just only very really please thanks okay yes yeah sure let lets let's now again
    make made use using used want need does did done doing get got see look looks like
    one two way ways thing things sure fine good great about after before because over
    under out off too been being don't doesn't isn't aren't won't can't instead actually
    file files code change changes fix fixed test tests run runs added adds add now still
    welcome ok don doesn isn aren hello hey thank repo repository codebase""".split()  # noqa: SIM905
)


def content_words(text: str) -> frozenset[str]:
    """Lower-cased words of three or more letters (and numbers), common words left out,
    plural and verb endings taken off (``windows`` and ``window``, ``merging`` and ``merge``
    are one word).

    The prompt hook reads the words of the prompt, its queries and every memory its
    recall found (the relevance floor, :mod:`memhooks.recall.floor`; a query's credit,
    :mod:`memhooks.recall.credit`), so this is made cheap: each distinct run of word
    characters is read once, lower-cased by the translation table (the patterns' letters
    are ASCII), each word is stemmed once per process (:data:`_STEMS`) and each text read
    once (:data:`_TEXTS`: the floor and a query's credit read the same memories and
    queries). Measured with callgrind on 120 of the hook bench's memory texts: 17.3 M
    instructions before, 5.1 M (``tests/test_words.py`` holds it equal to the patterns'
    words, stemmed)."""
    known = _TEXTS.get(text)
    if known is not None:
        return known
    found = _lowered_words(text)
    found -= _STOP
    stems = _STEMS
    fresh = found.difference(stems)
    if len(stems) + len(fresh) > MOST_STEMS:  # a long-lived process starts afresh
        stems.clear()
        fresh = found
    for word in fresh:
        stems[word] = stem(word)
    if len(_TEXTS) >= MOST_TEXTS:
        _TEXTS.clear()
    known = _TEXTS[text] = frozenset(map(stems.__getitem__, found))
    return known


#: Most words whose stems :data:`_STEMS` keeps, and texts whose words :data:`_TEXTS` keeps
#: (a long-lived process, the MCP server or the Hermes plugin, starts afresh past them).
MOST_STEMS = 100_000
MOST_TEXTS = 1024
#: Each text's content words, once per process.
_TEXTS: dict[str, frozenset[str]] = {}
#: Each word's stem, once per process: the same words come again and again in the
#: memories one recall reads. Not ``functools.lru_cache``: ``functools`` is not on the
#: hook's path.
_STEMS: dict[str, str] = {}


def _lowered_words(text: str) -> set[str]:
    """The distinct words of ``text`` as :func:`words` finds them, lower-cased (each
    distinct run read once)."""
    if not text.isascii() and _other_digit(text):
        return {m.lower() for m in words(text)}
    found: set[str] = set()
    _each_word(set(_runs(text, _LOWER_WORD_BYTES)), found.add)
    return found


def stem(word: str) -> str:
    """``word`` without a plural or verb ending (a light stemmer: ``-ing``, ``-ed``,
    ``-es``, ``-s``, and a final ``e``), for words of more than four letters."""
    if len(word) <= 4 or word[-1] not in "dgse" or "_" in word or not word.isalpha():
        return word  # (no ending to take off ends in another letter)
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            word = word[: -len(ending)]
            if ending in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # overlapping -> overlap
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def words(text: str) -> list[str]:
    """The words and numbers of ``text`` in order: what ``re.findall(WORD, text)`` gives
    (a word: an ASCII letter, then two or more ASCII letters, digits or ``_``; a number:
    decimal digits, with a fraction after a ``.``)."""
    if not text.isascii() and _other_digit(text):
        import re  # \d's own rule for the digits of other scripts

        return re.findall(WORD, text)
    out: list[str] = []
    _each_word(_runs(text, _WORD_BYTES), out.append)
    return out


def _each_word(runs: Iterable[str], add: Callable[[str], object]) -> None:
    """``add`` each word and number of ``runs`` (:func:`_runs` of ASCII letters, digits,
    ``_`` and ``.``) in order: a run of letters alone is a word when it has three or
    more; any other is scanned (:func:`_scan`)."""
    for run in runs:
        if not run.isalpha():
            run = run.strip(".")  # a dot at either end is part of no word or number
            if not run.isalpha():
                if run:
                    _scan(run, add)
                continue
        if len(run) >= 3:
            add(run)


def identifiers(text: str) -> list[str]:
    """The identifier-like words of ``text`` in order: what ``re.findall(IDENTIFIER,
    text)`` gives (``tests/test_x.py::test_y`` gives ``tests``, ``test_x``, ``py``,
    ``test_y``): each run of ASCII letters, digits and ``_``, without its leading digits."""
    return [word for run in _runs(text, _IDENT_BYTES) if (word := run.lstrip(_DIGITS))]


def _runs(text: str, table: bytes) -> list[str]:
    """The runs of ``text`` made of the ASCII characters ``table`` keeps (any other
    character, ASCII or not, ends a run)."""
    return text.encode("ascii", "replace").translate(table).decode("ascii").split()


def _other_digit(text: str) -> bool:
    """Whether ``text`` holds a decimal digit outside ASCII (``٣``, ``３``)."""
    others = text.encode("utf-8", "surrogatepass").translate(None, _ASCII)
    return any(map(str.isdecimal, others.decode("utf-8", "surrogatepass")))


def _scan(run: str, add: Callable[[str], object]) -> None:
    """``add`` each word and number of ``run`` (ASCII letters, digits, ``_`` and inner
    ``.``) in order, scanning as the pattern :data:`WORD` does: a word runs to the end of
    the letters, digits and ``_`` it starts, when that is three or more; a number is its
    digits, and a ``.`` and digits after them."""
    end = len(run)
    at = 0
    while at < end:
        char = run[at]
        if char.isalpha():
            stop = at + 1
            while stop < end and run[stop] in _IDENT:
                stop += 1
            if stop - at >= 3:
                add(run[at:stop])
                at = stop
            else:
                at += 1
        elif char in _DIGITS:
            stop = at + 1
            while stop < end and run[stop] in _DIGITS:
                stop += 1
            if stop + 1 < end and run[stop] == "." and run[stop + 1] in _DIGITS:
                stop += 2
                while stop < end and run[stop] in _DIGITS:
                    stop += 1
            add(run[at:stop])
            at = stop
        else:
            at += 1


def code_word(word: str) -> bool:
    """A word only code is named by: ``snake_case`` / ``UPPER_CASE`` (an inner ``_``) or
    ``camelCase`` / ``CamelCase`` (a capital after a small letter, or an acronym
    beginning one: ``HTTPAdapter``). Not an acronym (``API``, ``README``, ``APIs``) or a
    number (``10``): prose says those of many things."""
    inner = word.strip("_")
    if "_" in inner:
        return True
    # a capital after a small letter is past the first letter: a word with none there
    # ("How", every content word) is no camelCase (zip, not itertools.pairwise:
    # itertools is no other module of the prompt hook's)
    if inner[1:].islower():
        return False
    if any(a.islower() and b.isupper() for a, b in zip(inner, inner[1:])):  # noqa: RUF007
        return True
    # an acronym that begins a CamelCase name — HTTPAdapter, URLError, IOError: two
    # capitals, then a capital and two small letters —; not a plural (APIs, URLs), nor
    # a product's name (OAuth, IPv4, MBps)
    return any(
        inner[i : i + 3].isupper() and inner[i + 3 : i + 5].isalpha()
        and inner[i + 3 : i + 5].islower()
        for i in range(len(inner) - 4)
    )  # fmt: skip


#: Characters around a name in prose that are not part of it (quotes, brackets, the
#: punctuation that ends a clause).
_AROUND = "`'\"()[]{}<>,;:!?*"


def code_names(text: str) -> list[str]:
    """The names of code a text says, in order, each once: a :func:`code_word`
    (``no_proxy``, ``mergeWindows``), a dotted name (``os.environ``,
    ``requests.Session.send``: two or more parts of two or more characters, each
    beginning with a letter), a path (``src/requests/utils.py``: a ``/`` between word
    characters, naming a file or two or more folders) and what is written between
    backquotes (```` `proxies` ````). Prose
    around them — quotes, brackets, a clause's end — is not part of the name; a dot
    that ends a sentence is not a dotted name (``e.g.`` is none either)."""
    found: dict[str, None] = {}
    quoted = text.split("`")
    for inside in quoted[1:-1:2]:  # between a pair of backquotes
        if inside.strip() and len(inside) <= 80 and identifiers(inside):
            found.setdefault(inside.strip(), None)
    for token in text.split():
        name = token.strip(_AROUND).rstrip(".")
        if not identifiers(name):
            continue
        parts = name.split(".")
        dotted = len(parts) > 1 and all(
            len(part) >= 2 and part[0].isalpha() and part.replace("_", "a").isalnum()
            for part in parts
        )
        path = name.isascii() and (name.count("/") > 1 or "." in name.rpartition("/")[2])
        path = path and "/" in name.strip("/")  # a file's path; not "and/or", "TCP/IP"
        if dotted or path or any(code_word(word) for word in identifiers(name)):
            found.setdefault(name, None)
    return list(found)
