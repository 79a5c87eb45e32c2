"""The OpenEnv Space template: its manifest parses, its ports agree, its CMD uses real serve flags.

openenv.yaml's format is that of huggingface/OpenEnv `envs/*/openenv.yaml` at 385de5e
(`spec_version: 1`, `name`, `type: space`, `port`); OpenEnv's CLI reads `name`, `description`
and `spec_version` from it (src/openenv/cli/commands/push.py, src/openenv/auto/_discovery.py).
The flags are checked against `rubrica serve --help` of this clone (bin/rubrica.js, from the
TypeScript sources with RUBRICA_FROM_SOURCE=1, so no build is needed).
"""

import json
import os
import re
import shlex
import subprocess
import unittest

SPACE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(os.path.dirname(SPACE))


def read(name):
    with open(os.path.join(SPACE, name), encoding="utf-8") as f:
        return f.read()


def parse_flat_yaml(text):
    """`key: value` lines (comments and blanks skipped) -> dict; anything nested is refused."""
    out = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):\s+(.+)$", line)
        if not m:
            raise ValueError(f"line {number}: not a flat `key: value` line: {raw!r}")
        value = m.group(2).strip()
        if value.startswith('"'):
            value = json.loads(value)
        elif re.fullmatch(r"-?\d+", value):
            value = int(value)
        out[m.group(1)] = value
    return out


def front_matter(text):
    m = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    if not m:
        raise ValueError("README.md has no front matter")
    # The card also holds a `tags:` list; only its flat `key: value` lines matter here.
    flat = [l for l in m.group(1).splitlines() if re.match(r"^[A-Za-z_]+:\s+\S", l)]
    return parse_flat_yaml("\n".join(flat))


def dockerfile_cmd(text):
    """The shell command the Dockerfile's CMD runs (exec form, `sh -c` unwrapped)."""
    lines = [l for l in text.splitlines() if l.startswith("CMD ")]
    if len(lines) != 1:
        raise ValueError(f"expected one CMD line, found {len(lines)}")
    argv = json.loads(lines[0][len("CMD ") :])
    if argv[:2] == ["sh", "-c"]:
        return shlex.split(argv[2])
    return argv


def serve_help_flags():
    env = dict(os.environ, RUBRICA_FROM_SOURCE="1")
    out = subprocess.run(
        ["node", "bin/rubrica.js", "serve", "--help"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    if out.returncode != 0:
        raise RuntimeError(f"rubrica serve --help exited {out.returncode}: {out.stderr}")
    return set(re.findall(r"^\s+(--[a-z0-9-]+)", out.stdout, re.M))


class SpaceTemplate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.manifest = parse_flat_yaml(read("openenv.yaml"))
        cls.argv = dockerfile_cmd(read("Dockerfile"))
        cls.help_flags = serve_help_flags()

    def test_manifest_has_the_fields_openenv_reads(self):
        self.assertEqual(self.manifest["spec_version"], 1)
        self.assertEqual(self.manifest["type"], "space")
        # _discovery.py appends "_env" to a name without it; the envs/ manifests carry it.
        self.assertRegex(self.manifest["name"], r"^[a-z0-9_]+_env$")
        self.assertIsInstance(self.manifest["description"], str)

    def test_cmd_runs_serve_openenv_on_all_interfaces(self):
        exec_at = self.argv.index("rubrica")
        self.assertEqual(self.argv[exec_at : exec_at + 2], ["rubrica", "serve"])
        args = self.argv[exec_at + 2 :]
        self.assertIn("--openenv", args)
        self.assertEqual(args[args.index("--host") + 1], "0.0.0.0")
        # Without --insecure serve refuses 0.0.0.0 unless RUBRICA_TOKEN (a Space secret) is set.
        self.assertNotIn("--insecure", args)
        self.assertNotIn("--token", args)  # a token on the command line would show in the logs

    def test_every_cmd_flag_is_one_serve_help_lists(self):
        self.assertIn("--openenv", self.help_flags)  # the help was really read
        flags = [a for a in self.argv if a.startswith("--")]
        self.assertGreater(len(flags), 3)
        self.assertEqual([f for f in flags if f not in self.help_flags], [])

    def test_the_port_agrees_across_manifest_dockerfile_and_space_card(self):
        args = self.argv
        port = int(args[args.index("--port") + 1])
        self.assertEqual(port, self.manifest["port"])
        self.assertIn(f"EXPOSE {port}", read("Dockerfile").splitlines())
        card = front_matter(read("README.md"))
        self.assertEqual(card["sdk"], "docker")
        self.assertEqual(card["app_port"], port)

    def test_the_flat_parser_refuses_nesting(self):
        with self.assertRaises(ValueError):
            parse_flat_yaml("variables:\n  A: b\n")


if __name__ == "__main__":
    unittest.main()
