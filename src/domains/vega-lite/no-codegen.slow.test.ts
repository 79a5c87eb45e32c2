// Issue 35 item 2: no text a policy writes ever reaches `new Function`. The worker runs (in its
// sandbox) under test/support/vega-function-trap.mjs, which replaces every string-to-code door (Function,
// eval, the constructors behind (function(){}).constructor) with a trap for the whole job;
// charts full of expressions must still render, and nothing may reach a trap. On the code
// before the AST interpreter, vega compiled each expression with Function: the traps fired and
// the render failed. The real runtime (V8's --disallow-code-generation-from-strings) renders
// the same charts.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isFailure, LineWorker } from '../sandbox/line-worker.ts';
import { VegaRuntime } from './runtime.ts';
import { insidePath, vegaSandboxSpec } from './sandbox-spec.ts';

const TRAP = fileURLToPath(
  new URL('../../../test/support/vega-function-trap.mjs', import.meta.url),
);

/** Vega-Lite: a param (signal), filter and calculate transforms, inline CSV, a nested field. */
const LITE = JSON.stringify({
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  params: [{ name: 'cut', value: 2 }],
  data: { values: 'k,v\nA,1\nB,3\nC,5\nD,7', format: { type: 'csv', parse: { v: 'number' } } },
  transform: [
    { filter: 'datum.v > cut' },
    { calculate: "datum.v * 10 + (datum.k === 'C' ? 1 : 0)", as: 'w' },
    { calculate: "{inner: {x: datum.w}, 'odd key\"]': 1}", as: 'nest' },
  ],
  mark: 'bar',
  encoding: {
    x: { field: 'k', type: 'nominal', sort: { field: 'w', order: 'descending' } },
    y: { field: 'nest.inner.x', type: 'quantitative' },
    color: { condition: { test: 'datum.w > 60', value: 'red' }, value: 'steelblue' },
  },
});

/** Vega: signals with update expressions, formula and filter, an encode-time expression. */
const VEGA = JSON.stringify({
  $schema: 'https://vega.github.io/schema/vega/v5.json',
  width: 120,
  height: 80,
  signals: [
    { name: 'k', value: 3 },
    { name: 'span', update: 'k * width / 6' },
  ],
  data: [
    {
      name: 't',
      transform: [
        { type: 'sequence', start: 0, stop: 8, as: 'i' },
        { type: 'formula', expr: 'pow(datum.i, 2) % 7', as: 'sq' },
        { type: 'filter', expr: 'datum.sq < k + 1' },
        { type: 'collect', sort: { field: ['sq', 'i'], order: ['descending', 'ascending'] } },
      ],
    },
  ],
  marks: [
    {
      type: 'rect',
      from: { data: 't' },
      encode: {
        enter: {
          x: { signal: 'datum.i * 12' },
          width: { signal: 'span / 10' },
          y: { value: 0 },
          height: { signal: 'datum.sq * 10 + 1' },
          fill: { signal: "datum.sq > 1 ? 'crimson' : 'navy'" },
        },
      },
    },
  ],
});

type Answer = { ok?: boolean; svg?: string; code?: string; trapped?: string[] };

let trapped: LineWorker | undefined;
let runtime: VegaRuntime | undefined;
afterAll(async () => {
  await trapped?.close();
  await runtime?.close();
});

/**
 * The worker under the trap, in the runtime's own sandbox (the trap file bound beside it),
 * without V8's codegen flag so that the traps, not V8, meet any attempt.
 */
function startTrapped(): LineWorker {
  const spec = vegaSandboxSpec({ heapMb: 256 });
  const argv = spec.argv.filter((a) => a !== '--disallow-code-generation-from-strings');
  argv.splice(argv.length - 1, 0, insidePath(TRAP));
  trapped = new LineWorker(
    { ...spec, argv, roBinds: [...(spec.roBinds ?? []), { host: TRAP, path: insidePath(TRAP) }] },
    60_000,
  );
  return trapped;
}

async function ask(w: LineWorker, spec: string): Promise<Answer> {
  const a = await w.request({ spec, maxRows: 50_000, assets: {} }, 30_000);
  if (isFailure(a)) throw new Error(`the trapped worker failed: ${a.failed} ${a.message}`);
  return a as Answer;
}

describe('vega expressions are interpreted, never compiled', () => {
  it('renders signal/filter/calculate/CSV charts with every Function door trapped', async () => {
    const w = startTrapped();
    await w.ready;
    const lite = await ask(w, LITE);
    expect(lite.trapped).toEqual([]);
    expect(lite.code).toBeUndefined();
    expect(lite.ok).toBe(true);
    // the filter kept B, C, D (v > 2); the condition painted only w > 60 (D) red
    expect(lite.svg?.match(/fill="red"/g)?.length).toBe(1);
    expect(lite.svg?.match(/fill="steelblue"/g)?.length).toBe(2);
    const vega = await ask(w, VEGA);
    expect(vega.trapped).toEqual([]);
    expect(vega.ok).toBe(true);
    // squares mod 7 of 0..7 are 0 1 4 2 2 4 1 0; the filter keeps those < 4: six rects
    expect(vega.svg?.match(/fill="(crimson|navy)"/g)?.length).toBe(6);
    expect(vega.svg?.match(/fill="crimson"/g)?.length).toBe(2);
  }, 60_000);

  it('the real runtime (code generation disallowed by V8) renders the same charts', async () => {
    runtime = new VegaRuntime({ heapMb: 128 });
    await runtime.ready;
    for (const spec of [LITE, VEGA]) {
      const a = await runtime.run({ spec, maxRows: 50_000 }, 30_000);
      expect('ok' in a && a.ok).toBe(true);
    }
  }, 60_000);
});
