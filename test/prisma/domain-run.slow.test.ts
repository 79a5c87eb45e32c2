// A real PrismaForge run per domain (issue 23 item 4): 20 written instructions each for svg,
// python, vega-lite, html, latex, mermaid and dot (test/fixtures/prisma-domains/, see its
// README) go through `rubric synth --preset prisma` → `curate` → `export verl` → `score` →
// `export sft` → `select`, in-process CLI, real sandboxes and warm pools, with a rule-following double:
//  - author: difficulty 1, items as the schema allows;
//  - code judge: every code item satisfied iff the code carries the instruction's «tag»;
//  - vision judge: every vision item satisfied unless the instruction says "(hard)";
//  - generator: writes the tag into the code it is given (in that domain's fence), except
//    for "(stuck)" instructions, whose code it returns unchanged.
// λ = 0.5/0.5 for every family, so by hand: a tagged candidate scores 1 (kept); an untagged
// one 0.5 (re-synthesised: recovered, or not_recovered when stuck); a hard one 0 (below τ1);
// broken code is unexecutable with its domain's failure code. Each domain's 20 are 4 of each
// kind, so every domain's funnel is raw 20, executed 16, scored 16, kept 4, recovered 4,
// discarded 8.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainId } from '../../src/core/domain-ids.ts';
import { DOMAINS } from '../../src/domains/registry.ts';
import { BAD } from '../domains/reward-matrix.ts';
import {
  type DoubleRequest,
  fillSchema,
  jsonAnswer,
  type ModelDouble,
  schemaAnswerer,
  startModelDouble,
} from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { withTag } from './domain-run-data.ts';
import { isCodeJudge, isVisionJudge } from './fixtures.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
type Json = any;

// Mermaid last: its Chromium layout is the slowest render (a 30 s page limit on a busy machine).
const RUN_DOMAINS: DomainId[] = ['svg', 'python', 'vega-lite', 'html', 'latex', 'dot', 'mermaid'];
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'prisma-domains');
const LAMBDAS = 'svg=0.5:0.5,chart=0.5:0.5,webui=0.5:0.5:0,diagram=0.5:0.5,default=0.5:0.5';

