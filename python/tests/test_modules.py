"""Modules from Python: definitions in the source, library directories, the
standard library, and pickling that finds the same modules again."""
import pickle

import pytest

import polyrt

LIBRARY = "triple(v: u64) -> (o: u64) := {\n  o := v * 3\n}\n"


def test_a_module_defined_in_the_source():
    p = polyrt.compile(
        "input x\n"
        "scaled(v: u64, by: u64) -> (o: u64) := {\n  o := mod(hash(v), by)\n}\n"
        "y := scaled(x, 10)\nz := hashed_id(x, 10)\n"
    )
    assert p.outputs == {"y": "u64", "z": "u64"}
    s = p.state()
    for x in range(50):
        s.set_inputs(x)
        assert s["y"] == s["z"]


def test_library_directories_and_pickling(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "triple.polydat").write_text(LIBRARY)
    p = polyrt.compile("input x\nt := triple(x)\n", lib=[lib])
    q = pickle.loads(pickle.dumps(p))
    s = q.state()
    s.set_inputs(5)
    assert s["t"] == 15
    assert list(q.batch(["t"]).evaluate(0, 4)["t"]) == [0, 3, 6, 9]


def test_a_program_file_finds_modules_beside_it_after_pickling(tmp_path):
    (tmp_path / "triple.polydat").write_text(LIBRARY)
    program = tmp_path / "main.polydat"
    program.write_text("input x\nt := triple(x)\n")
    q = pickle.loads(pickle.dumps(polyrt.compile(program)))
    s = q.state()
    s.set_inputs(2)
    assert s["t"] == 6


def test_module_errors_name_the_call_chain():
    with pytest.raises(polyrt.CompileError) as e:
        polyrt.compile(
            "input x\nm(v: u64, n: u64) -> (o: u64) := {\n  o := mod(v, n)\n}\ny := m(x, x)\n"
        )
    assert "parameter 'n' of module 'm'" in str(e.value)
    assert "in module 'm' (defined at <source>:2:1), called at <source>:5:6" in str(e.value)
    assert e.value.line == 3
