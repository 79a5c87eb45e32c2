// The warm dot (issue 23): the same pictures and failure codes as a fresh one-shot sandbox,
// and no job's text or failure reaches the next job.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { dotCorpus } from '../../../test/support/domain-corpus.ts';
import type { DomainRender } from '../types.ts';
import { createDotRenderer } from './renderer.ts';
import { MARKER_GRAPH } from './warm.ts';

const warm = createDotRenderer({ pool: true, poolSize: 1, timeoutMs: 10_000 });
const fresh = createDotRenderer({ pool: false, timeoutMs: 10_000 });
// The default renderer: two warm processes, several jobs at once.
const pair = createDotRenderer({ timeoutMs: 20_000 });
afterAll(async () => {
  await warm.close();
  await fresh.close();
  await pair.close();
});
const code = (r: DomainRender) => (r.ok ? 'ok' : r.error.code);

describe('warm dot', () => {
  it('draws the same pictures as a fresh sandbox, file after file', async () => {
    for (const g of dotCorpus(6)) {
      const [a, b] = [await warm.render(g), await fresh.render(g)];
      expect(a.ok && b.ok && a.png.equals(b.png)).toBe(true);
    }
  }, 120_000);

  it('fails like the one-shot on bad input, and the next job draws normally', async () => {
    const next = 'digraph { p -> q }';
    const plain = await fresh.render(next);
    for (const bad of [
      'digraph { a -> }', // syntax error: the worker is replaced
      'digraph { a [label="never closed] }', // ends inside a string: one-shot
      'digraph { a -> b', // open brace: one-shot
      '/* nothing */',
      `digraph { a } ${MARKER_GRAPH} digraph { b }`, // a forged end marker
    ]) {
      const [a, b] = [await warm.render(bad), await fresh.render(bad)];
      expect(code(a), bad).toBe(code(b));
      const after = await warm.render(next);
      expect(after.ok && plain.ok && after.png.equals(plain.png), bad).toBe(true);
    }
  }, 120_000);

  it('gives every job its own outcome when two warm processes draw many jobs at once', async () => {
    // The 20 graphs of the per-domain run (2 broken: a syntax error and an unclosed graph),
    // all at once, three times. A slot freed before its job ended let two jobs share one
    // process and swap pictures or errors: 18 of 60 outcomes were another job's.
    const url = new URL('../../../test/fixtures/prisma-domains/dot.jsonl', import.meta.url);
    const graphs = readFileSync(url, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { code: string }).code);
    const want: DomainRender[] = [];
    for (const g of graphs) want.push(await fresh.render(g));
    const outcome = (r: DomainRender) => (r.ok ? r.png.toString('base64') : r.error.code);
    for (let round = 0; round < 3; round++) {
      const got = await Promise.all(graphs.map((g) => pair.render(g)));
      expect(got.map(outcome)).toEqual(want.map(outcome));
    }
  }, 180_000);
});
