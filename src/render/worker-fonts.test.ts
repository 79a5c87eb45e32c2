// The render worker draws text with the pinned fonts only: a family the pin does not know
// (Latin Modern is installed on this machine, so unpinned fontconfig would use it) draws
// exactly as DejaVu Sans, and unlike DejaVu Serif.
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderPool } from './pool.ts';

const text = (family: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60"><text x="10" y="40" font-size="28" font-family="${family}">Handgloves</text></svg>`;

const pool = createRenderPool({ workers: 1 });
afterAll(() => pool.close());

async function png(family: string): Promise<Buffer> {
  const r = await pool.render(text(family));
  if (!r.ok) throw new Error(r.error.message);
  return Buffer.from(r.png);
}

describe('render worker fonts', () => {
  it('draws an unpinned family as DejaVu Sans, and serif differently', async () => {
    const [latinModern, dejavu, serif] = await Promise.all([
      png('Latin Modern Roman'),
      png('DejaVu Sans'),
      png('serif'),
    ]);
    expect(latinModern.equals(dejavu)).toBe(true);
    expect(serif.equals(dejavu)).toBe(false);
  });
});
