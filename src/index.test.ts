// The public API is a deliberate list (src/index.ts) and docs/api.md documents it: every
// value the root entry exports must be named there, so an export cannot slip in unseen.
// The other direction (every export api.md names or imports exists, with the parameters it
// gives) and the TSDoc on every export of the four entries are checked in public-docs.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from './index.ts';
import * as reward from './reward/index.ts';

const doc = readFileSync(join(import.meta.dirname, '../docs/api.md'), 'utf8');

describe('docs/api.md', () => {
  it('names every value exported from rubrica', () => {
    const undocumented = Object.keys(api).filter((name) => !doc.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);
  });

  it('rubrica re-exports all of rubrica/reward', () => {
    const missing = Object.keys(reward).filter((name) => !(name in api));
    expect(missing).toEqual([]);
  });
});
