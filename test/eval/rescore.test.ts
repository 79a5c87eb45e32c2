// `rubrica rescore` as a user runs it, against a judge double that scores each picture by the
// latent quality it reads from the pixels (a bar of width 10 + 80·q). A 300-record score run
// (30 prompts × 10 rollouts) whose old rewards were made up is judged again: the new rewards
// are the qualities, and the GRPO advantage sign flips, mean shift and per-group rank
// correlation it reports equal a hand computation from the two lists. An eval run folder's
// kept picture is what the new judge sees, not a new drawing of the completion.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRescoreDiff } from '../../src/eval/rescore-diff.ts';
import { tempDir, writeRubrics } from '../server/support.ts';
import { type DoubleRequest, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { inkShare } from '../support/model-double-pairwise.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { seededRng } from '../support/schema-random.ts';

const bar = (q: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${10 + 80 * q}" height="100" fill="#000"/></svg>\n\`\`\``;
const round2 = (x: number) => Math.round(x * 100) / 100;

const dir = tempDir('rescore');
const P = 30;
const G = 10;
const prompts = Array.from({ length: P }, (_, p) => [`p${p}`, `prompt ${p}`] as [string, string]);
const rubrics = writeRubrics(dir, prompts);
let double: ModelDouble;

beforeAll(async () => {
  double = await startModelDouble({
    handler: async (req: DoubleRequest) => {
      const q = round2(((await inkShare(req.images[0]!)) - 0.1) / 0.8);
      const keys = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
      return {
        content: JSON.stringify(
          Object.fromEntries(keys.map((k) => [k, { reasoning: 'seen', score: q }])),
        ),
      };
    },
  });
});
afterAll(() => double?.close());

const judgeArgs = () => [
  '--judge',
  'openai-compatible:new-judge',
  '--judge-base-url',
  double.url,
  '--rubrics',
  rubrics,
  '--no-cache',
];

/** Hand computation: advantage signs by r − group mean over rollouts ok in both runs. */
function handFlips(rows: { group: string; old: number; fresh: number; ok: boolean }[]) {
  const groups = new Map<string, typeof rows>();
  for (const r of rows.filter((x) => x.ok))
    groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  let flips = 0;
  for (const g of groups.values()) {
    const mo = g.reduce((s, r) => s + r.old, 0) / g.length;
    const mf = g.reduce((s, r) => s + r.fresh, 0) / g.length;
    for (const r of g) if (Math.sign(r.old - mo) * Math.sign(r.fresh - mf) < 0) flips++;
  }
  return flips;
}

describe('rubrica rescore', () => {
  it('re-judges a 300-record score run and reports exactly the hand-computed flips', async () => {
    const rng = seededRng(37);
    const rows: { id: string; group: string; q: number; old: number; ok: boolean }[] = [];
    for (let p = 0; p < P; p++)
      for (let k = 0; k < G; k++) {
        const q = Math.round(rng() * 10) / 10;
        // The old judge: agrees on a third of the prompts, reversed on a third, noise on the rest.
        const old = p % 3 === 0 ? q : p % 3 === 1 ? 1 - q : round2(rng());
        rows.push({ id: `p${p}-${k}`, group: `p${p}`, q, old, ok: (p * G + k) % 23 !== 5 });
      }
    expect(rows).toHaveLength(300);
    const rollouts = join(dir, 'rollouts.jsonl');
    const scores = join(dir, 'scores.jsonl');
    writeFileSync(
      rollouts,
      rows
        .map((r) => JSON.stringify({ id: r.id, prompt_id: r.group, completion: bar(r.q) }))
        .join('\n'),
    );
    writeFileSync(
      scores,
      rows
        .map((r) =>
          JSON.stringify({
            id: r.id,
            prompt_id: r.group,
            reward_kind: 'ruler',
            reward: r.ok ? r.old : 0,
            status: r.ok ? 'ok' : 'unscoreable',
          }),
        )
        .join('\n'),
    );
    const out = join(dir, 'new.jsonl');
    const res = await runCliInProcess([
      'rescore',
      '--in',
      scores,
      '--rollouts',
      rollouts,
      ...judgeArgs(),
      '--out',
      out,
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout);
    const fresh = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; reward: number; status: string });
    expect(fresh.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    // The new judge's rewards are the latent qualities.
    for (const [k, r] of fresh.entries()) expect(r.reward).toBeCloseTo(rows[k]!.q, 9);
    const hand = handFlips(rows.map((r) => ({ ...r, fresh: r.q })));
    expect(hand).toBeGreaterThan(20); // the reversed third flips many
    expect(report.sign_flips).toBe(hand);
    const ok = rows.filter((r) => r.ok);
    expect(report.compared).toBe(ok.length);
    expect(report.mean_shift).toBeCloseTo(ok.reduce((s, r) => s + r.q - r.old, 0) / ok.length, 9);
    // Groups where the old judge agreed rank the same (τ 1), reversed ones the other way.
    const tau = new Map<string, number>(
      report.prompts.map((p: { prompt: string; kendall_tau: number }) => [p.prompt, p.kendall_tau]),
    );
    expect(tau.get('p0')).toBeCloseTo(1, 12);
    expect(tau.get('p1')).toBeCloseTo(-1, 12);

    // The text form says the same count.
    expect(formatRescoreDiff(report)).toContain(`${hand} of ${ok.length} change sign`);
  }, 120_000);

  it('judges the picture an eval run kept, and needs --rollouts for a scores file', async () => {
    const run = join(dir, 'run');
    mkdirSync(join(run, 'images'), { recursive: true });
    // The kept picture shows quality 0.8 while the completion draws 0.2.
    const w = Math.round(512 * (0.1 + 0.8 * 0.8));
    const px = Buffer.alloc(512 * 512 * 3, 255);
    for (let y = 0; y < 512; y++) px.fill(0, y * 512 * 3, (y * 512 + w) * 3);
    await sharp(px, { raw: { width: 512, height: 512, channels: 3 } })
      .png()
      .toFile(join(run, 'images', 'a.png'));
    const rec = (id: string, q: number, image?: string) => ({
      id,
      prompt_id: 'p0',
      prompt: 'prompt 0',
      run: 'm',
      completion: bar(q),
      scores: { ruler: { reward: 0.5, status: 'ok' } },
      ...(image ? { image } : {}),
    });
    writeFileSync(
      join(run, 'results.jsonl'),
      `${[rec('a', 0.2, 'images/a.png'), rec('b', 0.5)].map((r) => JSON.stringify(r)).join('\n')}\n`,
    );
    const out = join(dir, 'run-new.jsonl');
    const res = await runCliInProcess([
      'rescore',
      '--in',
      run,
      ...judgeArgs(),
      '--out',
      out,
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const [a, b] = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(a.reward).toBeCloseTo(0.8, 9);
    expect(b.reward).toBeCloseTo(0.5, 9);
    expect(JSON.parse(res.stdout).pictures_kept).toBe(1);

    const missing = await runCliInProcess([
      'rescore',
      '--in',
      join(dir, 'scores.jsonl'),
      ...judgeArgs(),
      '--out',
      out,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--rollouts');
  });
});
