// Real third-party example collections (test/fixtures/corpora/README.md: Graphviz's example
// graphs, Altair's example charts as Vega-Lite specs, the Mermaid README's diagrams) render
// `ok` and non-blank through rubrica's domain renderers, the way rollouts of those domains do.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainId } from '../../src/core/domain-ids.ts';
import { toRenderResult } from '../../src/domains/render-result.ts';
import { createDomainRenderers, type DomainRenderers } from '../../src/domains/renderers.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';

const ROOT = join(import.meta.dirname, '../fixtures/corpora');
const corpus = (folder: string, ext: string) =>
  readdirSync(join(ROOT, folder))
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => [f, readFileSync(join(ROOT, folder, f), 'utf8')] as const);

let svg: RenderPool;
let domains: DomainRenderers;
beforeAll(() => {
  svg = createRenderPool({ workers: 1 });
  domains = createDomainRenderers({ svgRenderer: svg, browserPages: 1 });
});
afterAll(async () => {
  await domains.close();
  await svg.close();
});

/** Renders each file; returns [name, outcome, ink share] so a failure names its file. */
async function renderAll(domain: DomainId, files: (readonly [string, string])[]) {
  const out: [string, string, number][] = [];
  for (const [name, code] of files) {
    const r = await domains.render(domain, code, { timeoutMs: 120_000 });
    const res = await toRenderResult(r, code);
    const ink = res.ok ? res.pixels.inkCoverage : 0;
    out.push([name, r.ok ? 'ok' : `${r.error.code}: ${r.error.message.slice(0, 200)}`, ink]);
  }
  return out;
}

describe('third-party corpora render through their domain', () => {
  it.each([
    ['dot', 'graphviz', '.gv', 5],
    ['vega-lite', 'vega-lite', '.vl.json', 6],
    ['mermaid', 'mermaid', '.mmd', 4],
  ] as const)(
    '%s: every file of %s/ is ok and not blank',
    async (domain, folder, ext, n) => {
      const files = corpus(folder, ext);
      expect(files).toHaveLength(n);
      const results = await renderAll(domain, files);
      expect(results.map(([name, outcome]) => [name, outcome])).toEqual(
        files.map(([name]) => [name, 'ok']),
      );
      for (const [name, , ink] of results) expect(ink, name).toBeGreaterThan(0.001);
    },
    600_000,
  );
});
