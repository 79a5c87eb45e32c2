"""PEP 517 build backend for the rubrica_judge package (standard library only).

The same backend as integrations/python/build_backend/rubrica_build.py (read that file's notes:
`requires = []` leaves pip nothing to download, so the package builds offline, with or without
build isolation, with no setuptools or `wheel` installed), pointed at the `rubrica_judge`
package and no top-level modules. A copy rather than a shared import because PEP 517 requires
`backend-path` to lie inside the project being built, and an sdist must build on its own.
"""

import base64
import hashlib
import io
import json
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "rubrica_judge"
TOP_LEVEL = ()
# Zip entries carry this date so that building the same sources twice gives the same bytes.
EPOCH = (1980, 1, 1, 0, 0, 0)

_STRING_LINE = re.compile(r'^([A-Za-z0-9_-]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$')


def read_project_table(text):
    """pyproject.toml's [project] table: tomllib where Python has it, else the one form used here.

    The fallback reads `key = "basic string"` lines only and refuses anything else in the
    table, so a richer pyproject.toml fails loudly instead of losing a field.
    """
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        return _read_project_strings(text)
    return tomllib.loads(text).get("project", {})


def _read_project_strings(text):
    table, inside = {}, False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            inside = line == "[project]"
            continue
        if not inside:
            continue
        m = _STRING_LINE.match(line)
        if not m:
            raise ValueError(f"pyproject.toml [project]: only `key = \"string\"` lines are supported, got {line!r}")
        table[m.group(1)] = json.loads('"' + m.group(2) + '"')
    return table


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        project = read_project_table(f.read())
    for key in ("name", "version"):
        if not isinstance(project.get(key), str):
            raise ValueError(f"pyproject.toml [project] needs a string {key!r}")
    return project


def _dist_name(project):
    # Wheel and sdist file names use the normalised name with "_" (PEP 427 / PEP 625).
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def metadata_text(project):
    """The core metadata (METADATA / PKG-INFO) for `project`."""
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    if isinstance(project.get("license"), str):
        lines.append(f"License: {project['license']}")
    return "\n".join(lines) + "\n"


def source_files():
    """(path inside the wheel, path on disk) for every file the wheel ships, sorted."""
    out = [(name, os.path.join(ROOT, name)) for name in TOP_LEVEL]
    for folder, dirs, files in os.walk(os.path.join(ROOT, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in files:
            if name.endswith(".py"):
                disk = os.path.join(folder, name)
                out.append((os.path.relpath(disk, ROOT).replace(os.sep, "/"), disk))
    return sorted(out)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{path},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory, entries):
    """Zip `entries` [(path, bytes)] plus dist-info into a py3-none-any wheel; returns its name."""
    project = _project()
    dist = _dist_name(project)
    info = f"{dist}-{project['version']}.dist-info"
    wheel_meta = "Wheel-Version: 1.0\nGenerator: rubrica_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files = list(entries) + [
        (f"{info}/METADATA", metadata_text(project).encode("utf-8")),
        (f"{info}/WHEEL", wheel_meta.encode("utf-8")),
    ]
    record = "\n".join([_record_line(p, d) for p, d in files] + [f"{info}/RECORD,,"]) + "\n"
    files.append((f"{info}/RECORD", record.encode("utf-8")))
    filename = f"{dist}-{project['version']}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files:
            entry = zipfile.ZipInfo(path, EPOCH)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(entry, data)
    return filename


def _read(disk):
    with open(disk, "rb") as f:
        return f.read()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, [(path, _read(disk)) for path, disk in source_files()])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # PEP 660: a wheel whose only content is a .pth line putting this source tree on sys.path,
    # so edits to the adapters take effect without reinstalling.
    pth = (f"__editable__.{_dist_name(_project())}.pth", (ROOT + "\n").encode("utf-8"))
    return _write_wheel(wheel_directory, [pth])


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    members = [(path, _read(disk)) for path, disk in source_files()]
    members += [
        ("pyproject.toml", _read(os.path.join(ROOT, "pyproject.toml"))),
        ("build_backend/judge_build.py", _read(os.path.abspath(__file__))),
        ("PKG-INFO", metadata_text(project).encode("utf-8")),
    ]
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path, data in sorted(members):
            member = tarfile.TarInfo(f"{base}/{path}")
            member.size, member.mode, member.mtime = len(data), 0o644, 315532800
            tar.addfile(member, io.BytesIO(data))
    return filename
