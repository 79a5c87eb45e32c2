"""The adapters as an installable package: the in-tree build backend, an offline pip install,
and what verl and OpenRLHF do with the files they load by path.

verl loads `custom_reward_function.path` with importlib under its own module name and Ray then
pickles the function for other workers; OpenRLHF does the same with `ray.remote(reward_func)`.
A function that lives in such a by-path module pickles as "custom_module.compute_score", which
no other process can import. These tests install the package into a fresh directory with pip
(offline: --no-index), load the entry files exactly as the trainers do, and unpickle the
functions in a new process started elsewhere, as a Ray worker would.
"""

import importlib.util
import json
import os
import pickle
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)


def load_backend():
    spec = importlib.util.spec_from_file_location(
        "rubrica_build_under_test", os.path.join(PROJECT, "build_backend", "rubrica_build.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


backend = load_backend()

# Run in the installed copy's process: load an entry file by path the way a trainer does, pickle
# the reward function, and print the pickle (hex) for a second, unrelated process.
LOAD_AND_PICKLE = r"""
import importlib.util, pickle, sys
path, style, attr = sys.argv[1:4]
if style == "verl":  # verl: registered in sys.modules as "custom_module", then executed
    spec = importlib.util.spec_from_file_location("custom_module", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["custom_module"] = module
else:  # OpenRLHF: executed under the name "reward_func", never registered
    spec = importlib.util.spec_from_file_location("reward_func", path)
    module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(pickle.dumps(getattr(module, attr)).hex())
"""

UNPICKLE = r"""
import json, pickle, sys
fn = pickle.loads(bytes.fromhex(sys.stdin.read().strip()))
print(json.dumps({"module": fn.__module__, "name": fn.__name__, "file": sys.modules[fn.__module__].__file__}))
"""


class BackendTest(unittest.TestCase):
    def test_wheel_holds_the_package_and_entry_modules_with_a_true_record(self):
        with tempfile.TemporaryDirectory() as out:
            name = backend.build_wheel(out)
            self.assertEqual(name, "rubrica-0.1.0-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(out, name)) as zf:
                names = set(zf.namelist())
                for expected in (
                    "rubrica/__init__.py",
                    "rubrica/verl.py",
                    "rubrica/client.py",
                    "rubrica/connection.py",
                    "rubrica/batcher.py",
                    "rubrica/components.py",
                    "rubrica/records.py",
                    "rubrica/slime.py",
                    "rubrica/doctor.py",
                    "rubrica_verl.py",
                ):
                    self.assertIn(expected, names)
                self.assertFalse([n for n in names if n.startswith("tests/") or "scorer_server" in n])
                meta = zf.read("rubrica-0.1.0.dist-info/METADATA").decode()
                self.assertIn("Name: rubrica\n", meta)
                self.assertIn("Requires-Python: >=3.9\n", meta)
                record = zf.read("rubrica-0.1.0.dist-info/RECORD").decode().splitlines()
                listed = {line.split(",")[0] for line in record}
                self.assertEqual(listed, names)
                for line in record:
                    path, digest, size = line.split(",")
                    if path.endswith("RECORD"):
                        continue
                    self.assertEqual(line, backend._record_line(path, zf.read(path)))

    def test_editable_wheel_points_at_this_source_tree(self):
        with tempfile.TemporaryDirectory() as out:
            name = backend.build_editable(out)
            with zipfile.ZipFile(os.path.join(out, name)) as zf:
                pth = [n for n in zf.namelist() if n.endswith(".pth")]
                self.assertEqual(pth, ["__editable__.rubrica.pth"])
                self.assertEqual(zf.read(pth[0]).decode().strip(), PROJECT)
                self.assertFalse([n for n in zf.namelist() if n.startswith("rubrica/")])

    def test_sdist_builds_the_same_wheel_on_its_own(self):
        # Everything the wheel needs is in the sdist: unpack it and build again from there.
        with tempfile.TemporaryDirectory() as out:
            sdist = backend.build_sdist(out)
            self.assertEqual(sdist, "rubrica-0.1.0.tar.gz")
            with tarfile.open(os.path.join(out, sdist)) as tar:
                safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                tar.extractall(out, **safe)
            unpacked = os.path.join(out, "rubrica-0.1.0")
            wheels = os.path.join(out, "wheels")
            os.mkdir(wheels)
            code = (
                "import sys; sys.path.insert(0, sys.argv[1] + '/build_backend'); import rubrica_build as b; "
                "print(b.build_wheel(sys.argv[2]))"
            )
            built = subprocess.run(
                [sys.executable, "-I", "-c", code, unpacked, wheels], capture_output=True, text=True, cwd=out
            )
            self.assertEqual(built.returncode, 0, built.stderr)
            with zipfile.ZipFile(os.path.join(wheels, built.stdout.strip())) as zf:
                from_sdist = {n: zf.read(n) for n in zf.namelist()}
            direct = backend.build_wheel(out)
            with zipfile.ZipFile(os.path.join(out, direct)) as zf:
                self.assertEqual({n: zf.read(n) for n in zf.namelist()}, from_sdist)

    @unittest.skipIf(sys.version_info < (3, 11), "tomllib is Python 3.11+")
    def test_the_fallback_reader_agrees_with_tomllib_on_pyproject(self):
        with open(os.path.join(PROJECT, "pyproject.toml"), encoding="utf-8") as f:
            text = f.read()
        import tomllib

        self.assertEqual(backend._read_project_strings(text), tomllib.loads(text)["project"])

    def test_the_fallback_reader_refuses_what_it_cannot_read(self):
        with self.assertRaises(ValueError):
            backend._read_project_strings('[project]\nname = "x"\ndependencies = ["requests"]\n')


class InstalledTest(unittest.TestCase):
    """pip installs the package offline into a fresh directory; trainers' loaders use it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.site = os.path.join(cls.tmp.name, "site")
        cls.elsewhere = os.path.join(cls.tmp.name, "elsewhere")
        os.mkdir(cls.elsewhere)
        # Build isolation stays on: with `requires = []` pip has nothing to fetch.
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet", "--target", cls.site, PROJECT],
            check=True,
            capture_output=True,
            cwd=cls.elsewhere,
        )
        cls.env = {**os.environ, "PYTHONPATH": cls.site, "PYTHONDONTWRITEBYTECODE": "1"}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def py(self, *args, stdin=None):
        done = subprocess.run(
            [sys.executable, *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=self.elsewhere,
            env=self.env,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.strip()

    def entry(self, trainer):
        return self.py("-m", "rubrica", "path", trainer)

    def test_path_command_names_the_installed_entry_files(self):
        for trainer, filename in (("verl", "rubrica_verl.py"), ("openrlhf", "rubrica_openrlhf.py")):
            path = self.entry(trainer)
            self.assertTrue(os.path.isabs(path))
            self.assertEqual(path, os.path.join(self.site, filename))

    def assert_pickles_by_name(self, trainer, attr, module):
        blob = self.py("-c", LOAD_AND_PICKLE, self.entry(trainer), trainer, attr)
        # A new process, elsewhere, with only the installed package: what a Ray worker has.
        seen = json.loads(self.py("-c", UNPICKLE, stdin=blob))
        self.assertEqual(seen["module"], module)
        self.assertEqual(seen["name"], attr)
        self.assertTrue(seen["file"].startswith(self.site), seen["file"])

    def test_verl_loads_the_entry_file_and_its_function_reaches_another_process(self):
        self.assert_pickles_by_name("verl", "compute_score", "rubrica.verl")

    def test_openrlhf_loads_the_entry_file_and_its_function_reaches_another_process(self):
        self.assert_pickles_by_name("openrlhf", "reward_func", "rubrica.openrlhf")

    def test_verl_pkg_form_imports_the_module_by_name(self):
        # Newer verl resolves `pkg://rubrica.verl` with importlib.import_module.
        out = self.py("-c", "import importlib; m = importlib.import_module('rubrica.verl'); print(m.compute_score.__module__)")
        self.assertEqual(out, "rubrica.verl")

    def test_an_entry_file_without_the_package_says_how_to_install_it(self):
        # -I -S: no PYTHONPATH, no site-packages, so the rubrica package cannot be found.
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", LOAD_AND_PICKLE, os.path.join(PROJECT, "rubrica_verl.py"), "verl", "compute_score"],
            capture_output=True,
            text=True,
            cwd=self.elsewhere,
        )
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("pip install <rubrica clone>/integrations/python", done.stderr)

    def test_a_function_defined_in_a_by_path_file_would_not_reach_another_process(self):
        # Why the entry files only import: the old layout's functions belonged to "custom_module".
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "by_path.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write("def compute_score(*a, **k):\n    return 0\n")
            blob = self.py("-c", LOAD_AND_PICKLE, path, "verl", "compute_score")
        done = subprocess.run(
            [sys.executable, "-c", UNPICKLE], input=blob, capture_output=True, text=True, cwd=self.elsewhere, env=self.env
        )
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("No module named 'custom_module'", done.stderr)


if __name__ == "__main__":
    unittest.main()
