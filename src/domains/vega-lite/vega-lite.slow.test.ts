// The vega-lite domain: inline-data charts render through the SVG renderer; remote and
// data: URLs are never fetched (a loopback logger sees nothing), generator and inline data
// bombs are refused, a runaway runtime is replaced, and a normal chart renders right after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackLogger, startLoopbackLogger } from '../../../test/support/loopback-logger.ts';
import { EXPRESSION_ARRAYS, SIGNAL_SEQUENCE } from '../../../test/support/vega-heap-bombs.ts';
import { createRenderPool, type RenderPool } from '../../render/index.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';
import { createVegaLiteRenderer } from './renderer.ts';

const BAR = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  data: {
    values: [
      { a: 'A', b: 28 },
      { a: 'B', b: 55 },
      { a: 'C', b: 43 },
    ],
  },
  mark: 'bar',
  encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
};

let pool: RenderPool;
let vl: DomainRenderer;
let logger: LoopbackLogger;
beforeAll(async () => {
  logger = await startLoopbackLogger();
  pool = createRenderPool({ workers: 1 });
  vl = createVegaLiteRenderer({ svgRenderer: pool, timeoutMs: 15_000, heapMb: 128 });
});
afterAll(async () => {
  await vl.close();
  await pool.close();
  await logger.close();
});

const code = (r: DomainRender) => (r.ok ? 'ok' : r.error.code);

describe('vega-lite domain', () => {
  it('renders an inline-data chart and counts its rows; bad JSON is an exec_error', async () => {
    const r = await vl.render(JSON.stringify(BAR));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.notes.dataRows).toBe(3);
    const empty = await vl.render(JSON.stringify({ ...BAR, data: { values: [] } }));
    expect(empty.ok && empty.notes.dataRows).toBe(0);
    const bad = await vl.render('{"mark": ');
    expect(!bad.ok && bad.error.message).toContain('not valid JSON');
  }, 60_000);

  it('never fetches, refuses data bombs, survives a runaway chart, then still renders', async () => {
    for (const url of [
      logger.url,
      `${logger.url}data.json`,
      'data:text/csv,a%0A1',
      'file:///etc/passwd',
    ]) {
      const r = await vl.render(JSON.stringify({ ...BAR, data: { url } }));
      expect(code(r)).toBe('exec_error');
      expect(!r.ok && r.error.message).toContain('never fetched');
    }
    const image = await vl.render(
      JSON.stringify({
        data: { values: [{ x: 1, u: logger.url }] },
        mark: 'image',
        encoding: { x: { field: 'x', type: 'quantitative' }, url: { field: 'u', type: 'nominal' } },
      }),
    );
    expect(code(image)).not.toBe('ok');
    const seq = await vl.render(
      JSON.stringify({ ...BAR, data: { sequence: { start: 0, stop: 1e9 } } }),
    );
    expect(code(seq)).toBe('too_large');
    const rows = Array.from({ length: 60_000 }, (_, i) => ({ a: i, b: i }));
    expect(code(await vl.render(JSON.stringify({ ...BAR, data: { values: rows } })))).toBe(
      'too_large',
    );
    // A cross product the row count cannot see: 2 000 × 2 000 joined rows.
    const cross = await vl.render(
      JSON.stringify({
        data: { sequence: { start: 0, stop: 2000, as: 'a' } },
        transform: [{ calculate: 'sequence(0, 2000)', as: 'b' }, { flatten: ['b'] }],
        mark: 'point',
        encoding: {
          x: { field: 'a', type: 'quantitative' },
          y: { field: 'b', type: 'quantitative' },
        },
      }),
      { timeoutMs: 5_000 },
    );
    expect(['timeout', 'too_large']).toContain(code(cross));
    expect(code(await vl.render(JSON.stringify(BAR)))).toBe('ok');
    expect(logger.hits).toEqual([]);
  }, 120_000);

  // Issue 22 item 3: these aborted the whole process while vega ran in a worker thread.
  it('a spec that exhausts the heap fails alone (too_large); the next chart renders', async () => {
    const signal = await vl.render(SIGNAL_SEQUENCE);
    expect(code(signal)).toBe('too_large');
    expect(!signal.ok && signal.error.message).toContain('rows from a sequence');
    const arrays = await vl.render(EXPRESSION_ARRAYS);
    expect(code(arrays)).toBe('too_large');
    expect(!arrays.ok && arrays.error.message).toContain('more than 128 MB');
    const after = await vl.render(JSON.stringify(BAR));
    expect(code(after)).toBe('ok');
    if (after.ok) expect(after.notes.dataRows).toBe(3);
  }, 120_000);
});
