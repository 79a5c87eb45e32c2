// The schema is the contract, end to end through the CLI: against a model that follows the
// request's JSON Schema and nothing else (the schema-driven answerer: arbitrary values the
// schema allows, odd and empty text included), `rubric synth` keeps rubrics exactly when the
// scores it was sent say so, and `score` gives exactly the weighted reward of the scores the
// judge sent — joint and per-item, ruler, rubric-s and universal. Expected values are computed
// here from what the double sent, never from what rubrica wrote.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPreset, type PresetName } from '../../src/rubric/presets.ts';
import { fluentEmoji } from '../support/corpus.ts';
import {
  asksDigits,
  type DoubleReply,
  type DoubleRequest,
  type ModelDouble,
  type SchemaAnswerer,
  schemaAnswerer,
  startModelDouble,
} from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

type Json = Record<string, unknown>;
type Verdict = { reasoning: string; score: number };

const ICONS = fluentEmoji(40).map((c) => c.svg);
const IDEAL: DoubleReply = { content: `Here:\n\`\`\`svg\n${ICONS[7]}\n\`\`\`` };
const PROMPTS = Array.from({ length: 8 }, (_, i) => ({
  id: `p${i}`,
  prompt: `prompt ${i} of the contract test: a ${['fox', 'kite', 'teapot', 'owl'][i % 4]} number ${i}`,
}));
const MIN_IDEAL = 0.5;

let double: ModelDouble;
let dir: string;

/** A fresh answerer for one stage; requests without a schema (the ideal SVG) get an icon. */
function answerWithSchema(seed: number): SchemaAnswerer {
  const a = schemaAnswerer({ seed, free: () => IDEAL });
  double.script(a.handler);
  return a;
}

const readJsonl = (path: string): Json[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json);

/**
 * The score a sent verdict stands for: the number written on the 0.01 grid (greedy scoring), or
 * the digit ÷ 9 on the one-digit scale of the default `auto` scoring (a schema-only model sends
 * no logprobs, so auto reads the written digit).
 */
const meant = (req: DoubleRequest, v: Verdict) => (asksDigits(req) ? v.score / 9 : v.score);

/** Σ w·s / Σ_{w>0} w, clamped to [0,1]: the reward rule, written out again here. */
function expectedReward(weights: number[], scores: number[]): number {
  const num = weights.reduce((acc, w, i) => acc + w * scores[i]!, 0);
  const den = weights.filter((w) => w > 0).reduce((a, b) => a + b, 0);
  return Math.min(1, Math.max(0, num / den));
}

const flags = (url: string) => [
  '--judge',
  'openai-compatible:j',
  '--judge-base-url',
  url,
  '--judge-retries',
  '0',
  '--no-cache',
];

async function synth(preset: PresetName, seed: number) {
  const answerer = answerWithSchema(seed);
  const input = join(dir, `prompts-${preset}.jsonl`);
  writeFileSync(input, PROMPTS.map((p) => JSON.stringify(p)).join('\n'));
  const out = join(dir, `rubrics-${preset}.jsonl`);
  const r = await runCliInProcess([
    'rubric',
    'synth',
    '--in',
    input,
    '--out',
    out,
    '--preset',
    preset,
    '--author',
    'openai-compatible:a',
    '--author-base-url',
    double.url,
    '--min-ideal',
    String(MIN_IDEAL),
    ...flags(double.url),
  ]);
  return { r, out, answerer, records: readJsonl(out) };
}

beforeAll(async () => {
  double = await startModelDouble();
  dir = mkdtempSync(join(tmpdir(), 'rubrica-contract-'));
});
afterAll(() => double.close());

