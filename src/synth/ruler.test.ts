// Rubric synthesis end to end over real HTTP (loopback double), the real render pool and
// a real SQLite cache: keep, every drop reason, what step 2 receives, presets, re-runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  authorAnswerFor,
  authorClient,
  jointAnswer,
  judgeClient,
  schemaKeys,
} from '../../test/score/support/fixtures.ts';
import { fluentEmoji } from '../../test/support/corpus.ts';
import {
  type DoubleReply,
  type DoubleRequest,
  jsonAnswer,
  type ModelDouble,
  startModelDouble,
} from '../../test/support/model-double.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import { createJudge } from '../judge/judge.ts';
import { createModelClient } from '../models/client.ts';
import { createRenderPool, type RenderPool } from '../render/pool.ts';
import { getPreset } from '../rubric/presets.ts';
import { type AnswerCache, openCache } from '../store/cache.ts';
import { createRubricSynthesizer, type SynthOptions } from './ruler.ts';

const ICON = fluentEmoji(40)[7]!.svg;
const PROMPT = 'a cheerful fox face';

let author: ModelDouble;
let judge: ModelDouble;
let renderer: RenderPool;

/** Scripted author: step 1 → `ideal`, step 2 → `rubric`. */
function scriptAuthor(ideal: DoubleReply, rubric: (req: DoubleRequest) => DoubleReply) {
  author.script((req) => (req.text.includes('Draw the best SVG you can') ? ideal : rubric(req)));
}
const fencedIcon: DoubleReply = { content: `Here it is:\n\`\`\`svg\n${ICON}\n\`\`\`` };
const goodRubric = () => jsonAnswer(authorAnswerFor('fox'));
const judgeScores = (scores: number[]) =>
  judge.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), scores)));

function synth(extra: Partial<SynthOptions> = {}, cache: AnswerCache | null = null) {
  const j = createJudge({ client: judgeClient(judge.url, { maxRetries: 1 }), cache });
  return createRubricSynthesizer({
    author: authorClient(author.url),
    judge: j,
    renderer,
    inspect: inspectCompletion,
    cache,
    ...extra,
  });
}

beforeAll(async () => {
  author = await startModelDouble();
  judge = await startModelDouble();
  renderer = createRenderPool({ workers: 1 });
});
afterAll(async () => {
  await Promise.all([author.close(), judge.close(), renderer.close()]);
});
beforeEach(() => {
  author.reset();
  judge.reset();
});

describe('createRubricSynthesizer (ruler)', () => {
  it('keeps a rubric whose ideal scores ≥ 0.9, built on the preset structure', async () => {
    scriptAuthor(fencedIcon, goodRubric);
    judgeScores([0.95, 0.95, 0.9, 0.9, 0.95, 0.9]);
    const r = await synth().synthesize({ id: 'p1', prompt: PROMPT });
    // (5·.95·3 + 5·.9·2 + 4·.9) / 29 = (14.25 + 9 + 3.6) / 29
    expect(r.ideal_score).toBeCloseTo(26.85 / 29, 12);
    expect(r).toMatchObject({ id: 'p1', prompt: PROMPT, preset: 'ruler', kept: true });
    expect(r.drop_reason).toBeUndefined();
    expect(r.items.map((i) => [i.key, i.axis, i.weight])).toEqual(
      getPreset('ruler').items.map((s) => [s.key, s.axis, s.weight]),
    );
    expect(r.ideal_svg).toContain('<svg');
    expect(r.author).toBe('openai-compatible:test-author');
    expect(r.judge).toBe('openai-compatible:test-judge');
    expect(r.usage.calls).toBe(3);
    // Step 2 saw the prompt, its own ideal SVG and the item skeleton, and carried the schema.
    const step2 = author.requests[1]!;
    expect(step2.text).toContain(PROMPT);
    expect(step2.text).toContain(r.ideal_svg!.slice(0, 200));
    expect(step2.text).toContain('composition · visual · 4');
    expect(step2.text).toMatch(/Do NOT write a reconstruction checklist/);
    expect((step2.responseFormat as { type: string }).type).toBe('json_schema');
    // The judge saw the rendered ideal.
    expect(judge.requests[0]!.images[0]).toMatch(/^data:image\/png;base64,/);
  });

  it('drops ideal_below_threshold and records the score', async () => {
    scriptAuthor(fencedIcon, goodRubric);
    judgeScores([0.9, 0.9, 0.9, 0.5, 0.9, 0.9]);
    const r = await synth().synthesize({ id: 'p2', prompt: PROMPT });
    // (5·.9·5 + 4·.5) / 29 = 24.5 / 29 ≈ 0.845
    expect(r).toMatchObject({ kept: false, drop_reason: 'ideal_below_threshold' });
    expect(r.ideal_score).toBeCloseTo(24.5 / 29, 12);
    expect(r.items).toHaveLength(6);
  });

  it('honours --min-ideal', async () => {
    scriptAuthor(fencedIcon, goodRubric);
    judgeScores([0.9, 0.9, 0.9, 0.5, 0.9, 0.9]);
    const r = await synth({ minIdeal: 0.8 }).synthesize({ id: 'p3', prompt: PROMPT });
    expect(r.kept).toBe(true);
  });

  it('drops author_error when the author keeps failing', async () => {
    author.script(() => ({ status: 500 }));
    const r = await synth().synthesize({ id: 'p4', prompt: PROMPT });
    expect(r).toMatchObject({
      kept: false,
      drop_reason: 'author_error',
      ideal_svg: null,
      items: [],
    });
    expect(r.drop_message).toMatch(/^ideal SVG: http_error/);
    expect(judge.requests).toHaveLength(0);
  });

  it('drops ideal_unrenderable with no SVG or a broken SVG, before any rubric call', async () => {
    scriptAuthor({ content: 'I cannot draw that, sorry.' }, goodRubric);
    const a = await synth().synthesize({ id: 'p5', prompt: PROMPT });
    expect(a).toMatchObject({
      kept: false,
      drop_reason: 'ideal_unrenderable',
      drop_message: 'no_svg',
    });
    scriptAuthor(
      { content: '```svg\n<svg xmlns="http://www.w3.org/2000/svg"><g><rect></svg>\n```' },
      goodRubric,
    );
    const b = await synth().synthesize({ id: 'p6', prompt: PROMPT });
    expect(b).toMatchObject({
      kept: false,
      drop_reason: 'ideal_unrenderable',
      drop_message: 'parse_error',
    });
    expect(
      author.requests.filter((r) => r.text.includes('You write grading rubrics')),
    ).toHaveLength(0);
  });

  it('drops malformed rubrics with the validator’s reason', async () => {
    const missing = authorAnswerFor('fox');
    delete missing.silhouette_refinement;
    scriptAuthor(fencedIcon, () => jsonAnswer(missing));
    const r = await synth().synthesize({ id: 'p7', prompt: PROMPT });
    expect(r).toMatchObject({ kept: false, drop_reason: 'malformed' });
    expect(r.drop_message).toBe('missing item "silhouette_refinement"');
    expect(judge.requests).toHaveLength(0);
  });

  it('drops judge_error when the judge answers out of range every time', async () => {
    scriptAuthor(fencedIcon, goodRubric);
    judgeScores([0.9, 1.7, 0.9, 0.9, 0.9, 0.9]);
    const r = await synth().synthesize({ id: 'p8', prompt: PROMPT });
    expect(r).toMatchObject({ kept: false, drop_reason: 'judge_error', ideal_score: null });
    expect(judge.requests).toHaveLength(2);
  });

  it('makes zero calls when re-run on the same cache', async () => {
    scriptAuthor(fencedIcon, goodRubric);
    judgeScores([0.95, 0.95, 0.95, 0.95, 0.95, 0.95]);
    const cache = openCache(join(mkdtempSync(join(tmpdir(), 'rubrica-synth-')), 'c.sqlite'));
    const first = await synth({}, cache).synthesize({ id: 'p9', prompt: PROMPT });
    const calls = author.requests.length + judge.requests.length;
    expect(calls).toBe(3);
    const second = await synth({}, cache).synthesize({ id: 'p9', prompt: PROMPT });
    expect(author.requests.length + judge.requests.length).toBe(3);
    expect(second.usage.calls).toBe(0);
    expect({ ...second, usage: null }).toEqual({ ...first, usage: null });
    cache.close();
  });
});

