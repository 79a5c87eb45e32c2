"""The rubrica package's modules import each other without a circle (issue 39 item 6).

A circle (batcher -> client -> batcher, records -> client -> … -> records) makes the import
order decide whether a name exists yet, and a trainer that imports one adapter first can get a
half-initialised module. Every import statement counts, also those inside functions.
"""

import ast
import os
import unittest

import rubrica

PACKAGE = os.path.dirname(os.path.abspath(rubrica.__file__))


def imports_of(path):
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("rubrica."))
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "rubrica":  # from rubrica import batcher
                found.update(f"rubrica.{a.name}" for a in node.names)
            elif node.module.startswith("rubrica."):
                found.add(node.module)
    return found


def graph():
    g = {}
    for name in sorted(os.listdir(PACKAGE)):
        if name.endswith(".py") and name not in ("__init__.py", "__main__.py"):
            mod = f"rubrica.{name[:-3]}"
            g[mod] = {m for m in imports_of(os.path.join(PACKAGE, name)) if m != mod}
    return g


def find_cycle(g):
    state, stack = {}, []

    def visit(n):
        state[n] = "open"
        stack.append(n)
        for m in sorted(g.get(n, ())):
            if state.get(m) == "open":
                return stack[stack.index(m) :] + [m]
            if m not in state:
                cycle = visit(m)
                if cycle:
                    return cycle
        stack.pop()
        state[n] = "done"
        return None

    for n in sorted(g):
        if n not in state:
            cycle = visit(n)
            if cycle:
                return cycle
    return None


class ImportGraphTest(unittest.TestCase):
    def test_no_module_imports_itself_through_others(self):
        cycle = find_cycle(graph())
        self.assertIsNone(cycle, f"import circle: {' -> '.join(cycle or [])}")

    def test_the_checker_sees_a_circle(self):
        self.assertEqual(find_cycle({"a": {"b"}, "b": {"a"}}), ["a", "b", "a"])


if __name__ == "__main__":
    unittest.main()