describe.each<PresetName>(['ruler', 'rubric-s'])('%s against a schema-only model', (preset) => {
  const skel = getPreset(preset);
  const keys = skel.items.map((s) => s.key);
  const weights = skel.items.map((s) => s.weight);
  let rubricsFile = '';
  let kept: Json[] = [];

  it('rubric synth keeps a rubric exactly when the judge’s sent scores reach --min-ideal', async () => {
    const { r, out, answerer, records } = await synth(preset, 11);
    // Nothing but the progress lines printed off a terminal: no dropped rubric, no error.
    const other = r.stderr.split('\n').filter((l) => l.trim() && !/^rubrics: \d+\/\d+ /.test(l));
    expect(other).toEqual([]);
    rubricsFile = out;
    expect(records).toHaveLength(PROMPTS.length);
    for (const rec of records) {
      const prompt = rec.prompt as string;
      // What the author was sent back: the rubric text under each key.
      const [authored] = answerer.find(prompt, 'rubric');
      const rubric = authored!.value as Record<string, { title: string; bands: string[] }>;
      const [judged] = answerer.find(prompt, 'rubric_scores');
      const verdicts = judged!.value as Record<string, Verdict>;
      const score = expectedReward(
        weights,
        keys.map((k) => meant(judged!.req, verdicts[k]!)),
      );
      expect(rec.drop_reason ?? null, JSON.stringify(rec.drop_message)).toBe(
        score >= MIN_IDEAL ? null : 'ideal_below_threshold',
      );
      expect(rec.kept).toBe(score >= MIN_IDEAL);
      expect(rec.ideal_score as number).toBeCloseTo(score, 12);
      const items = rec.items as { key: string; weight: number; title: string; bands: Json[] }[];
      expect(items.map((i) => [i.key, i.weight])).toEqual(keys.map((k, i) => [k, weights[i]]));
      for (const it of items) expect(it.title).toBe(rubric[it.key]!.title.trim());
    }
    kept = records.filter((x) => x.kept);
    // The seed gives both outcomes, so the test shows keeping and dropping.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(records.length);
  });

  it.each(['joint', 'per-item'])(
    'score (%s) gives exactly the weighted reward of the scores the judge sent',
    async (mode) => {
      expect(kept.length).toBeGreaterThan(0);
      const answerer = answerWithSchema(23);
      const input = join(dir, `rollouts-${preset}-${mode}.jsonl`);
      const rollouts = kept.map((k, i) => ({
        id: `${k.id}#0`,
        prompt_id: k.id,
        completion: `\`\`\`svg\n${ICONS[i + 10]}\n\`\`\``,
      }));
      writeFileSync(input, rollouts.map((x) => JSON.stringify(x)).join('\n'));
      const out = join(dir, `scores-${preset}-${mode}.jsonl`);
      const r = await runCliInProcess([
        'score',
        '--rubrics',
        rubricsFile,
        '--in',
        input,
        '--out',
        out,
        '--reward',
        preset,
        '--mode',
        mode,
        ...flags(double.url),
      ]);
      expect(r.code).toBe(0);
      const recs = readJsonl(out);
      expect(recs).toHaveLength(kept.length);
      for (const rec of recs) {
        const prompt = kept.find((k) => k.id === rec.prompt_id)!.prompt as string;
        const sent: Verdict[] =
          mode === 'joint'
            ? keys.map((k) => {
                const a = answerer.find(prompt, 'rubric_scores')[0]!;
                const v = (a.value as Record<string, Verdict>)[k]!;
                return { ...v, score: meant(a.req, v) };
              })
            : keys.map((k) => {
                const a = answerer
                  .find(prompt, 'item_score')
                  .find((x) => x.req.text.includes(`### ${k} `))!;
                return { ...(a.value as Verdict), score: meant(a.req, a.value as Verdict) };
              });
        expect(rec.status).toBe('ok');
        const want = expectedReward(
          weights,
          sent.map((v) => v.score),
        );
        expect(rec.reward as number).toBeCloseTo(want, 12);
        const criteria = rec.criteria as { key: string; score: number; rationale: string }[];
        expect(criteria.map((c) => [c.key, c.score, c.rationale])).toEqual(
          keys.map((k, i) => [k, sent[i]!.score, sent[i]!.reasoning]),
        );
      }
    },
  );
});

describe('universal against a schema-only model', () => {
  it('score gives exactly the equal-weight mean of the scores the judge sent', async () => {
    const answerer = answerWithSchema(5);
    const input = join(dir, 'rollouts-universal.jsonl');
    const rollouts = PROMPTS.map((p, i) => ({
      id: `${p.id}#u`,
      prompt: p.prompt,
      completion: `\`\`\`svg\n${ICONS[i + 20]}\n\`\`\``,
    }));
    writeFileSync(input, rollouts.map((x) => JSON.stringify(x)).join('\n'));
    const out = join(dir, 'scores-universal.jsonl');
    const r = await runCliInProcess([
      'score',
      '--in',
      input,
      '--out',
      out,
      '--reward',
      'universal',
      ...flags(double.url),
    ]);
    expect(r.code).toBe(0);
    const keys = getPreset('universal').items.map((s) => s.key);
    for (const [i, rec] of readJsonl(out).entries()) {
      const a = answerer.find(PROMPTS[i]!.prompt, 'rubric_scores')[0]!;
      const sent = a.value as Record<string, Verdict>;
      expect(rec.status).toBe('ok');
      const want = keys.reduce((acc, k) => acc + meant(a.req, sent[k]!), 0) / keys.length;
      expect(rec.reward as number).toBeCloseTo(want, 12);
    }
  });
});
