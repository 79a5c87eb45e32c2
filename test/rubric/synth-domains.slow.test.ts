// RULER rubric synthesis in domains other than SVG, end to end: the author (loopback model
// double) writes the ideal in the prompt's domain, that domain's sandboxed renderer draws it,
// the rubric is written seeing the ideal code and the domain's shared standards, and the
// judge's score on the rendered ideal decides with the ≥ 0.9 rule. Also through the CLI
// (`rubric synth --domain`, a line's own `domain`), with the answer cache making a re-run free.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadDomainCriteria } from '../../src/domains/criteria-file.ts';
import { createDomainRenderers, type DomainRenderers } from '../../src/domains/renderers.ts';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createJudge } from '../../src/judge/judge.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { RubricRecordSchema } from '../../src/rubric/schema.ts';
import { createRubricSynthesizer } from '../../src/synth/ruler.ts';
import {
  authorAnswerFor,
  authorClient,
  jointAnswer,
  judgeClient,
  schemaKeys,
} from '../score/support/fixtures.ts';
import {
  type DoubleReply,
  type DoubleRequest,
  jsonAnswer,
  type ModelDouble,
  startModelDouble,
} from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const PY = [
  'import matplotlib.pyplot as plt',
  'fig, ax = plt.subplots()',
  'ax.bar(["apples", "pears", "plums"], [4, 7, 2], color="tab:green")',
  'ax.set_ylabel("count")',
  'ax.set_title("Fruit")',
].join('\n');
const DOT = 'digraph { rankdir=LR; idea -> draft -> review -> publish }';
const PROMPT = 'a bar chart of apples 4, pears 7 and plums 2 with a labelled y axis';

let author: ModelDouble;
let judge: ModelDouble;
let renderer: RenderPool;
let domains: DomainRenderers;

/** Step 1 (the ideal) → `ideal(req)`; step 2 (the rubric JSON) → a well-formed answer. */
function scriptAuthor(ideal: (req: DoubleRequest) => DoubleReply) {
  author.script((req) =>
    req.text.includes('Write the best') ? ideal(req) : jsonAnswer(authorAnswerFor('chart')),
  );
}
const fenced = (lang: string, code: string): DoubleReply => ({
  content: `Here it is:\n\`\`\`${lang}\n${code}\n\`\`\`\n`,
});
const judgeScores = (score: number) =>
  judge.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), Array(6).fill(score))));

beforeAll(async () => {
  author = await startModelDouble();
  judge = await startModelDouble();
  renderer = createRenderPool({ workers: 1 });
  domains = createDomainRenderers({ svgRenderer: renderer });
});
afterAll(async () => {
  await domains.close();
  await Promise.all([author.close(), judge.close(), renderer.close()]);
});
beforeEach(() => {
  author.reset();
  judge.reset();
});

const synth = (domain?: 'python' | 'dot') =>
  createRubricSynthesizer({
    author: authorClient(author.url),
    judge: createJudge({ client: judgeClient(judge.url, { maxRetries: 0 }), cache: null }),
    renderer,
    inspect: inspectCompletion,
    domains,
    ...(domain ? { domain } : {}),
  });

describe('rubric synth in other domains', () => {
  it('python: the ideal script is run in the sandbox, judged, and the rubric kept at ≥ 0.9', async () => {
    scriptAuthor(() => fenced('python', PY));
    judgeScores(0.95);
    const r = await synth('python').synthesize({ id: 'p1', prompt: PROMPT });
    expect(RubricRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({ kept: true, domain: 'python', ideal_svg: null });
    expect(r.ideal_score).toBeCloseTo(0.95, 12);
    expect(r.ideal_code).toContain('ax.bar(');
    // Step 1 asked for a matplotlib script in a python fence, with the sandbox's rules.
    const step1 = author.requests[0]!.text;
    expect(step1).toContain('a Python matplotlib script');
    expect(step1).toContain('```python');
    expect(step1).toMatch(/Do not call plt\.show\(\) or savefig\(\)/);
    // Step 2 saw the ideal code and the domain's shared vision standards, not SVG wording.
    const step2 = author.requests[1]!.text;
    expect(step2).toContain('ax.bar(["apples"');
    for (const c of loadDomainCriteria('python').vision) expect(step2).toContain(c.question);
    expect(step2).not.toMatch(/SVG/);
    // The judge saw the figure the harness saved: 640×480.
    const uri = judge.requests[0]!.images[0]!;
    const meta = await sharp(Buffer.from(uri.split(',')[1]!, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([640, 480]);
  }, 120_000);

  it('drops an ideal that fails in its sandbox (with the error) before any rubric call, and a low one', async () => {
    scriptAuthor(() => fenced('python', `${PY}\nraise ValueError("no data for plums")`));
    const bad = await synth('python').synthesize({ id: 'p2', prompt: PROMPT });
    expect(bad).toMatchObject({ kept: false, drop_reason: 'ideal_unrenderable', domain: 'python' });
    expect(bad.drop_message).toMatch(/^exec_error: .*no data for plums/s);
    expect(author.requests).toHaveLength(1);
    expect(judge.requests).toHaveLength(0);

    author.reset();
    scriptAuthor(() => fenced('dot', DOT));
    judgeScores(0.6);
    const low = await synth().synthesize({
      id: 'p3',
      prompt: 'a four-step pipeline',
      domain: 'dot',
    });
    expect(low).toMatchObject({ kept: false, drop_reason: 'ideal_below_threshold', domain: 'dot' });
    expect(low.ideal_code?.trim()).toBe(DOT);
  }, 120_000);

  it("CLI: --domain for lines without one, a line's own domain wins, svg lines unchanged; re-run is free", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-synth-domains-'));
    author.script((req) => {
      if (req.text.includes('Draw the best SVG'))
        return fenced(
          'svg',
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="teal"/></svg>',
        );
      if (req.text.includes('Write the best'))
        return req.text.includes('Graphviz') ? fenced('dot', DOT) : fenced('python', PY);
      return jsonAnswer(authorAnswerFor('thing'));
    });
    judgeScores(1);
    const input = join(dir, 'prompts.jsonl');
    writeFileSync(
      input,
      [
        { id: 'chart', prompt: PROMPT },
        { id: 'flow', prompt: 'a four-step pipeline', domain: 'dot' },
        { id: 'icon', prompt: 'a teal dot', domain: 'svg' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const out = join(dir, 'rubrics.jsonl');
    const args = [
      'rubric',
      'synth',
      '--in',
      input,
      '--out',
      out,
      '--domain',
      'python',
      '--author',
      'openai-compatible:a',
      '--judge',
      'openai-compatible:j',
      '--author-base-url',
      author.url,
      '--judge-base-url',
      judge.url,
      '--cache',
      join(dir, 'c.sqlite'),
    ];
    const r = await runCliInProcess(args);
    expect(r.stderr).not.toMatch(/error|warn/i);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => RubricRecordSchema.parse(JSON.parse(l)));
    expect(
      lines.map((l) => [l.id, l.kept, l.domain ?? null, !!l.ideal_code, !!l.ideal_svg]),
    ).toEqual([
      ['chart', true, 'python', true, false],
      ['flow', true, 'dot', true, false],
      ['icon', true, null, false, true],
    ]);
    const calls = author.requests.length + judge.requests.length;
    expect(calls).toBe(9);
    const again = await runCliInProcess(args);
    expect(again.stdout).toContain('skipped 3 prompts already in');
    expect(author.requests.length + judge.requests.length).toBe(calls);

    const bad = await runCliInProcess([...args.slice(0, 7), 'cobol', ...args.slice(8)]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--domain must be one of');
  }, 240_000);
});
