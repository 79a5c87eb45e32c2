// Issue 35 item 2: no text a policy writes ever reaches `new Function`. The worker runs under
// test/support/vega-function-trap.mjs, which replaces every string-to-code door (Function,
// eval, the constructors behind (function(){}).constructor) with a trap for the whole job;
// charts full of expressions must still render, and nothing may reach a trap. On the code
// before the AST interpreter, vega compiled each expression with Function: the traps fired and
// the render failed. The real runtime (V8's --disallow-code-generation-from-strings) renders
// the same charts.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { VegaRuntime } from './runtime.ts';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
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

type Answer = { id?: number; ok?: boolean; svg?: string; code?: string; trapped?: string[] };

let child: ChildProcess | undefined;
let runtime: VegaRuntime | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  await runtime?.close();
});

/** Forks the trapped worker; answers jobs one at a time, each with a deadline. */
function startTrapped(): { ask: (spec: string) => Promise<Answer>; ready: Promise<Answer> } {
  const c = fork(TRAP, [WORKER], { execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  child = c;
  let id = 0;
  const next = (pick: (m: Answer) => boolean) =>
    new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the trapped worker did not answer')),
        30_000,
      );
      const on = (m: Answer) => {
        if (!pick(m)) return;
        clearTimeout(timer);
        c.off('message', on);
        resolve(m);
      };
      c.on('message', on);
    });
  const ready = next((m) => (m as { ready?: boolean }).ready === true);
  const ask = (spec: string) => {
    const job = id++;
    const answer = next((m) => m.id === job);
    c.send({ id: job, spec, maxRows: 50_000, assets: {} });
    return answer;
  };
  return { ask, ready };
}

describe('vega expressions are interpreted, never compiled', () => {
  it('renders signal/filter/calculate/CSV charts with every Function door trapped', async () => {
    const w = startTrapped();
    expect((await w.ready).trapped).toEqual([]);
    const lite = await w.ask(LITE);
    expect(lite.trapped).toEqual([]);
    expect(lite.code).toBeUndefined();
    expect(lite.ok).toBe(true);
    // the filter kept B, C, D (v > 2); the condition painted only w > 60 (D) red
    expect(lite.svg?.match(/fill="red"/g)?.length).toBe(1);
    expect(lite.svg?.match(/fill="steelblue"/g)?.length).toBe(2);
    const vega = await w.ask(VEGA);
    expect(vega.trapped).toEqual([]);
    expect(vega.ok).toBe(true);
    // squares mod 7 of 0..7 are 0 1 4 2 2 4 1 0; the filter keeps those < 4: six rects
    expect(vega.svg?.match(/fill="(crimson|navy)"/g)?.length).toBe(6);
    expect(vega.svg?.match(/fill="crimson"/g)?.length).toBe(2);
  }, 60_000);

  it('the real runtime (code generation disallowed by V8) renders the same charts', async () => {
    runtime = new VegaRuntime(128);
    await runtime.ready;
    for (const spec of [LITE, VEGA]) {
      const a = await runtime.run({ spec, maxRows: 50_000 }, 30_000);
      expect('ok' in a && a.ok).toBe(true);
    }
  }, 60_000);
});
