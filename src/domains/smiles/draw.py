# Draws the molecules of a SMILES list (stdin: one "SMILES [name]" per line, '#' comments)
# with RDKit's Cairo 2D drawer and writes one PNG grid to stdout. Runs inside rubrica's
# sandbox (src/domains/smiles/renderer.ts). Exit 3: a line is not a molecule, or too many
# molecules (stderr says which); exit 4: no molecule at all.
# With --serve it is a warm worker (issue 23: starting Python and importing RDKit was most of a
# fresh run's cost): it speaks src/domains/sandbox/line-worker.ts's protocol — "<n>\n" + n
# bytes of {"text": …}, then "<nonce>\n"; it answers "<nonce> " + {"ok": true, "png": base64}
# or {"ok": false, "exit": 3|4, "message": …}. A SMILES list is data, never code: drawing one
# leaves nothing behind for the next job; the pool still replaces the worker after 500 jobs.
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.Draw import rdMolDraw2D

MAX_MOLECULES = 24
PANEL = 300
PER_ROW = 4

RDLogger.DisableLog("rdApp.*")


def draw(text):
    """(0, png, "") or (3 | 4, None, message) for one SMILES list."""
    mols, legends = [], []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        smiles, _, name = line.partition(" ")
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            return 3, None, f"line {n}: not a valid SMILES: {smiles[:200]}\n"
        mols.append(mol)
        legends.append(name.strip()[:80])
        if len(mols) > MAX_MOLECULES:
            return 3, None, f"more than {MAX_MOLECULES} molecules\n"
    if not mols:
        return 4, None, "no molecule in the input\n"
    cols = min(PER_ROW, len(mols))
    rows = (len(mols) + cols - 1) // cols
    drawer = rdMolDraw2D.MolDraw2DCairo(cols * PANEL, rows * PANEL, PANEL, PANEL)
    drawer.DrawMolecules(mols, legends=legends)
    drawer.FinishDrawing()
    return 0, drawer.GetDrawingText(), ""


def serve():
    import base64
    import json

    inp, out = sys.stdin.buffer, sys.stdout.buffer
    out.write(b'{"ready": true}\n')
    out.flush()
    while True:
        header = inp.readline()
        if not header:
            return
        job = json.loads(inp.read(int(header)))
        code, png, message = draw(job["text"])
        nonce = inp.readline().strip()
        if code == 0:
            answer = {"ok": True, "png": base64.b64encode(png).decode()}
        else:
            answer = {"ok": False, "exit": code, "message": message}
        out.write(nonce + b" " + json.dumps(answer).encode() + b"\n")
        out.flush()


if len(sys.argv) > 1 and sys.argv[1] == "--serve":
    serve()
else:
    code, png, message = draw(sys.stdin.read())
    if code:
        sys.stderr.write(message)
        sys.exit(code)
    sys.stdout.buffer.write(png)
