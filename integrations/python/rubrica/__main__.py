"""`python3 -m rubrica path verl|openrlhf` and `python3 -m rubrica doctor [URL]`.

`doctor` checks a rubrica service from a trainer's node (rubrica.doctor: checks, exit codes).

`path` prints where the installed entry file of a trainer is.

verl (`custom_reward_function.path`) and OpenRLHF (`--remote_rm_url file.py`) load a reward
function from a file path, resolved against the working directory of whichever process loads
it. Printing the installed file's absolute path gives a setting that works from any working
directory, for as long as the package is installed there.
"""

import argparse
import importlib.util
import os
import sys

import rubrica

ENTRY_MODULES = {"verl": "rubrica_verl", "openrlhf": "rubrica_openrlhf"}


def entry_path(trainer):
    """Absolute path of the installed top-level entry module for `trainer`."""
    spec = importlib.util.find_spec(ENTRY_MODULES[trainer])
    if spec is None or not spec.origin:
        raise SystemExit(f"{ENTRY_MODULES[trainer]}.py is not installed; pip install integrations/python")
    return spec.origin


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m rubrica", description=__doc__.split("\n\n")[0])
    ap.add_argument("--version", action="version", version=f"rubrica (python adapters) {rubrica.__version__}")
    sub = ap.add_subparsers(dest="command", required=True)
    path = sub.add_parser("path", help="print the absolute path of a trainer's entry file")
    path.add_argument("trainer", choices=sorted(ENTRY_MODULES))
    doc = sub.add_parser("doctor", help="check a rubrica service from this node (exit 0 = usable)")
    doc.add_argument("url", nargs="?", default=os.environ.get("RUBRICA_URL") or "http://127.0.0.1:8787")
    doc.add_argument("--token", default=os.environ.get("RUBRICA_TOKEN") or None, help="default: RUBRICA_TOKEN")
    doc.add_argument("--timeout", type=float, default=30.0, help="seconds per request (default 30)")
    doc.add_argument("--reward", default=None, help="expected reward kind (default: RUBRICA_REWARD or ruler)")
    doc.add_argument("--prompt-id", default=None, help="a rubric id the service holds, to judge for real")
    args = ap.parse_args(argv)
    if args.command == "path":
        sys.stdout.write(entry_path(args.trainer) + "\n")
    elif args.command == "doctor":
        from rubrica import doctor

        return doctor.main(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
