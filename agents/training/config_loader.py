"""One loader for every YAML config of the project: training, RLlib training, tournaments, studies.

Reading (:func:`load_yaml`, :func:`read_yaml`): a missing or unreadable file, bytes that are not
UTF-8, invalid YAML, a key given twice, a file nested too deeply or one whose aliases expand to
more than :data:`MAX_VALUES` values (a "billion laughs" file) are problems of the file, found
before anything is built from it.

Checking (:func:`check_shape`): every config is a pydantic dataclass with ``extra="forbid"``
and strict types (no string read as a number, a bool is not an integer, an integer is fine
where a number is asked for). pydantic's errors are translated into one style,

    ``<dotted key>: <what is wrong>; allowed: <what is allowed>``

e.g. ``ppo.n_steps: wrong type: str '64'; allowed: an integer from 1 to 1000000``, and every
problem of a file is reported at once in one :class:`ConfigError`, whose message names the
file. A value shown in a message is cut to :data:`MAX_SHOWN` characters, a problem to
:data:`MAX_PROBLEM`, and a message lists at most :data:`MAX_LISTED` problems (and at most
:data:`MAX_MESSAGE` characters of them), then counts the rest.

Then each config checks what its types cannot say (the game exists, its options build an
environment, the agents exist, ...), on the parts whose shape was right, so that those
problems are reported together with the shape problems. :func:`game_info` and
:func:`agent_problems` are the checks every config kind shares.
"""

import dataclasses
import functools
import math
import os
import reprlib
import types
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any, Literal

import annotated_types as at
import yaml
from pydantic import AfterValidator, AllowInfNan, BeforeValidator, ConfigDict, Strict, TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError

# -- limits ---------------------------------------------------------------------------------

MAX_FILE_BYTES = 1 << 20  # a config file is text of a few KB; more is a mistake
MAX_VALUES = 10_000  # values in a file once its YAML aliases are expanded
MAX_DEPTH = 50  # levels of nesting
MAX_SHOWN = 80  # characters of a value shown in a message
MAX_PROBLEM = 400  # characters of one problem
MAX_LISTED = 50  # problems listed in a message; the rest are counted
MAX_MESSAGE = 5000  # characters of the problems listed in a message
SEED_MAX = 2**32 - 1  # seeds are unsigned 32-bit integers
MAX_DEALS = 10**7  # deals of a tournament or an evaluation
MAX_STEPS = 10**10  # training steps (and the step counts between events)
MAX_GAMES = 10**8  # games a tournament may schedule (they are listed in memory)

# pydantic settings of every config dataclass
CONFIG = ConfigDict(extra="forbid")


class ConfigError(ValueError):
    """A config with problems. ``problems`` lists ``"key.path: what is wrong; allowed: …"``
    messages, every problem of the file; the message names the file (``source``) and lists
    the first :data:`MAX_LISTED` problems."""

    def __init__(self, problems: Iterable[str], source: str = "config", what: str = "config"):
        self.problems = [cut(str(p), MAX_PROBLEM) for p in problems]
        self.source = str(source)
        self.what = what
        super().__init__(self._message())

    def _message(self) -> str:
        n = len(self.problems)
        head = f"{cut(self.source, 300)}: invalid {self.what}" + (f", {n} problems:" if n != 1 else ":")
        lines, size = [], len(head)
        for problem in self.problems[:MAX_LISTED]:
            if size + len(problem) > MAX_MESSAGE:
                break
            lines.append(problem)
            size += len(problem) + 3
        if len(lines) < n:
            lines.append(f"… and {n - len(lines)} more")
        return "\n  ".join([head, *lines])

    def __reduce__(self):  # pickles (e.g. from a worker process) with its problems
        return type(self), (self.problems, self.source, self.what)


# -- showing values -------------------------------------------------------------------------