interface Line {
  id: string;
  instruction: string;
  code: string;
  source: string;
  kind: 'broken' | 'low' | 'mid' | 'stuck' | 'good';
}
const lines: Line[] = RUN_DOMAINS.flatMap((d) =>
  readFileSync(join(FIXTURES, `${d}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line),
);
const domainOfId = (id: string) => RUN_DOMAINS.find((d) => id.startsWith(`${d}-`))!;
const tagOf = (text: string) => /«([^»]+)»/.exec(text)![1]!;
const fence = (d: DomainId) => DOMAINS[d].fenceLangs[0]!;

const dir = mkdtempSync(join(tmpdir(), 'prisma-domain-run-'));
const w = (name: string, rows: object[]) => {
  writeFileSync(join(dir, name), rows.map((r) => JSON.stringify(r)).join('\n'));
  return join(dir, name);
};
let double: ModelDouble;

const verdicts = (req: DoubleRequest, pass: boolean) =>
  jsonAnswer(
    fillSchema(req.schema!, (kind, path) =>
      kind === 'boolean' ? pass : kind === 'string' ? `why ${String(path[0])}` : pass ? 99 : 0,
    ),
  );

function generator(req: DoubleRequest) {
  const m = /Previous solution \(([\w-]+)\):\n```([\w-]*)\n([\s\S]*?)\n```\n/.exec(req.text)!;
  const d = m[1] as DomainId;
  const code = req.text.includes('(stuck)') ? m[3]! : withTag(d, m[3]!, tagOf(req.text));
  return { content: `\`\`\`${m[2]}\n${code}\n\`\`\`` };
}

beforeAll(async () => {
  double = await startModelDouble({ models: ['m'] });
  const author = schemaAnswerer({ seed: 3 });
  double.script((req) => {
    if (req.schemaName === 'difficulty') return jsonAnswer({ reasoning: 'easy', difficulty: 1 });
    if (req.schemaName === 'rubric_items') return author.handler(req);
    if (req.text.includes('Failed criteria')) return generator(req);
    const tag = tagOf(req.text);
    // The instruction names the tag once; code that carries it names it again.
    if (isCodeJudge(req)) return verdicts(req, req.text.split(tag).length > 2);
    if (isVisionJudge(req)) return verdicts(req, !req.text.includes('(hard)'));
    return { status: 400 };
  });
});
afterAll(() => double.close());

const models = (role: string) => [`--${role}`, 'openai-compatible:m', `--${role}-base-url`];

describe('PrismaForge, synth → curate → export → score → select, in every domain', () => {
  it('runs 20 instructions per domain and every funnel number is as computed by hand', async () => {
    // 1. rubrics: no domain given; each is detected from the reference code.
    const prompts = w(
      'prompts.jsonl',
      lines.map((l) => ({ id: l.id, prompt: l.instruction, reference: l.code })),
    );
    const rubrics = join(dir, 'rubrics.jsonl');
    const synth = await runCliInProcess([
      'rubric',
      'synth',
      '--preset',
      'prisma',
      '--in',
      prompts,
      '--out',
      rubrics,
      ...models('author'),
      double.url,
      '--no-cache',
    ]);
    expect(synth.code, synth.stderr).toBe(0);
    const written = readFileSync(rubrics, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(written).toHaveLength(140);
    for (const r of written) expect(r.domain, r.id).toBe(domainOfId(r.id));

    // 2. curate: candidates without a domain, detected and run in their sandboxes.
    const candidates = w(
      'candidates.jsonl',
      lines.map(({ kind: _k, ...c }) => c),
    );
    const out = join(dir, 'curated');
    const curate = await runCliInProcess([
      'curate',
      '--in',
      candidates,
      '--out',
      out,
      '--rubrics',
      rubrics,
      ...models('judge'),
      double.url,
      ...models('generator'),
      double.url,
      '--judge-retries',
      '0',
      '--rounds',
      '1',
      '--concurrency',
      '2',
      '--prisma-lambdas',
      LAMBDAS,
      '--cache',
      join(dir, 'cache.sqlite'),
    ]);
    expect(curate.code, curate.stderr).toBe(0);
    const decisions = new Map(
      readFileSync(join(out, 'decisions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((d: Json) => [d.id, d]),
    );
    for (const l of lines) {
      const d = decisions.get(l.id) as Json;
      const domain = domainOfId(l.id);
      expect(d.domain, l.id).toBe(domain);
      const want = {
        broken: { decision: 'unexecutable', reason: BAD[domain].code },
        low: { decision: 'discarded', reason: 'below_tau1', initial_score: 0 },
        mid: { decision: 'recovered', initial_score: 0.5, final_score: 1 },
        stuck: { decision: 'discarded', reason: 'not_recovered', final_score: 0.5 },
        good: { decision: 'kept', initial_score: 1 },
      }[l.kind];
      expect(d, `${l.id} (${l.kind})`).toMatchObject(want);
    }
    const row = (source: string, n: number) => ({
      source,
      raw: 20 * n,
      executed: 16 * n,
      scored: 16 * n,
      kept_directly: 4 * n,
      recovered: 4 * n,
      discarded: 8 * n,
      no_rubric: 0,
      pending: 0,
    });
    const funnel = JSON.parse(readFileSync(join(out, 'funnel.json'), 'utf8'));
    expect(funnel.sources).toEqual([row('written-a', 3.5), row('written-b', 3.5)]);
    expect(funnel.domains).toEqual([...RUN_DOMAINS].sort().map((d) => row(d, 1)));
    expect(funnel.total).toEqual(row('total', 7));
    // Re-synthesis asked each domain's code in its own fence, with the failing code criteria.
    for (const d of RUN_DOMAINS) {
      const asks = double.requests.filter(
        (q) => q.text.includes('Failed criteria') && q.text.includes(`Previous solution (${d})`),
      );
      expect(asks, d).toHaveLength(8); // 4 mid + 4 stuck, one round each
      for (const q of asks) {
        expect(q.text).toContain(`one \`\`\`${fence(d)} fenced code block`);
        expect(q.text).toMatch(/\[code\] .* — why /);
        expect(q.text).not.toContain('[vision]');
      }
    }
    const kept = readFileSync(join(out, 'kept.jsonl'), 'utf8').trim().split('\n');
    expect(kept).toHaveLength(56);
    for (const k of kept.map((l) => JSON.parse(l))) {
      expect(k.messages[1].content.startsWith(`\`\`\`${k.meta.domain}\n`)).toBe(true);
      expect(k.messages[1].content).toContain(tagOf(k.messages[0].content));
    }

    // 3. export: one verl row per rubric, its ability the rubric's domain.
    const parquet = join(dir, 'train.parquet');
    const exp = await runCliInProcess(['export', 'verl', '--rubrics', rubrics, '--out', parquet]);
    expect(exp.code, exp.stderr).toBe(0);
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(parquet) });
    expect(rows).toHaveLength(140);
    for (const r of rows as Json[]) expect(r.ability).toBe(domainOfId(r.reward_model.ground_truth));

    // 4. score two rollouts of the good and the mid instruction of each domain, then select.
    const rollouts = RUN_DOMAINS.flatMap((d) => {
      const good = lines.find((l) => l.id === `${d}-04`)!;
      const mid = lines.find((l) => l.id === `${d}-02`)!;
      const fenced = (code: string) => `\`\`\`${fence(d)}\n${code}\n\`\`\``;
      return [
        { id: `${good.id}-a`, prompt_id: good.id, completion: fenced(good.code) },
        { id: `${good.id}-b`, prompt_id: good.id, completion: fenced(good.code) },
        { id: `${mid.id}-a`, prompt_id: mid.id, completion: fenced(mid.code) },
        {
          id: `${mid.id}-b`,
          prompt_id: mid.id,
          completion: fenced(withTag(d, mid.code, tagOf(mid.instruction))),
        },
      ];
    });
    const scores = join(dir, 'scores.jsonl');
    const score = await runCliInProcess([
      'score',
      '--rubrics',
      rubrics,
      '--in',
      w('rollouts.jsonl', rollouts),
      '--out',
      scores,
      '--reward',
      'prisma',
      ...models('judge'),
      double.url,
      '--prisma-lambdas',
      LAMBDAS,
      '--concurrency',
      '2',
      '--cache',
      join(dir, 'cache.sqlite'),
    ]);
    expect(score.code, score.stderr).toBe(0);

    // 5. export sft: the rollouts that scored 1 (good a and b, the tagged mid b) of every
    // domain, the answer in its domain's fence, the domain detected and recorded.
    const sft = join(dir, 'sft.jsonl');
    const exportSft = await runCliInProcess([
      'export',
      'sft',
      '--rollouts',
      join(dir, 'rollouts.jsonl'),
      '--scores',
      scores,
      '--prompts',
      prompts,
      '--min-reward',
      '1',
      '--with-meta',
      '--out',
      sft,
    ]);
    expect(exportSft.code, exportSft.stderr).toBe(0);
    expect(exportSft.stderr).toContain('wrote 21 of 28 rollouts');
    const examples = readFileSync(sft, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(examples.map((e: Json) => e.meta.id).sort()).toEqual(
      RUN_DOMAINS.flatMap((d) => [`${d}-02-b`, `${d}-04-a`, `${d}-04-b`]).sort(),
    );
    for (const e of examples as Json[]) {
      const d = domainOfId(e.meta.id);
      expect(e.meta.domain, e.meta.id).toBe(d);
      expect(e.messages[1].content, e.meta.id).toMatch(new RegExp(`^\`\`\`${fence(d)}\n`));
      expect(e.messages[1].content).toContain(tagOf(e.messages[0].content));
    }

    const sel = join(dir, 'rl');
    const select = await runCliInProcess([
      'select',
      '--scores',
      scores,
      '--prompts',
      w(
        'select-prompts.jsonl',
        lines.map((l) => ({ id: l.id, prompt: l.instruction, domain: domainOfId(l.id) })),
      ),
      '--out',
      sel,
      '--top-k',
      '7',
    ]);
    expect(select.code, select.stderr).toBe(0);
    const dispersion = readFileSync(join(sel, 'dispersion.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(dispersion).toHaveLength(14);
    for (const x of dispersion) {
      // good: 1, 1 → U 0; mid: 0.5, 1 → mean 0.75, U = (0.25² + 0.25²)/2 = 0.0625.
      expect(x.dispersion, x.prompt_id).toBeCloseTo(x.prompt_id.endsWith('-02') ? 0.0625 : 0, 12);
    }
    const selected = readFileSync(join(sel, 'selected.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id)
      .sort();
    expect(selected).toEqual(RUN_DOMAINS.map((d) => `${d}-02`).sort());
    const rl = (await parquetReadObjects({
      file: await asyncBufferFromFile(join(sel, 'rl.parquet')),
    })) as Json[];
    for (const r of rl) expect(r.ability).toBe(domainOfId(r.reward_model.ground_truth));
  }, 1_800_000);
});
