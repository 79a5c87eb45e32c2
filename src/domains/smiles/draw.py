# Draws the molecules of a SMILES list (stdin: one "SMILES [name]" per line, '#' comments)
# with RDKit's Cairo 2D drawer and writes one PNG grid to stdout. Runs inside rubrica's
# sandbox (src/domains/smiles/renderer.ts). Exit 3: a line is not a molecule, or too many
# molecules (stderr says which); exit 4: no molecule at all.
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.Draw import rdMolDraw2D

MAX_MOLECULES = 24
PANEL = 300
PER_ROW = 4

RDLogger.DisableLog("rdApp.*")
mols, legends = [], []
for n, raw in enumerate(sys.stdin.read().splitlines(), 1):
    line = raw.strip()
    if not line or line.startswith("#"):
        continue
    smiles, _, name = line.partition(" ")
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        sys.stderr.write(f"line {n}: not a valid SMILES: {smiles[:200]}\n")
        sys.exit(3)
    mols.append(mol)
    legends.append(name.strip()[:80])
    if len(mols) > MAX_MOLECULES:
        sys.stderr.write(f"more than {MAX_MOLECULES} molecules\n")
        sys.exit(3)
if not mols:
    sys.stderr.write("no molecule in the input\n")
    sys.exit(4)
cols = min(PER_ROW, len(mols))
rows = (len(mols) + cols - 1) // cols
drawer = rdMolDraw2D.MolDraw2DCairo(cols * PANEL, rows * PANEL, PANEL, PANEL)
drawer.DrawMolecules(mols, legends=legends)
drawer.FinishDrawing()
sys.stdout.buffer.write(drawer.GetDrawingText())