_REPR = reprlib.Repr()
_REPR.maxstring = MAX_SHOWN
_REPR.maxother = MAX_SHOWN
_REPR.maxlong = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxfrozenset = 6
_REPR.maxdict = 4
_REPR.maxlevel = 3
_KINDS = {str: "str", int: "int", float: "float", list: "list", tuple: "list", dict: "mapping", set: "set"}


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(value: Any) -> str:
    """A value as a message shows it: its kind and a short repr, ``str 'many'``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"bool {'true' if value else 'false'}"
    kind = _KINDS.get(type(value), type(value).__name__)
    try:
        text = _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails (a huge int, a strange object) is not shown
        text = "…"
    return cut(f"{kind} {text}", MAX_SHOWN)


def plain(value: Any) -> Any:
    """Tuples to lists, recursively: the form JSON and YAML give back."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


# -- reading a file -------------------------------------------------------------------------

_UNREAD = object()  # what load_yaml gives for a file it could not read at all


class _Refused(Exception):
    def __init__(self, problem: str):
        self.problem = problem


def load_yaml(path: str | os.PathLike) -> tuple[Any, list[str]]:
    """A YAML file's data and the problems of the file. When the file cannot be read the data
    is a sentinel and the problems say why (see :func:`read_yaml`); a key given twice is a
    problem, but the data (the last value) is still given, to be checked with the rest."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return _UNREAD, ["the file: not found; allowed: the path of an existing YAML file"]
    except OSError as error:
        return _UNREAD, [f"the file: cannot be read ({error.strerror}); allowed: a readable YAML file"]
    if path.is_dir():
        return _UNREAD, ["the file: is a directory; allowed: the path of a YAML file"]
    if size > MAX_FILE_BYTES:
        return _UNREAD, [f"the file: too large ({size} bytes); allowed: at most {MAX_FILE_BYTES} bytes"]
    try:
        raw = path.read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError as error:
        return _UNREAD, [f"the file: cannot be read ({error.strerror}); allowed: a readable YAML file"]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return _UNREAD, [f"the file: not UTF-8 text (byte 0x{raw[error.start]:02x} at line {line}, column {column}); "
                         "allowed: UTF-8 text"]
    try:
        return parse_yaml(text)
    except _Refused as refused:
        return _UNREAD, [refused.problem]


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing to compose a node nested deeper than MAX_DEPTH (its
    composer recurses: a file of a few KB of brackets would exhaust the stack)."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH + 1:
                raise _too_deep()
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


# libyaml's parser where PyYAML has it (fast on any input), else PyYAML's own
_FAST_LOADER = getattr(yaml, "CSafeLoader", None) or _Loader


def _too_deep() -> _Refused:
    return _Refused(f"the file: nested more than {MAX_DEPTH} levels deep; allowed: at most {MAX_DEPTH} levels")


def _not_yaml(error: yaml.YAMLError) -> _Refused:
    return _Refused(f"the file: not valid YAML ({_yaml_error(error)}); allowed: a YAML mapping of keys to values")


def _check_depth(text: str) -> None:
    """Refuse text nested deeper than MAX_DEPTH, from the parser's events (no recursion)."""
    loader = _FAST_LOADER(text)
    try:
        depth = 0
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _too_deep()
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as error:
        raise _not_yaml(error) from None
    finally:
        loader.dispose()


