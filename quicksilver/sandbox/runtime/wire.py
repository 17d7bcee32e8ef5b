"""Framing and strict serialisation shared by the harness (inside the sandbox) and the host.

This module is imported by the sandboxed harness, so it uses the standard library only.

Values cross the sandbox boundary as JSON with tags. Only plain data is accepted: exact
``int``, ``float``, ``bool``, ``str``, ``None``, ``list``, ``tuple``, ``dict``, ``set``,
``frozenset``, ``bytes``, and the LeetCode ``TreeNode`` / ``ListNode`` shapes (sent as level-order
and value lists). Anything else, including subclasses of the builtins (a ``class Evil(int)`` with
a permissive ``__eq__``), is an error: the host compares values it rebuilt itself, so a solution
cannot smuggle an object that decides its own verdict.
"""

from __future__ import annotations

import io
import json
import math
import os
import struct
from typing import Any

MAX_FRAME = 256 * 1024 * 1024
_HEADER = struct.Struct(">I")


class WireError(Exception):
    """A value or a frame that breaks the protocol."""


class NotPlainData(WireError):
    """A value that is not plain data (see the module docstring)."""


# ---------------------------------------------------------------------------- framing


def write_frame(fd: int, obj: Any) -> None:
    data = json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()
    if len(data) > MAX_FRAME:
        raise WireError(f"frame of {len(data)} bytes exceeds {MAX_FRAME}")
    buf = _HEADER.pack(len(data)) + data
    view = memoryview(buf)
    while view:
        n = os.write(fd, view)
        view = view[n:]


_READERS: dict[int, io.FileIO] = {}


def _reader(fd: int) -> io.FileIO:
    """One FileIO per descriptor, made once: making one raises the audit event ``open``, and a
    solution's audit hook (hooks cannot be removed) would run at every command the harness reads,
    inside the harness's own time (docs/profiler.md, "The window")."""
    fh = _READERS.get(fd)
    if fh is None:
        fh = _READERS[fd] = io.FileIO(fd, "rb", closefd=False)
    return fh


def read_exact(fd: int, n: int) -> bytearray:
    """Read exactly ``n`` bytes into one buffer allocated up front.

    How a pipe splits a large frame depends on timing; a list of chunks joined afterwards would
    leave a different heap behind in every process, and a zygote's heap layout reaches the
    instruction count of every child it forks (where realloc can grow in place, which pymalloc
    pools are free)."""
    buf = bytearray(n)
    pos = 0
    # FileIO.readinto is read(2) (the host recognises a harness waiting for a command by it).
    fh = _reader(fd)
    with memoryview(buf) as view:
        while pos < n:
            got = fh.readinto(view[pos:])
            if not got:
                raise EOFError("peer closed the channel")
            pos += got
    return buf


def read_frame(fd: int) -> Any:
    (size,) = _HEADER.unpack(read_exact(fd, _HEADER.size))
    if size > MAX_FRAME:
        raise WireError(f"frame of {size} bytes exceeds {MAX_FRAME}")
    try:
        return json.loads(read_exact(fd, size))
    except ValueError as exc:
        raise WireError(f"undecodable frame: {exc}") from exc


class FrameDecoder:
    """Incremental decoder for the host side, which reads with select() and a deadline."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self._buf = bytearray()
        self._max = max_frame

    def feed(self, data: bytes) -> list[Any]:
        self._buf += data
        out = []
        while len(self._buf) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buf)
            if size > self._max:
                raise WireError(f"frame of {size} bytes exceeds {self._max}")
            if len(self._buf) < _HEADER.size + size:
                break
            payload = bytes(self._buf[_HEADER.size : _HEADER.size + size])
            del self._buf[: _HEADER.size + size]
            try:
                out.append(json.loads(payload))
            except ValueError as exc:
                raise WireError(f"undecodable frame: {exc}") from exc
        return out


# ---------------------------------------------------------------------------- values

_TAG = "$"  # every non-list value that JSON cannot carry is {"$": tag, "v": payload}


def _float_enc(x: float) -> Any:
    # json keeps 2.0 a float; only the non-finite values need a tag.
    if math.isnan(x):
        return {_TAG: "float", "v": "nan"}
    if math.isinf(x):
        return {_TAG: "float", "v": "inf" if x > 0 else "-inf"}
    return x


def _fields_of(node: Any, what: str) -> dict[str, Any]:
    """A node's attributes, read without running any of its own code."""
    try:
        fields = object.__getattribute__(node, "__dict__")
    except AttributeError as exc:
        raise NotPlainData(f"{what} without an instance __dict__") from exc
    if type(fields) is not dict:
        raise NotPlainData(f"{what} with a non-dict __dict__")
    return fields


_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1

