// The smiles domain: RDKit draws a list of molecules as a grid in the sandbox; bad SMILES,
// an empty list, too many molecules and oversized input are values with their codes; text
// that is not SMILES (an attempt at code) is only ever parsed as SMILES; a normal list
// renders right after. Also: a ```smiles answer goes through inspect like any domain.
import { describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../inspect/inspect.ts';
import { createRenderPool } from '../../render/pool.ts';
import { createDomainRenderers } from '../renderers.ts';
import type { DomainRender } from '../types.ts';
import { createSmilesRenderer } from './renderer.ts';

const THREE =
  'CC(=O)Oc1ccccc1C(=O)O aspirin\nCN1C=NC2=C1C(=O)N(C(=O)N2C)C caffeine\nc1ccccc1 benzene';

function error(r: DomainRender) {
  if (r.ok) throw new Error('expected a failure');
  return r.error;
}

describe('smiles domain', () => {
  const mol = createSmilesRenderer();

  it('draws one 300-px panel per molecule, four to a row', async () => {
    const r = await mol.render(THREE);
    expect(r.ok && [r.width, r.height]).toEqual([900, 300]);
    const six = await mol.render(`${THREE}\nCCO ethanol\nO water\nC methane`);
    expect(six.ok && [six.width, six.height]).toEqual([1200, 600]);
  }, 60_000);

  it('bad input is a value with its code, and the renderer goes on', async () => {
    const bad = error(await mol.render('CCO ethanol\nC1CC( broken'));
    expect(bad.code).toBe('exec_error');
    expect(bad.message).toContain('line 2: not a valid SMILES: C1CC(');
    expect(error(await mol.render('# only a comment\n')).code).toBe('no_output');
    const many = Array.from({ length: 30 }, (_, i) => `${'C'.repeat(i + 1)} c${i}`).join('\n');
    expect(error(await mol.render(many)).message).toContain('more than 24 molecules');
    expect(error(await mol.render('C'.repeat(20_000))).code).toBe('too_large');
    // Code is not run: it is read as SMILES and refused.
    const code = error(await mol.render('__import__("os").system("id")'));
    expect(code.code).toBe('exec_error');
    // A long (but allowed) chain is drawn within the limits.
    const chain = await mol.render(`${'C'.repeat(4000)} long`, { timeoutMs: 8_000 });
    expect(['ok', 'timeout']).toContain(chain.ok ? 'ok' : chain.error.code);
    expect((await mol.render(THREE)).ok).toBe(true);
  }, 120_000);

  it('inspect finds a ```smiles answer, renders and checks it', async () => {
    const svg = createRenderPool({ workers: 1 });
    const domains = createDomainRenderers({ svgRenderer: svg });
    try {
      const ins = await inspectCompletion(`The molecules:\n\`\`\`smiles\n${THREE}\n\`\`\`\n`, {
        renderer: svg,
        domains,
      });
      expect(ins.artifact).toMatchObject({ found: true, domain: 'smiles', source: 'fence' });
      expect(ins.render?.ok && [ins.render.width, ins.render.height]).toEqual([900, 300]);
      expect(ins.summary.blank).toBe(false);
    } finally {
      await domains.close();
      await svg.close();
    }
  }, 120_000);
});