def parse_yaml(text: str) -> tuple[Any, list[str]]:
    """YAML text's data and its duplicate-key problems; :class:`_Refused` for text that gives
    no data (invalid YAML, too deep, too big once aliases are expanded)."""
    _check_depth(text)
    loader = _FAST_LOADER(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.YAMLError as error:
            raise _not_yaml(error) from None
        if node is None:
            return None, []
        _measure(node)
        problems = _duplicate_keys(node)
        try:
            data = loader.construct_document(node)
        except yaml.YAMLError as error:
            raise _not_yaml(error) from None
        except (ValueError, TypeError, OverflowError, RecursionError) as error:  # e.g. an int of 10,000 digits
            raise _Refused(f"the file: a value cannot be read ({cut(str(error), 120)}); "
                           "allowed: plain YAML values") from None
        return data, problems
    finally:
        loader.dispose()


def read_yaml(path: str | os.PathLike, what: str = "config") -> Any:
    """A YAML file's data; :class:`ConfigError` naming the file for any problem of the file."""
    data, problems = load_yaml(path)
    if problems:
        raise ConfigError(problems, str(path), what)
    return data


def load_checked(path: str | os.PathLike, check: Callable[[Any], tuple[Any, list[str]]], what: str = "config") -> Any:
    """Read a YAML file and ``check`` its data (``data -> (value, problems)``): the value, or one
    :class:`ConfigError` naming the file with every problem, the file's and the data's."""
    data, problems = load_yaml(path)
    if data is _UNREAD:
        raise ConfigError(problems, str(path), what)
    value, found = check(data)
    if problems or found:
        raise ConfigError([*problems, *found], str(path), what)
    return value


def _yaml_error(error: yaml.YAMLError) -> str:
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or str(error)
    where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return cut(" ".join(str(problem).split()), 160) + where


def _measure(root: yaml.Node) -> None:
    """Refuse a node graph that is too deep, refers to itself, or expands (aliases repeated)
    to more than MAX_VALUES values. Each node is measured once: linear in the file's size."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()

    def size(node: yaml.Node, depth: int) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in open_:
            raise _Refused("the file: a YAML alias refers to a value that contains it; allowed: aliases of other values")
        if depth > MAX_DEPTH:
            raise _too_deep()
        open_.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        else:
            children = []
        for child in children:
            total += size(child, depth + 1)
            if total > MAX_VALUES:
                raise _Refused(f"the file: more than {MAX_VALUES} values (YAML aliases expanded); "
                               f"allowed: at most {MAX_VALUES} values")
        open_.discard(key)
        sizes[key] = total
        return total

    size(root, 0)


def _duplicate_keys(root: yaml.Node) -> list[str]:
    problems: list[str] = []
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, f"{path}[{i}]") for i, child in reversed(list(enumerate(node.value))))
        elif isinstance(node, yaml.MappingNode):
            lines: dict[tuple[str, str], int] = {}  # (tag, text) of a key -> its line: 1 and '1' differ
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    name = f"{path}.{key.value}" if path else str(key.value)
                    seen_at, line = lines.get((key.tag, key.value)), key.start_mark.line + 1
                    if seen_at is not None:
                        at_ = f"lines {seen_at} and {line}" if line != seen_at else f"both on line {line}"
                        problems.append(f"{cut(name, 120)}: given twice ({at_}); allowed: each key once")
                    lines[(key.tag, key.value)] = line
                    stack.append((value, name))
    return problems


# -- types of config fields -------------------------------------------------------------------


class Allowed:
    """Annotated metadata: how a message describes what a field allows (text, or a function
    giving it when the message is written)."""

    def __init__(self, text: str | Callable[[], str]):
        self._text = text

    def text(self) -> str:
        return self._text() if callable(self._text) else self._text


def cores() -> int:
    """This machine's cores: the most worker processes a config may ask for."""
    return os.cpu_count() or 1


def _within_cores(value: int) -> int:
    if value > cores():
        raise PydanticCustomError("too_many_workers", "more workers than this machine's {cores} cores", {"cores": cores()})
    return value


def _as_tuple(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(value)
    raise PydanticCustomError("list_type", "not a list")


def _null_as_empty(value: Any) -> Any:
    return {} if value is None else value


def Integer(low: int | None = None, high: int | None = None, *, allowed: str | None = None) -> Any:  # noqa: N802
    """An integer (never a bool, never a string) from ``low`` to ``high``."""
    meta: list[Any] = [Strict()]
    meta += [at.Ge(low)] if low is not None else []
    meta += [at.Le(high)] if high is not None else []
    meta += [Allowed(allowed)] if allowed else []
    return Annotated[int, *meta]


def Number(low: float | None = None, high: float | None = None, *, above: float | None = None,  # noqa: N802
           allowed: str | None = None) -> Any:
    """A finite number (an integer is fine, a bool or a string is not): ``>= low`` (or
    ``> above``), ``<= high``. Read as a float."""
    meta: list[Any] = [Strict(), AllowInfNan(False)]
    meta += [at.Ge(low)] if low is not None else []
    meta += [at.Gt(above)] if above is not None else []
    meta += [at.Le(high)] if high is not None else []
    meta += [Allowed(allowed)] if allowed else []
    return Annotated[float, *meta]


def ListOf(item: Any, *, min_items: int = 0, max_items: int | None = None, allowed: str | None = None) -> Any:  # noqa: N802
    """A YAML list (kept as a tuple) of ``item``."""
    meta: list[Any] = [BeforeValidator(_as_tuple)]
    meta += [at.MinLen(min_items)] if min_items else []
    meta += [at.MaxLen(max_items)] if max_items is not None else []
    meta += [Allowed(allowed)] if allowed else []
    return Annotated[tuple[item, ...], *meta]


def MapOf(value: Any, *, allowed: str | None = None) -> Any:  # noqa: N802
    """A mapping of non-empty string keys to ``value``; null reads as an empty mapping."""
    meta: list[Any] = [BeforeValidator(_null_as_empty)]
    meta += [Allowed(allowed)] if allowed else []
    return Annotated[dict[Text, value], *meta]


Flag = Annotated[bool, Strict()]
Text = Annotated[str, Strict(), at.MinLen(1)]
Seed = Integer(0, SEED_MAX)
Workers = Annotated[int, Strict(), at.Ge(1), AfterValidator(_within_cores),
                    Allowed(lambda: f"an integer from 1 to {cores()} (this machine's cores)")]
AgentSpec = Annotated[str, Strict(), at.MinLen(1),
                      Allowed("an agent spec: random, a heuristic's name, ppo:<checkpoint> or rllib:<checkpoint>")]


def _game_names() -> str:
    from bluff_envs.registry import GAMES

    return "a game name: " + ", ".join(GAMES)


GameName = Annotated[str, Strict(), at.MinLen(1), Allowed(_game_names)]


def _safe_name(value: str) -> str:
    if "/" in value or "\\" in value or "\0" in value or value in (".", ".."):
        raise PydanticCustomError("unsafe_name", "a name that leads outside its run directory")
    return value


SafeName = Annotated[str, Strict(), at.MinLen(1), at.MaxLen(200), AfterValidator(_safe_name),
                     Allowed("a non-empty name of at most 200 characters, without '/' or '\\', not '.' or '..'")]


# -- describing a type ----------------------------------------------------------------------


def _unwrap(kind: Any) -> tuple[Any, list[Any]]:
    meta: list[Any] = []
    while typing.get_origin(kind) is Annotated:
        meta = [*kind.__metadata__, *meta]
        kind = kind.__origin__
    return kind, meta


def _members(kind: Any) -> tuple[list[Any], bool] | None:
    """A union's members other than None, and whether None is one; None if not a union."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        args = typing.get_args(kind)
        return [a for a in args if a is not type(None)], type(None) in args
    return None


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e16 else repr(x)


def _bounds(meta: list[Any]) -> str:
    low = next((m.ge for m in meta if isinstance(m, at.Ge)), None)
    above = next((m.gt for m in meta if isinstance(m, at.Gt)), None)
    high = next((m.le for m in meta if isinstance(m, at.Le)), None)
    if low is not None and high is not None:
        return f" from {_number(low)} to {_number(high)}"
    parts = [f"> {_number(above)}"] if above is not None else []
    parts += [f">= {_number(low)}"] if low is not None else []
    parts += [f"<= {_number(high)}"] if high is not None else []
    return " " + " and ".join(parts) if parts else ""


_DESCRIBED: dict[int, tuple[Any, str]] = {}


def describe(kind: Any) -> str:
    """What a field of type ``kind`` allows, in words (worked out once per type, unless it
    depends on the machine, as a number of workers does)."""
    found = _DESCRIBED.get(id(kind))
    if found is not None and found[0] is kind:
        return found[1]
    text, fixed = _describe(kind)
    if fixed:
        _DESCRIBED[id(kind)] = (kind, text)
    return text


def _describe(kind: Any) -> tuple[str, bool]:
    text = _words(kind)
    fixed = not any(isinstance(m, Allowed) and callable(m._text) for m in _all_metadata(kind))
    return text, fixed


def _all_metadata(kind: Any) -> list[Any]:
    base, meta = _unwrap(kind)
    found = list(meta)
    for arg in typing.get_args(base):
        if arg is not Ellipsis and not isinstance(arg, (str, int)):
            found += _all_metadata(arg)
    return found


def _words(kind: Any) -> str:
    base, meta = _unwrap(kind)
    for m in reversed(meta):  # the outermost description wins
        if isinstance(m, Allowed):
            return m.text()
    union = _members(base)
    if union is not None:
        members, nullable = union
        return " or ".join([*(describe(m) for m in members), *(["null"] if nullable else [])])
    if base is type(None):
        return "null"
    if typing.get_origin(base) is Literal:
        choices = ", ".join(repr(a) for a in typing.get_args(base))
        return f"one of {choices}" if len(typing.get_args(base)) > 1 else choices
    if base is bool:
        return "true or false"
    if base is int:
        return "an integer" + _bounds(meta)
    if base is float:
        finite = any(isinstance(m, AllowInfNan) and not m.allow_inf_nan for m in meta)
        return ("a finite number" if finite else "a number") + _bounds(meta)
    if base is str:
        return "a non-empty string" if any(isinstance(m, at.MinLen) and m.min_length >= 1 for m in meta) else "a string"
    if base is Any:
        return "any value"
    origin, args = typing.get_origin(base), typing.get_args(base)
    if origin in (tuple, list):
        low = next((m.min_length for m in meta if isinstance(m, at.MinLen)), 0)
        high = next((m.max_length for m in meta if isinstance(m, at.MaxLen)), None)
        text = "a non-empty list" if low == 1 else (f"a list of at least {low} entries" if low else "a list")
        text += f" of at most {high} entries" if high is not None else ""
        return f"{text}, each entry {describe(args[0])}"
    if origin is dict:
        if _unwrap(args[1])[0] is Any:
            return "a mapping of names to values"
        return f"a mapping of names, each to {describe(args[1])}"
    if dataclasses.is_dataclass(base):
        return "a mapping with keys " + ", ".join(_field_names(base))
    return getattr(base, "__name__", str(base))


@functools.cache
def _field_names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.init]


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


# -- checking a shape -----------------------------------------------------------------------

_RANGE = {"greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number", "too_long",
          "string_too_long"}
_ADAPTERS: dict[Any, TypeAdapter] = {}


@dataclasses.dataclass
class Checked:
    """What :func:`check_shape` found. ``value``: the validated config, or (when there were
    problems) a best effort with every refused part at its default, for the checks of meaning
    to run on the parts that are right; None when not even that could be built. ``bad``: the
    dotted keys (without the ``where`` prefix) whose values were refused."""

    value: Any
    problems: list[str]
    bad: set[str]

    def ok(self, *keys: str) -> bool:
        """Whether the value exists and none of ``keys`` (nor anything in or around them) was refused."""
        if self.value is None:
            return False
        for key in keys:
            for b in self.bad:
                if b == key or b.startswith(key + ".") or b.startswith(key + "[") or key.startswith(b + ".") \
                        or key.startswith(b + "[") or not b or not key:
                    return False
        return True


def adapter(kind: Any) -> TypeAdapter:
    if kind not in _ADAPTERS:
        _ADAPTERS[kind] = TypeAdapter(kind)
    return _ADAPTERS[kind]


def check_shape(kind: Any, data: Any, where: str = "", fill: dict[str, Any] | None = None) -> Checked:
    """Validate ``data`` as a ``kind`` (a pydantic dataclass), every problem translated.
    ``where`` prefixes every key (a config inside a larger file: ``games[0].tournament.``);
    ``fill`` gives placeholders for required top-level keys, for the best-effort value only."""
    try:
        return Checked(adapter(kind).validate_python(data), [], set())
    except ValidationError as error:
        problems, bad, strip = translate(error, kind, where)
    value = None
    if isinstance(data, dict) and () not in strip:
        rest = _without(data, strip)
        if fill:
            rest = {**{k: v for k, v in fill.items() if k not in rest}, **rest}
        try:
            value = adapter(kind).validate_python(rest)
        except ValidationError:
            value = None
    return Checked(value, problems, bad)


def translate(error: ValidationError, kind: Any, where: str = "") -> tuple[list[str], set[str], set[tuple]]:
    """pydantic's errors as problems in the config style; the dotted keys refused; the
    locations of the values to drop for a best-effort value."""
    problems: dict[str, str] = {}
    bad: set[str] = set()
    strip: set[tuple] = set()
    for detail in error.errors(include_url=False):
        dotted, node, parent, union, field_loc = _resolve(kind, detail["loc"])
        key = where + dotted if dotted else (where.rstrip(".") or "the top level")
        if key not in problems:  # a union's members each report the one value: one problem
            problems[key] = _problem(key, detail, node, parent, union)
        if field_loc not in strip:
            strip.add(field_loc)
            bad.add(_resolve(kind, field_loc)[0] if field_loc else "")
    return list(problems.values()), bad, strip


_SHAPES: dict[int, tuple[Any, tuple[str, Any]]] = {}


def _shape_of(node: Any) -> tuple[str, Any]:
    """What a type is, for following error locations (computed once per type)."""
    found = _SHAPES.get(id(node))
    if found is None or found[0] is not node:
        base, _ = _unwrap(node)
        union = _members(base)
        origin, args = typing.get_origin(base), typing.get_args(base)
        if union is not None:
            shape = ("optional", union[0][0]) if len(union[0]) == 1 else ("union", None)
        elif dataclasses.is_dataclass(base) and isinstance(base, type):
            shape = ("dataclass", (base, _hints(base), frozenset(_field_names(base))))
        elif origin in (tuple, list):
            shape = ("list", args[0])
        elif origin is dict:
            shape = ("dict", args)
        else:
            shape = ("other", None)
        found = _SHAPES[id(node)] = (node, shape)
    return found[1]


def _resolve(kind: Any, loc: tuple) -> tuple[str, Any, Any, bool, tuple]:
    """Follow an error location through the types: the dotted key, the type there, the
    dataclass holding it (for unknown keys), whether a union was met, and the location of the
    outermost field holding the error inside the deepest dataclass reached."""
    key = ""
    node, parent, field_loc = kind, None, ()
    i = 0
    while i < len(loc):
        part = loc[i]
        shape, info = _shape_of(node)
        if shape == "optional":
            node = info
            continue
        if shape == "union":  # loc[i] names a member: one problem for the value
            return key, node, parent, True, field_loc
        if shape == "dataclass":
            cls, hints, names = info
            key = f"{key}.{part}" if key else str(part)
            field_loc = tuple(loc[: i + 1])
            if part not in names:
                return key, None, cls, False, field_loc
            node, parent = hints[part], cls
        elif shape == "list" and isinstance(part, int):
            key += f"[{part}]"
            node = info
        elif shape == "dict":
            key = f"{key}.{part}" if key else str(part)
            if i + 1 < len(loc) and loc[i + 1] == "[key]":
                return key, info[0], None, False, field_loc or tuple(loc[: i + 1])
            node = info[1]
        else:
            for rest in loc[i:]:
                key += f"[{rest}]" if isinstance(rest, int) else (f".{rest}" if key else str(rest))
            break
        i += 1
    return key, node, parent, False, field_loc


def _problem(key: str, detail: dict, node: Any, parent: Any, union: bool) -> str:
    kind, value, ctx = detail["type"], detail.get("input"), detail.get("ctx") or {}
    if kind in ("unexpected_keyword_argument", "extra_forbidden", "invalid_key") and parent is not None:
        names = _field_names(parent)
        if kind == "invalid_key":
            return f"{key}: not a valid key ({shown(value)}); allowed: {', '.join(names)}"
        return f"{key}: unknown key; allowed: {', '.join(names)}"
    allowed = describe(node) if node is not None else "a name (a non-empty string)"
    if kind in ("missing", "missing_argument", "missing_keyword_only_argument", "missing_positional_only_argument"):
        return f"{key}: missing; allowed: {allowed}"
    if detail["loc"][-1:] == ("[key]",):  # a key of a mapping of names
        return f"{key}: not a valid key ({shown(value)}); allowed: {allowed}"
    if union:
        return f"{key}: not allowed: {shown(value)}; allowed: {allowed}"
    if kind == "too_short" or kind == "string_too_short":
        what = "empty" if not value else "too short"
        return f"{key}: {what}: {shown(value)}; allowed: {allowed}"
    if kind in _RANGE:
        return f"{key}: out of range: {shown(value)}; allowed: {allowed}"
    if kind == "literal_error":
        return f"{key}: not one of the choices: {shown(value)}; allowed: {allowed}"
    if kind == "too_many_workers":
        return f"{key}: more workers than this machine's {ctx.get('cores')} cores: {shown(value)}; allowed: {allowed}"
    if kind == "unsafe_name":
        return f"{key}: a name that would lead outside the run directory: {shown(value)}; allowed: {allowed}"
    if kind in ("value_error", "assertion_error"):
        return f"{key}: {ctx.get('error', detail.get('msg'))}; allowed: {allowed}"
    if value is None and node is not None and dataclasses.is_dataclass(_unwrap(node)[0]):
        return f"{key}: empty; allowed: {allowed}"
    return f"{key}: wrong type: {shown(value)}; allowed: {allowed}"


def _without(data: Any, locations: Iterable[tuple]) -> Any:
    """``data`` without the values at ``locations``: the mappings and lists on the way are
    copied (once each), never changed. An entry of a list is not dropped alone: its field is
    (see :func:`translate`)."""
    tree: dict = {}
    for loc in locations:
        branch = tree
        for part in loc[:-1]:
            branch = branch.setdefault(part, {})
            if branch is None:
                break
        else:
            if loc:
                branch[loc[-1]] = None  # None: drop the value here
    return _prune(data, tree)


def _prune(data: Any, tree: dict) -> Any:
    if isinstance(data, dict):
        return {k: (_prune(v, tree[k]) if tree.get(k) else v) for k, v in data.items()
                if not (k in tree and tree[k] is None)}
    if isinstance(data, (list, tuple)):
        return [_prune(v, tree[i]) if tree.get(i) else v for i, v in enumerate(data)]
    return data


# -- checks every config shares -------------------------------------------------------------


def game_info(name: str, options: dict[str, Any], name_key: str, options_key: str) -> tuple[Any, list[str]]:
    """The :class:`~agents.base.GameInfo` of a game with its options, or the problem (naming
    ``name_key`` for an unknown game, ``options_key`` for options the game refuses)."""
    import bluff_envs
    from agents.base import GameInfo

    try:
        env = bluff_envs.make(name, raw=True, **options)
    except (ValueError, TypeError) as error:
        key = name_key if "unknown game" in str(error) else options_key
        return None, [f"{key}: {error}"]
    return GameInfo.of(env), []


def agent_problems(named: Iterable[tuple[str, str]], game: Any, skip: Iterable[str] = ()) -> list[str]:
    """Build every agent once (``(key, spec)`` pairs); a problem, naming its key, for each spec
    that does not build. Specs in ``skip`` (agents that do not exist yet) are not built."""
    from agents.registry import make_agent

    skip = set(skip)
    built: dict[str, str | None] = {}
    problems = []
    for key, spec in named:
        if spec in skip:
            continue
        if spec not in built:
            try:
                make_agent(spec, game, 0)
                built[spec] = None
            except Exception as error:  # noqa: BLE001 - a loader may fail in its own way (missing file, ...)
                built[spec] = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
        if built[spec] is not None:
            problems.append(f"{key}: {built[spec]}")
    return problems


def count_lineups(fmt: str, teams: int, agents: int = 0, challengers: int = 0, field: int = 0, explicit: int = 0) -> int:
    """How many line-ups a tournament format makes (as ``agents.arena.schedule.lineups``), counted, not listed."""
    if fmt == "lineups":
        return explicit
    if fmt == "gauntlet":
        others = teams - 1
        groups = math.comb(field, others) if field >= others else math.comb(field + others - 1, others)
        return challengers * groups
    if agents >= teams:
        return math.comb(agents, teams)
    return max(0, math.comb(agents + teams - 1, teams) - agents)