# An object's identity without id(): id() raises the audit event ``builtins.id``, and a
# solution's audit hook (hooks cannot be removed) would then run inside the harness's report, at
# every container and node it serialises. CPython hashes a plain object by its address, one to
# one, and object.__hash__ runs no code of the object's own type.
_identity = object.__hash__


def _path_str(path: Any) -> str:
    """A path built lazily as nested (parent, kind, key) tuples, spelled out for a message."""
    pieces = []
    while isinstance(path, tuple):
        path, kind, key = path
        if kind == "item":
            pieces.append(f"[{key}]")
        elif kind == "value":
            pieces.append(f"[{key!r}]")
        else:
            pieces.append(kind)
    pieces.append(path)
    return "".join(reversed(pieces))


def encode(value: Any, *, max_items: int = 20_000_000) -> Any:
    """Encode plain data strictly; raise NotPlainData naming the offending type and path.

    Scalars inside containers take a fast path (no call, no path string): a path is spelled out
    only for an error message. ``max_items`` bounds the values visited (containers, their
    elements, dict keys and values, node values).
    """
    budget = [max_items]
    active: set[int] = set()

    def spend(n: int = 1) -> None:
        budget[0] -= n
        if budget[0] < 0:
            raise NotPlainData(f"value has more than {max_items} items")

    def items(seq: Any, path: Any, indexed: bool = True) -> list[Any]:
        out: list[Any] = []
        append = out.append
        for i, v in enumerate(seq):
            tv = type(v)
            if tv is int:
                if _I64_MIN <= v <= _I64_MAX:
                    append(v)
                    continue
            elif v is None or tv is str or tv is bool:
                append(v)
                continue
            append(enc(v, (path, "item", i) if indexed else path, spent=True))
        return out

    def enc(x: Any, path: Any, spent: bool = False) -> Any:
        if not spent:
            spend()
        t = type(x)
        if x is None or t is bool or t is str:
            return x
        if t is int:
            # hex: decimal conversion of huge ints is capped (sys.int_info.str_digits_check)
            return x if _I64_MIN <= x <= _I64_MAX else {_TAG: "int", "v": format(x, "x")}
        if t is float:
            return _float_enc(x)
        if t in (list, tuple, set, frozenset, dict):
            if _identity(x) in active:
                raise NotPlainData(f"{_path_str(path)}: container contains itself")
            active.add(_identity(x))
            try:
                if t is dict:
                    spend(2 * len(x))
                    return {
                        _TAG: "dict",
                        "v": [
                            [enc(k, (path, ".key", None), True), enc(v, (path, "value", k), True)]
                            for k, v in x.items()
                        ],
                    }
                spend(len(x))
                if t is list:
                    return items(x, path)
                if t is tuple:
                    return {_TAG: "tuple", "v": items(x, path)}
                return {
                    _TAG: "set" if t is set else "frozenset",
                    "v": items(x, (path, "{}", None), False),
                }
            finally:
                active.discard(_identity(x))
        if t is bytes:
            return {_TAG: "bytes", "v": x.hex()}
        name = getattr(t, "__name__", "?")
        if name in ("ListNode", "TreeNode"):
            where = _path_str(path)
            if _identity(x) in active:
                raise NotPlainData(f"{where}: a node contains itself")
            active.add(_identity(x))
            try:
                if name == "ListNode":
                    return {_TAG: "ListNode", "v": enc_list_node(x, where)}
                return {_TAG: "TreeNode", "v": enc_tree_node(x, where)}
            finally:
                active.discard(_identity(x))
        raise NotPlainData(
            f"{_path_str(path)}: object of type {t.__module__}.{t.__qualname__} is not plain data"
        )

    def enc_list_node(node: Any, path: str) -> list[Any]:
        # A tight loop: an answer can be a list of a million nodes, and this runs inside the
        # measured process (its cost is calibrated, but it should stay small).
        head_id = _identity(node)
        vals: list[Any] = []
        append = vals.append
        seen: set[int] = set()
        add = seen.add
        what, val_path = f"{path}: ListNode", f"{path}.val"
        node_type = type(node)
        getdict = object.__getattribute__
        count = 0
        while node is not None:
            t = type(node)
            if t is not node_type and getattr(t, "__name__", "") != "ListNode":
                raise NotPlainData(f"{path}: ListNode.next is a {t.__qualname__}")
            i = _identity(node)
            if i in seen:
                raise NotPlainData(f"{path}: the linked list has a cycle")
            add(i)
            try:
                fields = getdict(node, "__dict__")
            except AttributeError:
                fields = _fields_of(node, what)  # raises, naming the node
            if type(fields) is not dict:
                _fields_of(node, what)
            val = fields.get("val")
            if type(val) is int and _I64_MIN <= val <= _I64_MAX:
                count += 1
                append(val)
            else:
                append(enc(val, val_path))
            node = fields.get("next")
        spend(count)
        seen.discard(head_id)
        if seen & active:
            raise NotPlainData(f"{path}: a node contains itself")
        return vals

    def enc_tree_node(root: Any, path: str) -> list[Any]:
        # LeetCode level order: children of every non-null node, trailing nulls dropped.
        out: list[Any] = []
        append = out.append
        queue = [root]
        push = queue.append
        seen: set[int] = set()
        add = seen.add
        what, val_path = f"{path}: TreeNode", f"{path}.val"
        node_type = type(root)
        count = 0
        for node in queue:  # grows as it goes: a breadth-first walk
            if node is None:
                append(None)
                continue
            t = type(node)
            if t is not node_type and getattr(t, "__name__", "") != "TreeNode":
                raise NotPlainData(f"{path}: a tree child is a {t.__qualname__}")
            i = _identity(node)
            if i in seen:
                raise NotPlainData(f"{path}: the tree shares or repeats a node")
            add(i)
            fields = _fields_of(node, what)
            val = fields.get("val")
            count += 2
            if type(val) is int and _I64_MIN <= val <= _I64_MAX:
                count += 1
                append(val)
            else:
                append(enc(val, val_path))
            push(fields.get("left"))
            push(fields.get("right"))
        spend(count)
        seen.discard(_identity(root))
        if seen & active:
            raise NotPlainData(f"{path}: a node contains itself")
        while out and out[-1] is None:
            out.pop()
        return out

    return enc(value, "value")


