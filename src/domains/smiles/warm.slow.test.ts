// The warm RDKit worker (issue 23) draws the same pictures and gives the same codes as a fresh
// one-shot sandbox, job after job.
import { afterAll, describe, expect, it } from 'vitest';
import { smilesCorpus } from '../../../test/support/domain-corpus.ts';
import type { DomainRender } from '../types.ts';
import { createSmilesRenderer } from './renderer.ts';

const warm = createSmilesRenderer({ timeoutMs: 20_000 });
const fresh = createSmilesRenderer({ pool: false, timeoutMs: 20_000 });
afterAll(async () => {
  await warm.close();
  await fresh.close();
});
const code = (r: DomainRender) => (r.ok ? 'ok' : r.error.code);

describe('warm smiles', () => {
  it('same pictures and codes as a fresh sandbox', async () => {
    for (const text of [...smilesCorpus(4), 'C1CC( broken', '# nothing\n', 'CCO\nC1CC(']) {
      const [a, b] = [await warm.render(text), await fresh.render(text)];
      expect(code(a), text).toBe(code(b));
      if (a.ok && b.ok) expect(a.png.equals(b.png), text).toBe(true);
      if (!a.ok && !b.ok) expect(a.error.message, text).toBe(b.error.message);
    }
  }, 180_000);
});
