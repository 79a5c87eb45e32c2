// The reward-health monitors through the real reward server (real scorer, render pool, HTTP
// over loopback, judge double): groups built to be flat raise the flat-group alert, a run whose
// SVGs grow step after step raises the length-growth alert; each shows in the response's
// group stats and `health`, in /metrics, and as a warning log line carrying the figure.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import {
  judgeByImage,
  postJson,
  type RealServer,
  startRealServer,
  tempDir,
  writeRubrics,
} from './support.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
type Json = any;

const icons = fluentEmoji(12);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;
/** The icon with `n` invisible elements appended: the same picture, a longer SVG. */
const padded = (svg: string, n: number) =>
  svg.replace(
    /<\/svg>\s*$/,
    `<g opacity="0">${'<rect width="1" height="1"/>'.repeat(n)}</g></svg>`,
  );

/** Every item of every picture gets 0.5: every group is flat. */
function constantJudge(req: { schema?: Record<string, unknown> }) {
  const keys = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
  return {
    content: JSON.stringify(
      Object.fromEntries(keys.map((k) => [k, { reasoning: 'same', score: 0.5 }])),
    ),
  };
}

describe('reward-health monitors through serve', () => {
  let double: ModelDouble;
  let server: RealServer;
  const logs: Json[] = [];
  const dir = tempDir('serve-health');

  beforeAll(async () => {
    double = await startModelDouble();
    const rubrics = writeRubrics(dir, [
      ['a', 'a red apple'],
      ['b', 'a blue bird'],
    ]);
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
        done();
      },
    });
    server = await startRealServer({
      judgeUrl: double.url,
      rubrics,
      dir,
      server: {
        logger: pino({ level: 'info' }, sink),
        health: { window: 10, thresholds: { length_growth_per_step: 0.05 } },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close('test');
    await double?.close();
  });

  const post = async (items: Json[]): Promise<{ status: number; json: Json }> =>
    postJson(`${server.url}/v1/rewards`, { items });
  const metric = async (name: string): Promise<number | undefined> => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(name));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const warnings = (alert: string) => logs.filter((l) => l.level === 40 && l.alert === alert);

  it('flags groups whose rollouts score alike, and warns once with the figure', async () => {
    double.script(judgeByImage());
    const varied = icons.slice(0, 4).map((ic, i) => ({
      id: `v${i}`,
      prompt_id: i < 2 ? 'a' : 'b',
      completion: completion(ic.svg),
    }));
    const first = await post(varied);
    expect(first.status).toBe(200);
    const h0 = first.json.health;
    expect(h0.step).toBe(1);
    expect(h0.groups).toBe(2);
    // Distinct pictures get distinct scores from this judge, unless two hash alike.
    const flat0 = first.json.results.filter((r: Json) => r.group.flat).length / 2;
    expect(h0.flat_group_share).toBe(flat0 / 2);

    double.script(constantJudge);
    const flat = await post(
      icons.slice(4, 10).map((ic, i) => ({
        id: `f${i}`,
        prompt_id: i < 3 ? 'a' : 'b',
        completion: completion(ic.svg),
      })),
    );
    const h = flat.json.health;
    expect(h.flat_group_share).toBe(1);
    expect(h.flat_groups).toBe(2);
    expect(flat.json.results.every((r: Json) => r.group.flat === true)).toBe(true);
    expect(h.alerts.map((a: Json) => a.alert)).toContain('flat_group_share');
    expect(await metric('rubrica_health_flat_group_share')).toBe(1);
    expect(await metric('rubrica_health_alerts_total{alert="flat_group_share"}')).toBe(1);
    expect(await metric('rubrica_health_alert_active{alert="flat_group_share"}')).toBe(1);
    const warned = warnings('flat_group_share');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ value: 1, limit: 0.5, step: 2 });
    expect(warned[0].msg).toMatch(/flat_group_share 1\.000 > 0\.500/);

    // Still flat: the alert stays active but is not logged again.
    await post([
      { id: 'g0', prompt_id: 'a', completion: completion(icons[10]!.svg) },
      { id: 'g1', prompt_id: 'a', completion: completion(icons[11]!.svg) },
    ]);
    expect(warnings('flat_group_share')).toHaveLength(1);
  }, 60_000);

  it('sees SVG length growing step after step and warns', async () => {
    double.script(judgeByImage());
    let last: Json;
    for (let step = 0; step < 5; step++) {
      const items = icons.slice(0, 4).map((ic, i) => ({
        id: `s${step}-${i}`,
        prompt_id: i < 2 ? 'a' : 'b',
        completion: completion(padded(ic.svg, 40 * (step + 1) ** 2)),
      }));
      last = (await post(items)).json.health;
    }
    expect(last.running.growth.svg).toBeGreaterThan(0.05);
    expect(last.running.svg_tokens.mean).toBeGreaterThan(last.svg_tokens.mean / 3);
    expect(last.alerts.map((a: Json) => a.alert)).toContain('svg_length_growth');
    expect(warnings('svg_length_growth').length).toBeGreaterThanOrEqual(1);
    expect(await metric('rubrica_health_length_growth{what="svg"}')).toBeGreaterThan(0.05);
    expect(await metric('rubrica_health_length_tokens{what="svg",stat="p95"}')).toBeGreaterThan(0);
  }, 90_000);

  it('counts grader faults apart and reports their share', async () => {
    double.script(() => ({ status: 500 }));
    // A picture never judged before, so the answer cache cannot hide the dead judge.
    const fresh =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="3" fill="#3a7"/></svg>';
    const bad = await post([{ id: 'y0', prompt_id: 'b', completion: completion(fresh) }]);
    expect(bad.json.results[0].status).toBe('grader_error');
    expect(bad.json.health.grader_fault_share).toBe(1);
    expect(bad.json.health.measured).toBe(0);
    expect(await metric('rubrica_health_grader_fault_share')).toBe(1);
    expect(warnings('grader_fault_share')).toHaveLength(1);
  }, 60_000);
});