describe("with the paper's kind of author (Anthropic Messages API)", () => {
  it('authors the ideal and the rubric through anthropic:… and keeps it', async () => {
    scriptAuthor(fencedIcon, goodRubric);
    judgeScores([0.95, 0.95, 0.95, 0.95, 0.95, 0.95]);
    const claude = createModelClient('anthropic:claude-opus-4-6', {
      role: 'author',
      baseUrl: author.url,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      retryBaseMs: 1,
      maxRetries: 1,
    });
    const r = await synth({ author: claude }).synthesize({ id: 'c1', prompt: PROMPT });
    expect(r).toMatchObject({ kept: true, author: 'anthropic:claude-opus-4-6' });
    expect(author.requests.map((q) => q.api)).toEqual(['anthropic', 'anthropic']);
    // Step 2 carried the rubric schema (as the forced json tool the AI SDK uses).
    expect(author.requests[1]!.schema).toMatchObject({
      type: 'object',
      required: getPreset('ruler').items.map((s) => s.key),
    });
    expect(author.requests[0]!.schema).toBeUndefined();
  });
});

describe('other presets', () => {
  it('rubric-s: five items plus a −2 text penalty; penalty 0 keeps a perfect ideal at 1', async () => {
    const skel = getPreset('rubric-s');
    scriptAuthor(fencedIcon, () =>
      jsonAnswer(
        Object.fromEntries(
          skel.items.map((s) => [
            s.key,
            {
              title: `${s.title} for the fox`,
              description: `${s.focus}`,
              bands: ['a', 'b', 'c', 'd', 'e'].map((b) => `${b} ${s.key}`),
            },
          ]),
        ),
      ),
    );
    judge.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), [1, 1, 1, 1, 1, 0])));
    const r = await synth({ preset: 'rubric-s' }).synthesize({ id: 's1', prompt: PROMPT });
    expect(r.items.map((i) => i.weight)).toEqual([5, 5, 5, 5, 4, -2]);
    expect(r.items.some((i) => i.axis === 'style')).toBe(false);
    expect(r).toMatchObject({ kept: true, ideal_score: 1, preset: 'rubric-s' });
    expect(judge.requests[0]!.text).toContain('penalty item, axis penalty, weight -2');
    expect(author.requests[1]!.text).toContain('strict variant');
  });

  it('universal: the fixed rubric, no model calls', async () => {
    const r = await synth({ preset: 'universal' }).synthesize({ id: 'u1', prompt: PROMPT });
    expect(r).toMatchObject({
      kept: true,
      preset: 'universal',
      ideal_svg: null,
      ideal_score: null,
    });
    expect(r.items.map((i) => i.key)).toEqual([
      'prompt_fit',
      'visual_quality',
      'composition',
      'rendering_cleanliness',
      'style',
    ]);
    expect(author.requests.length + judge.requests.length).toBe(0);
  });
});
