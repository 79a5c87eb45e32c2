// The smiles domain (chemistry, PrismaForge's "via RDKit"): the answer is a list of
// molecules as SMILES, one per line with an optional name; RDKit (Debian python3-rdkit)
// draws them as a grid of 300-px panels inside the sandbox. SMILES is data, not code, but
// the parser and the drawer still run sandboxed and bounded (size, molecule count, CPU, time).
import { fileURLToPath } from 'node:url';
import type { SandboxLimits } from '../sandbox/bwrap.ts';
import { createOneShotRenderer } from '../sandbox/one-shot.ts';
import type { DomainRenderer } from '../types.ts';

export interface SmilesRendererOptions {
  timeoutMs?: number;
  limits?: Partial<SandboxLimits>;
}

const DRAW = fileURLToPath(new URL('./draw.py', import.meta.url));

export function createSmilesRenderer(opts: SmilesRendererOptions = {}): DomainRenderer {
  return createOneShotRenderer({
    name: 'rdkit',
    spec: {
      // draw.py exits 3 (not a molecule: exec_error) or 4 (none: no_output), as one-shot expects.
      argv: ['/usr/bin/python3', '-I', '/opt/rubrica/draw.py'],
      roBinds: [{ host: DRAW, path: '/opt/rubrica/draw.py' }],
      limits: { cpuSeconds: 20, memoryBytes: 2 * 1024 ** 3, processes: 16, ...opts.limits },
    },
    timeoutMs: opts.timeoutMs ?? 20_000,
    maxCodeBytes: 16 * 1024,
  });
}
