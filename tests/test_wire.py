"""Tests for the sandbox wire: framing over pipes and the strict plain-data serialiser."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import os
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from quicksilver.sandbox.runtime import wire
from quicksilver.sandbox.runtime.wire import (
    FrameDecoder,
    NotPlainData,
    Tagged,
    WireError,
    build_tree,
    decode,
    encode,
    read_frame,
    to_plain,
    write_frame,
)

_LCTK_PATH = Path(wire.__file__).with_name("lctk.py")
_spec = importlib.util.spec_from_file_location("lctk_under_test_wire", _LCTK_PATH)
assert _spec is not None and _spec.loader is not None
lctk = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lctk)


def json_trip(value: Any, **classes: Any) -> Any:
    """encode -> JSON text (as on the wire) -> decode."""
    text = json.dumps(encode(value), separators=(",", ":"), allow_nan=False)
    return decode(json.loads(text), **classes)


def frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    r, w = os.pipe()
    fds = {r, w}
    yield r, w
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


# ---------------------------------------------------------------------------- framing


def test_write_then_read_frame_through_a_pipe(pipe: tuple[int, int]) -> None:
    r, w = pipe
    write_frame(w, {"op": "go", "seq": 1, "cases": [1, 2.5, None, "x"]})
    write_frame(w, [True, False])
    assert read_frame(r) == {"op": "go", "seq": 1, "cases": [1, 2.5, None, "x"]}
    assert read_frame(r) == [True, False]


def test_write_frame_bytes_are_header_and_compact_json(pipe: tuple[int, int]) -> None:
    r, w = pipe
    write_frame(w, {"a": [1, 2]})
    os.close(w)
    raw = os.read(r, 1024)
    assert raw == b'\x00\x00\x00\x0b{"a":[1,2]}'


def test_write_frame_rejects_nan(pipe: tuple[int, int]) -> None:
    _, w = pipe
    with pytest.raises(ValueError):
        write_frame(w, float("nan"))


def test_read_frame_on_closed_pipe_raises_eof(pipe: tuple[int, int]) -> None:
    r, w = pipe
    os.close(w)
    with pytest.raises(EOFError):
        read_frame(r)


def test_read_frame_on_truncated_payload_raises_eof(pipe: tuple[int, int]) -> None:
    r, w = pipe
    os.write(w, struct.pack(">I", 10) + b"[1,2")
    os.close(w)
    with pytest.raises(EOFError):
        read_frame(r)


def test_read_frame_oversize_header_raises_wire_error(pipe: tuple[int, int]) -> None:
    r, w = pipe
    os.write(w, struct.pack(">I", wire.MAX_FRAME + 1))
    with pytest.raises(WireError, match="exceeds"):
        read_frame(r)


def test_read_frame_undecodable_payload_raises_wire_error(pipe: tuple[int, int]) -> None:
    r, w = pipe
    os.write(w, frame(b"{not json"))
    with pytest.raises(WireError):
        read_frame(r)


def test_frame_decoder_byte_by_byte_equals_one_chunk() -> None:
    values = [{"seq": 1, "ok": True}, [1, [2, [3]]], "text é", None, 12345678901]
    stream = b"".join(frame(json.dumps(v).encode()) for v in values)

    whole = FrameDecoder().feed(stream)
    assert whole == values

    dec = FrameDecoder()
    pieces: list[Any] = []
    for i in range(len(stream)):
        got = dec.feed(stream[i : i + 1])
        # A frame only completes on the last byte of its payload.
        pieces.extend(got)
    assert pieces == values


def test_frame_decoder_partial_then_rest() -> None:
    data = frame(b"[1,2,3]") + frame(b'"x"')
    dec = FrameDecoder()
    assert dec.feed(data[:5]) == []
    assert dec.feed(data[5:12]) == [[1, 2, 3]]
    assert dec.feed(data[12:]) == ["x"]
    assert dec.feed(b"") == []


def test_frame_decoder_matches_write_frame(pipe: tuple[int, int]) -> None:
    r, w = pipe
    write_frame(w, {"k": [1, 2]})
    write_frame(w, "two")
    os.close(w)
    raw = b""
    while chunk := os.read(r, 3):
        raw += chunk
    assert FrameDecoder().feed(raw) == [{"k": [1, 2]}, "two"]


def test_frame_decoder_oversize_header_raises_before_payload() -> None:
    dec = FrameDecoder(max_frame=10)
    assert dec.feed(frame(b"1234567890")) == [1234567890]
    with pytest.raises(WireError, match="frame of 11 bytes exceeds 10"):
        dec.feed(struct.pack(">I", 11))


def test_frame_decoder_default_limit_is_max_frame() -> None:
    with pytest.raises(WireError, match=f"exceeds {wire.MAX_FRAME}"):
        FrameDecoder().feed(struct.pack(">I", wire.MAX_FRAME + 1))


@pytest.mark.parametrize("payload", [b"{not json", b"", b"\x80abc", b"[1,"])
def test_frame_decoder_undecodable_payload_raises_wire_error(payload: bytes) -> None:
    with pytest.raises(WireError, match="undecodable frame"):
        FrameDecoder().feed(frame(payload))


# ---------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(
    "value",
    [
        0,
        -7,
        2**63 - 1,
        -(2**63),
        1.5,
        2.0,
        "",
        "héllo\n\x00",
        None,
        True,
        False,
        [],
        [1, [2, [3, []]]],
        (),
        (1, "a", (2.5, None)),
        {"a": 1, "b": [1, 2]},
        {1: "one", 2: "two"},
        {(1, 2): "pair", (): "empty"},
        {None: 0, True: 1, 1.5: 2, "s": 3},
        {frozenset({1, 2}): {3}},
        {1, 2, 3},
        set(),
        frozenset({"a", (1, 2)}),
        b"",
        b"\x00\xffbytes",
        [{"k": ({1}, frozenset(), b"\x01")}],
    ],
)
def test_round_trip_exact_value_and_type(value: Any) -> None:
    got = json_trip(value)
    assert got == value
    assert type(got) is type(value)


def _types(x: Any) -> Any:
    """A structure of type names to compare nested types exactly."""
    if isinstance(x, list | tuple):
        return (type(x).__name__, [_types(v) for v in x])
    if isinstance(x, dict):
        return ("dict", sorted((repr(_types(k)), repr(_types(v))) for k, v in x.items()))
    if isinstance(x, set | frozenset):
        return (type(x).__name__, sorted(repr(_types(v)) for v in x))
    return type(x).__name__


def test_round_trip_keeps_nested_types() -> None:
    value = {
        "t": (1, [2, (3,)]),
        (1, (2, 3)): {frozenset({(1, 2)})},
        5: [True, 1, 1.0, False, 0, 0.0],
    }
    got = json_trip(value)
    assert got == value
    assert _types(got) == _types(value)
    assert [type(v) for v in got[5]] == [bool, int, float, bool, int, float]


def test_tuple_set_and_dict_wire_forms() -> None:
    assert encode((1, 2)) == {"$": "tuple", "v": [1, 2]}
    assert encode([1, (2,)]) == [1, {"$": "tuple", "v": [2]}]
    assert encode({7}) == {"$": "set", "v": [7]}
    assert encode(frozenset({7})) == {"$": "frozenset", "v": [7]}
    assert encode({1: "a", (2,): [3]}) == {
        "$": "dict",
        "v": [[1, "a"], [{"$": "tuple", "v": [2]}, [3]]],
    }
    assert encode(b"\x01\xab") == {"$": "bytes", "v": "01ab"}


def test_bool_is_not_int() -> None:
    assert encode(True) is True
    got = json_trip([True, 1, False, 0])
    assert got == [True, 1, False, 0]
    assert [type(v) for v in got] == [bool, int, bool, int]
    assert json_trip(True) is True
    assert json_trip(False) is False


def test_negative_zero_keeps_its_sign() -> None:
    got = json_trip(-0.0)
    assert type(got) is float
    assert got == 0.0
    assert math.copysign(1.0, got) == -1.0


def test_non_finite_floats() -> None:
    assert encode(float("nan")) == {"$": "float", "v": "nan"}
    assert encode(float("inf")) == {"$": "float", "v": "inf"}
    assert encode(-float("inf")) == {"$": "float", "v": "-inf"}
    got = json_trip([float("nan"), float("inf"), -float("inf"), 1.0])
    assert math.isnan(got[0])
    assert got[1:] == [math.inf, -math.inf, 1.0]
    assert all(type(v) is float for v in got)


def test_big_ints_beyond_int64() -> None:
    assert encode(2**63 - 1) == 2**63 - 1
    assert encode(2**63) == {"$": "int", "v": "8000000000000000"}  # hex: no digit cap
    assert encode(-(2**63) - 1) == {"$": "int", "v": "-8000000000000001"}
    assert encode(2**100) == {"$": "int", "v": "1" + "0" * 25}
    assert json_trip(2**100) == 2**100
    assert json_trip(-(2**100)) == -(2**100)
    assert type(json_trip(2**100)) is int


def test_huge_int_round_trips_or_is_rejected_as_wire_error() -> None:
    value = 10**5000
    try:
        data = encode(value)
    except WireError:
        return
    assert json_trip(value) == value
    assert decode(data) == value


def test_shared_subcontainer_is_not_a_cycle() -> None:
    inner = [1, 2]
    assert json_trip([inner, inner, (inner,)]) == [[1, 2], [1, 2], ([1, 2],)]


def test_through_a_real_pipe(pipe: tuple[int, int]) -> None:
    r, w = pipe
    value = {"n": (1, {2, 3}), "b": b"\x00", "f": float("-inf"), "big": 3**90}
    write_frame(w, encode(value))
    assert decode(read_frame(r)) == value


# ---------------------------------------------------------------------------- nodes


def test_tree_encodes_to_leetcode_level_order() -> None:
    root = lctk.binaryTree([1, 2, 3, None, 4])
    assert encode(root) == {"$": "TreeNode", "v": [1, 2, 3, None, 4]}
    root = lctk.binaryTree([3, 9, 20, None, None, 15, 7])
    assert encode(root) == {"$": "TreeNode", "v": [3, 9, 20, None, None, 15, 7]}


def test_hand_built_tree_trims_trailing_nulls() -> None:
    root = lctk.TreeNode(1, None, lctk.TreeNode(2, lctk.TreeNode(3)))
    assert encode(root) == {"$": "TreeNode", "v": [1, None, 2, 3]}
    assert encode(lctk.TreeNode(5)) == {"$": "TreeNode", "v": [5]}


def test_list_node_encodes_to_values() -> None:
    head = lctk.linkedList([1, 2, 3])
    assert encode(head) == {"$": "ListNode", "v": [1, 2, 3]}
    assert encode(lctk.ListNode("a")) == {"$": "ListNode", "v": ["a"]}
    assert encode(None) is None


def test_node_values_are_encoded_strictly() -> None:
    head = lctk.linkedList([(1, 2), 2**70])
    assert encode(head) == {
        "$": "ListNode",
        "v": [{"$": "tuple", "v": [1, 2]}, {"$": "int", "v": format(2**70, "x")}],
    }


def test_decode_without_classes_gives_tagged() -> None:
    value = [lctk.binaryTree([1, None, 2]), lctk.linkedList([4, 5])]
    got = json_trip(value)
    assert got == [Tagged("TreeNode", [1, None, 2]), Tagged("ListNode", [4, 5])]
    assert got[0].kind == "TreeNode"
    assert got[0].values == [1, None, 2]
    assert repr(got[1]) == "ListNode([4, 5])"


def test_tagged_equality_and_hash() -> None:
    assert Tagged("TreeNode", [1]) == Tagged("TreeNode", [1])
    assert Tagged("TreeNode", [1]) != Tagged("ListNode", [1])
    assert Tagged("TreeNode", [1]) != Tagged("TreeNode", [1, 2])
    assert Tagged("ListNode", [1]) != [1]
    assert hash(Tagged("ListNode", [1, 2])) == hash(Tagged("ListNode", [1, 2]))
    assert len({Tagged("ListNode", [1]), Tagged("ListNode", [1])}) == 1


def test_decode_rebuilds_nodes_with_classes() -> None:
    examples = [[1, 2, 3, None, 4], [5, 4, 8, 11, None, 13, 4, 7, 2, None, None, None, 1], [1]]
    for arr in examples:
        got = json_trip(lctk.binaryTree(arr), tree_node=lctk.TreeNode)
        assert type(got) is lctk.TreeNode
        assert lctk.binaryTree2Arr(got) == arr
    head = json_trip({"h": lctk.linkedList([3, 1, 2])}, list_node=lctk.ListNode)["h"]
    assert type(head) is lctk.ListNode
    assert lctk.linkedList2Arr(head) == [3, 1, 2]


def test_decode_tree_shape_with_classes() -> None:
    root = decode({"$": "TreeNode", "v": [1, 2, 3, None, 4]}, tree_node=lctk.TreeNode)
    assert root.val == 1
    assert root.left.val == 2
    assert root.right.val == 3
    assert root.left.left is None
    assert root.left.right.val == 4
    assert root.right.left is None and root.right.right is None


def test_decode_empty_tree_and_list_with_classes() -> None:
    assert decode({"$": "TreeNode", "v": []}, tree_node=lctk.TreeNode) is None
    assert decode({"$": "ListNode", "v": []}, list_node=lctk.ListNode) is None


def test_build_tree() -> None:
    assert build_tree([], lctk.TreeNode) is None
    assert build_tree([None], lctk.TreeNode) is None
    root = build_tree([1, None, 2, 3], lctk.TreeNode)
    assert lctk.binaryTree2Arr(root) == [1, None, 2, 3]
    assert root.left is None
    assert root.right.left.val == 3


def test_decode_unknown_tag_raises_wire_error() -> None:
    with pytest.raises(WireError, match="unknown tag"):
        decode({"$": "pickle", "v": "gASV"})
    with pytest.raises(WireError, match="unknown tag"):
        decode([1, {"x": 1}])


def test_to_plain() -> None:
    value = {
        1: lctk.binaryTree([1, None, 2]),
        (1, 2): lctk.linkedList([7, 8]),
        "s": {3, 1, 2},
        "b": b"\x0a",
        "f": [float("inf"), -float("inf"), 1.5],
        "t": (1, (2,)),
    }
    plain = to_plain(encode(value))
    assert plain == {
        "1": [1, None, 2],
        "(1, 2)": [7, 8],
        "s": [1, 2, 3],
        "b": "0a",
        "f": ["inf", "-inf", 1.5],
        "t": [1, [2]],
    }
    assert to_plain(encode(float("nan"))) == "nan"
    json.dumps(plain, allow_nan=False)


# ---------------------------------------------------------------------------- rejections


class EvilInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


class EvilStr(str):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


class EvilList(list):
    def __eq__(self, other: object) -> bool:
        return True


class EvilDict(dict):
    def __eq__(self, other: object) -> bool:
        return True


class EvilFloat(float):
    pass


class EvilTuple(tuple):
    pass


@pytest.mark.parametrize(
    ("value", "qualname"),
    [
        (EvilInt(3), "EvilInt"),
        (EvilStr("x"), "EvilStr"),
        (EvilList([1]), "EvilList"),
        (EvilDict(a=1), "EvilDict"),
        (EvilFloat(1.0), "EvilFloat"),
        (EvilTuple((1,)), "EvilTuple"),
    ],
)
def test_builtin_subclasses_are_rejected(value: Any, qualname: str) -> None:
    with pytest.raises(NotPlainData) as info:
        encode(value)
    assert str(info.value) == f"value: object of type {__name__}.{qualname} is not plain data"


def test_evil_classes_really_are_permissive() -> None:
    assert EvilInt(3) == 4
    assert EvilStr("x") == "y"
    assert EvilList([1]) == [2]
    assert EvilDict(a=1) == {}


def test_rejection_names_the_nested_path() -> None:
    with pytest.raises(NotPlainData) as info:
        encode({"k": [1, EvilInt(2)]})
    assert str(info.value) == (
        f"value['k'][1]: object of type {__name__}.EvilInt is not plain data"
    )
    with pytest.raises(NotPlainData) as info:
        encode((0, {EvilInt(1): 2}))
    assert str(info.value).startswith("value[1].key: object of type ")
    with pytest.raises(NotPlainData) as info:
        encode([frozenset({object()})])
    assert str(info.value) == "value[0]{}: object of type builtins.object is not plain data"


def test_evil_value_inside_a_node_is_rejected_with_path() -> None:
    with pytest.raises(NotPlainData) as info:
        encode([lctk.ListNode(EvilInt(1))])
    assert str(info.value) == f"value[0].val: object of type {__name__}.EvilInt is not plain data"
    with pytest.raises(NotPlainData) as info:
        encode({"t": lctk.TreeNode(1, lctk.TreeNode(EvilStr("x")))})
    assert str(info.value) == (
        f"value['t'].val: object of type {__name__}.EvilStr is not plain data"
    )


def _gen() -> Iterator[int]:
    yield 1


@pytest.mark.parametrize(
    ("value", "typename"),
    [
        (object(), "builtins.object"),
        (_gen, "builtins.function"),
        (lambda: 1, "builtins.function"),
        (_gen(), "builtins.generator"),
        (len, "builtins.builtin_function_or_method"),
        (bytearray(b"x"), "builtins.bytearray"),
        (range(3), "builtins.range"),
        (1j, "builtins.complex"),
        (int, "builtins.type"),
    ],
)
def test_non_plain_objects_are_rejected(value: Any, typename: str) -> None:
    with pytest.raises(NotPlainData) as info:
        encode([value])
    assert str(info.value) == f"value[0]: object of type {typename} is not plain data"


def test_arbitrary_object_is_rejected() -> None:
    class Thing:
        def __init__(self) -> None:
            self.val = 1

    with pytest.raises(NotPlainData) as info:
        encode({"x": Thing()})
    msg = str(info.value)
    assert msg.startswith("value['x']: object of type ")
    assert msg.endswith("Thing is not plain data")


class SlotsTree:
    __slots__ = ("left", "right", "val")

    def __init__(self, val: Any) -> None:
        self.val = val
        self.left = None
        self.right = None


SlotsTree.__name__ = "TreeNode"
SlotsTree.__qualname__ = "TreeNode"


def test_tree_node_with_slots_is_rejected() -> None:
    node = SlotsTree(1)
    assert not hasattr(node, "__dict__")
    with pytest.raises(NotPlainData) as info:
        encode(node)
    assert str(info.value) == "value: TreeNode without an instance __dict__"


def test_tree_node_with_slots_rejection_names_the_path() -> None:
    with pytest.raises(NotPlainData) as info:
        encode({"root": [SlotsTree(1)]})
    assert "value['root'][0]" in str(info.value)


def test_list_node_cycle_is_rejected() -> None:
    head = lctk.linkedList([1, 2, 3])
    head.next.next.next = head.next
    with pytest.raises(NotPlainData) as info:
        encode(head)
    assert str(info.value) == "value: the linked list has a cycle"
    with pytest.raises(NotPlainData) as info:
        encode([0, head])
    assert str(info.value) == "value[1]: the linked list has a cycle"


def test_list_node_next_must_be_a_list_node() -> None:
    with pytest.raises(NotPlainData) as info:
        encode(lctk.ListNode(1, "tail"))
    assert str(info.value) == "value: ListNode.next is a str"


def test_tree_sharing_a_node_is_rejected() -> None:
    shared = lctk.TreeNode(2)
    root = lctk.TreeNode(1, shared, shared)
    with pytest.raises(NotPlainData) as info:
        encode([root])
    assert str(info.value) == "value[0]: the tree shares or repeats a node"


def test_tree_with_a_cycle_is_rejected() -> None:
    root = lctk.TreeNode(1, lctk.TreeNode(2))
    root.left.right = root
    with pytest.raises(NotPlainData) as info:
        encode(root)
    assert str(info.value) == "value: the tree shares or repeats a node"


def test_tree_child_that_is_not_a_tree_node_is_rejected() -> None:
    root = lctk.TreeNode(1, lctk.TreeNode(2), 3)
    with pytest.raises(NotPlainData) as info:
        encode({"a": [1, root]})
    assert str(info.value) == "value['a'][1]: a tree child is a int"
    with pytest.raises(NotPlainData) as info:
        encode(lctk.TreeNode(1, lctk.ListNode(2)))
    assert str(info.value) == "value: a tree child is a ListNode"


@pytest.mark.parametrize("kind", ["ListNode", "TreeNode"])
def test_node_whose_value_is_itself_is_rejected(kind: str) -> None:
    node = lctk.ListNode(1) if kind == "ListNode" else lctk.TreeNode(1)
    node.val = node
    with pytest.raises(NotPlainData):
        encode(node)


def test_list_containing_itself_is_rejected() -> None:
    a: list[Any] = [1]
    a.append(a)
    with pytest.raises(NotPlainData) as info:
        encode(a)
    assert str(info.value) == "value[1]: container contains itself"


def test_dict_containing_itself_is_rejected() -> None:
    d: dict[str, Any] = {}
    d["x"] = [d]
    with pytest.raises(NotPlainData) as info:
        encode(d)
    assert str(info.value) == "value['x'][0]: container contains itself"


def test_max_items_budget() -> None:
    # The list itself counts as one item.
    assert encode([1, 2, 3], max_items=4) == [1, 2, 3]
    with pytest.raises(NotPlainData) as info:
        encode([1, 2, 3], max_items=3)
    assert str(info.value) == "value has more than 3 items"
    with pytest.raises(NotPlainData, match="more than 100 items"):
        encode(list(range(1000)), max_items=100)


def test_max_items_counts_tree_and_list_nodes() -> None:
    tree = lctk.binaryTree(list(range(50)))
    with pytest.raises(NotPlainData, match="more than 60 items"):
        encode(tree, max_items=60)
    head = lctk.linkedList(list(range(50)))
    with pytest.raises(NotPlainData, match="more than 30 items"):
        encode(head, max_items=30)
    assert encode(head, max_items=51) == {"$": "ListNode", "v": list(range(50))}
