#!/usr/bin/env bash
# The verifiers judge package (integrations/verifiers) and the OpenEnv Space template
# (integrations/openenv-space): their standard-library unittest suites.
#
#   bash scripts/verifiers-judge.sh             python3
#   bash scripts/verifiers-judge.sh python3.12  another interpreter
#
# rubrica_judge is installed as a trainer's environment would install it (pip into a fresh
# virtual environment, offline: its build backend needs only the standard library), together
# with the `rubrica` package, whose test stack (integrations/python/tests/stack.py: a real
# `rubrica serve` on loopback) the live judge tests run against. The suites run from a
# directory outside the clone, so they import the INSTALLED packages. Needs node and the clone's node_modules (the stack and `serve --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
py=${1:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "verifiers-judge: $("$py" --version)"
# A virtual environment of its own, so that installing here never replaces the packages of
# another suite sharing the interpreter.
"$py" -m venv "$work/venv"
py="$work/venv/bin/python"
"$py" -m pip install --quiet --root-user-action=ignore --no-index --no-deps --force-reinstall \
  ./integrations/python ./integrations/verifiers
failed=()
for suite in integrations/verifiers/tests integrations/openenv-space/tests; do
  (cd "$work" && "$py" -W ignore::ResourceWarning -m unittest discover -s "$OLDPWD/$suite" -v) || failed+=("$suite")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "verifiers-judge: failed: ${failed[*]}"
  exit 1
fi