def decode(data: Any, *, tree_node: Any = None, list_node: Any = None) -> Any:
    """Rebuild values from :func:`encode` output.

    Without node classes, trees and linked lists come back as the tagged level-order / value
    lists (``{"$": "TreeNode", "v": [...]}``); pass classes to rebuild node objects.
    """
    if isinstance(data, list):
        return [decode(v, tree_node=tree_node, list_node=list_node) for v in data]
    if not isinstance(data, dict):
        return data
    tag = data.get(_TAG)
    v = data.get("v")
    if tag == "float":
        return float(v)
    if tag == "int":
        return int(v, 16)
    if tag == "bytes":
        return bytes.fromhex(v)

    def sub(x: Any) -> Any:
        return decode(x, tree_node=tree_node, list_node=list_node)

    if tag == "tuple":
        return tuple(sub(x) for x in v)
    if tag == "set":
        return {sub(x) for x in v}
    if tag == "frozenset":
        return frozenset(sub(x) for x in v)
    if tag == "dict":
        return {sub(k): sub(val) for k, val in v}
    if tag == "ListNode":
        vals = [sub(x) for x in v]
        if list_node is None:
            return Tagged("ListNode", vals)
        head = None
        for val in reversed(vals):
            head = list_node(val, head)
        return head
    if tag == "TreeNode":
        vals = [sub(x) for x in v]
        if tree_node is None:
            return Tagged("TreeNode", vals)
        return build_tree(vals, tree_node)
    raise WireError(f"unknown tag in {str(data)[:80]}")


class Tagged:
    """A TreeNode or ListNode as its LeetCode list form, when no node class is available."""

    __slots__ = ("kind", "values")

    def __init__(self, kind: str, values: list[Any]) -> None:
        self.kind = kind
        self.values = values

    def __eq__(self, other: object) -> bool:
        return type(other) is Tagged and other.kind == self.kind and other.values == self.values

    def __hash__(self) -> int:
        return hash((self.kind, repr(self.values)))

    def __repr__(self) -> str:
        return f"{self.kind}({self.values!r})"


def build_tree(vals: list[Any], tree_node: Any) -> Any:
    if not vals or vals[0] is None:
        return None
    it = iter(vals)
    root = tree_node(next(it))
    queue = [root]
    head = 0
    for left in it:
        node = queue[head]
        head += 1
        if left is not None:
            node.left = tree_node(left)
            queue.append(node.left)
        right = next(it, None)
        if right is not None:
            node.right = tree_node(right)
            queue.append(node.right)
    return root


def to_plain(data: Any) -> Any:
    """Decode to plain Python with trees and linked lists as their LeetCode lists (for JSON)."""
    value = decode(data)

    def strip(x: Any) -> Any:
        if isinstance(x, Tagged):
            return strip(x.values)
        if isinstance(x, list | tuple):
            return [strip(v) for v in x]
        if isinstance(x, set | frozenset):
            return sorted((strip(v) for v in x), key=repr)
        if isinstance(x, dict):
            return {str(k): strip(v) for k, v in x.items()}
        if isinstance(x, bytes):
            return x.hex()
        if isinstance(x, float) and not math.isfinite(x):
            return str(x)
        return x

    return strip(value)
