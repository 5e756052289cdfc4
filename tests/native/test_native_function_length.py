"""Every C++ function in cbsolve/_native/ stays under 120 lines (one screen to read), and the
counter that checks it finds functions where they are."""
from __future__ import annotations

from testkit import load_script


def test_no_native_function_reaches_the_limit():
    lengths = load_script("native_function_lengths")
    long = lengths.long_functions()
    assert not long, "split these: " + ", ".join(f"{f.path}:{f.first} {f.name} ({f.lines})"
                                                 for f in long)


def test_the_counter_sees_methods_constructors_and_free_functions(tmp_path):
    lengths = load_script("native_function_lengths")
    src = tmp_path / "k.cpp"
    src.write_text(
        "// a { brace in a comment\n"
        "namespace {\n"
        "struct S {\n"
        "    S(int a, std::vector<int> v = {}) : a_(a) {\n"
        "        if (a) { a_ = 2; }\n"
        "    }\n"
        "    int a_;\n"
        "};\n"
        "template <class T>\n"
        "int f(T x) {\n"
        "    auto g = [&](int y) { return y + \"}\"[0]; };\n"
        "    for (int i = 0; i < 3; ++i) {\n"
        "        x += g(i);\n"
        "    }\n"
        "    return x;\n"
        "}\n"
        "}  // namespace\n")
    found = {(f.name, f.first, f.lines) for f in lengths.functions(src)}
    assert found == {("S", 4, 3), ("f", 9, 8)}
    assert lengths.long_functions(tmp_path, limit=8) == [
        lengths.Function("k.cpp", "f", 9, 16)]
