// Sharded `generate`, `eval` and `curate` as a cluster runs them: 3 processes with
// --shard i/3 sharing one SQLite cache and the loopback model double (policy and judges),
// one killed with SIGKILL mid-run and run again to resume, then `rubrica merge`; the merge
// must equal what one process writes for the same input with the same cache — the per-item
// lines in the input's order, and the files derived from them (eval's summary.json with its
// bootstrap intervals and report.html, curate's kept set and funnel) recomputed over all
// items, not added up. Also: merge refuses a missing shard and shards of mixed commands;
// a folder written as another shard is refused; eval --shard needs --run.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOfId } from '../../src/store/shard.ts';
import { isCodeJudge, isVisionJudge, prismaRubric } from '../prisma/fixtures.ts';
import { fluentEmoji } from '../support/corpus.ts';
import {
  type DoubleRequest,
  fillSchema,
  jsonAnswer,
  type ModelDouble,
  startModelDouble,
} from '../support/model-double.ts';
import { idsIn, killAfterFirstLine, lines, rubrica, sidecar, withoutRunFields } from './support.ts';

const N = 3;
const SHARDS = [0, 1, 2];
const ICONS = fluentEmoji(18).map((c) => c.svg);
const DELAY_MS = 120;

let double: ModelDouble;
let dir: string;

/** A number from the request text, so judges' scores differ between items (stable per text). */
const textHash = (t: string) => [...t].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

/** Curate's judges: every criterion met, or none, by the candidate's number. */
function curateVerdict(req: DoubleRequest) {
  const n = Number(/instruction (\d+)/.exec(req.text)?.[1] ?? 0);
  const pass = isCodeJudge(req) ? n % 3 !== 0 : n % 4 !== 1;
  return jsonAnswer(
    fillSchema(req.schema!, (kind, path) =>
      kind === 'boolean' ? pass : kind === 'string' ? `reason-${String(path[0])}` : pass ? 99 : 0,
    ),
    { delayMs: DELAY_MS },
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-shard-cmds-'));
  double = await startModelDouble({
    handler: (req) => {
      // The policy (no schema): one picture per prompt text, the same on every call.
      if (!req.schema) {
        const k = textHash(req.messages.at(-1)?.text ?? '') % ICONS.length;
        return { content: `\`\`\`svg\n${ICONS[k]}\n\`\`\``, delayMs: DELAY_MS };
      }
      if (isCodeJudge(req) || isVisionJudge(req)) return curateVerdict(req);
      // eval's judge: scores that vary with the rollout.
      const h = textHash(req.text);
      return jsonAnswer(
        fillSchema(req.schema, (kind, path, s) => {
          if (kind !== 'number' && kind !== 'integer') return undefined;
          const min = typeof s.minimum === 'number' ? s.minimum : 0;
          const max = typeof s.maximum === 'number' ? s.maximum : 1;
          const f = ((h >>> (path.length % 8)) % 97) / 96;
          return kind === 'integer' ? Math.round(min + (max - min) * f) : min + (max - min) * f;
        }),
        { delayMs: DELAY_MS },
      );
    },
  });
});
afterAll(() => double.close());

/**
 * Runs the 3 shards at once, SIGKILLs the biggest one after its first line, checks it is
 * left unfinished, runs it again and checks it finished. Returns the lines the victim had.
 */
async function runShards(
  argsOf: (i: number) => string[],
  itemFile: (i: number) => string,
  sizes: number[],
): Promise<{ victim: number; partial: number; resumed: string }> {
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2); // else sharding is not tested
  const victim = sizes.indexOf(Math.max(...sizes));
  const procs = SHARDS.map((i) => rubrica(dir, argsOf(i)));
  await killAfterFirstLine(procs[victim]!.child, itemFile(victim));
  const results = await Promise.all(procs.map((p) => p.done));
  results.forEach((r, i) => {
    if (i !== victim) expect(r.code, r.stderr).toBe(0);
  });
  const partial = idsIn(itemFile(victim)).length;
  expect(partial).toBeLessThan(sizes[victim]!);
  expect(sidecar(itemFile(victim)).complete).toBe(false);
  const again = await rubrica(dir, argsOf(victim)).done;
  expect(again.code, again.stderr).toBe(0);
  expect(sidecar(itemFile(victim)).complete).toBe(true);
  return { victim, partial, resumed: again.stdout };
}

const merge = (out: string, shards: string[]) =>
  rubrica(dir, ['merge', '--out', out, ...shards]).done;

describe('sharded generate + merge', () => {
  const prompts = () => join(dir, 'prompts.jsonl');
  const out = (i: number) => join(dir, `gen.${i}.jsonl`);
  const args = (o: string) => [
    'generate',
    '--prompts',
    prompts(),
    '--policy',
    'openai-compatible:policy',
    '--policy-base-url',
    double.url,
    '--n',
    '2',
    '--concurrency',
    '1',
    '--out',
    o,
  ];

  it('3 shard processes (one SIGKILLed and resumed) merge into what one process writes', async () => {
    const want = Array.from({ length: 12 }, (_, i) => `prompt-${i}`);
    writeFileSync(
      prompts(),
      want.map((id, i) => JSON.stringify({ id, prompt: `drawing number ${i}` })).join('\n'),
    );
    const sizes = SHARDS.map((s) => 2 * want.filter((id) => shardOfId(id, N) === s).length);
    const { victim, partial, resumed } = await runShards(
      (i) => [...args(out(i)), '--shard', `${i}/${N}`],
      out,
      sizes,
    );
    expect(resumed).toContain(`${partial} already in ${out(victim)}`);
    // A prompt's samples stay together, in the shard of the prompt's id.
    for (const i of SHARDS)
      for (const l of lines(out(i)))
        expect(shardOfId((JSON.parse(l) as { prompt_id: string }).prompt_id, N)).toBe(i);

    const merged = join(dir, 'gen.merged.jsonl');
    const m = await merge(merged, [out(2), out(0), out(1)]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toContain('24 lines');
    const single = join(dir, 'gen.single.jsonl');
    const one = await rubrica(dir, args(single)).done;
    expect(one.code, one.stderr).toBe(0);
    expect(idsIn(merged)).toEqual(want.flatMap((p) => [`${p}#0`, `${p}#1`]));
    // usage (tokens, latency) is how the call went; the rest is what the policy answered.
    const strip = (p: string) => lines(p).map((l) => withoutRunFields(JSON.parse(l), ['usage']));
    expect(strip(merged)).toEqual(strip(single));
  }, 420_000);
});

describe('sharded eval + merge', () => {
  const prompts = () => join(dir, 'eval-prompts.jsonl');
  const rollouts = () => join(dir, 'rollouts.jsonl');
  const out = (i: number) => join(dir, `eval.${i}`);
  const args = (o: string) => [
    'eval',
    '--prompts',
    prompts(),
    '--rollouts',
    rollouts(),
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    double.url,
    '--run',
    'base',
    '--concurrency',
    '1',
    '--cache',
    join(dir, 'cache.sqlite'),
    '--out',
    o,
  ];
  const RUN_FIELDS = ['usage', 'cached', 'render_ms', 'latencyMs'];

  it('3 shard processes (one SIGKILLed and resumed) merge into the run one process writes', async () => {
    writeFileSync(
      prompts(),
      Array.from({ length: 9 }, (_, i) =>
        JSON.stringify({ id: `prompt-${i}`, prompt: `drawing number ${i}` }),
      ).join('\n'),
    );
    const want = Array.from({ length: 18 }, (_, i) => `r${i}`);
    writeFileSync(
      rollouts(),
      `${[
        ...want.map((id, i) =>
          JSON.stringify({
            id,
            prompt_id: `prompt-${i >> 1}`,
            completion: `\`\`\`svg\n${ICONS[i]}\n\`\`\``,
          }),
        ),
        // Left out with a notice, by every shard and by one run alike.
        JSON.stringify({ id: 'orphan', prompt_id: 'nowhere', completion: 'x' }),
      ].join('\n')}\n`,
    );
    const sizes = SHARDS.map((s) => want.filter((id) => shardOfId(id, N) === s).length);
    const results = (i: number) => join(out(i), 'results.jsonl');
    const { partial, resumed } = await runShards(
      (i) => [...args(out(i)), '--shard', `${i}/${N}`],
      results,
      sizes,
    );
    expect(resumed).toContain(`${partial} kept from an earlier run`);

    const merged = join(dir, 'eval.merged');
    const m = await merge(merged, SHARDS.map(out).reverse());
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toContain('18 records');
    const calls = double.requests.length;
    const single = join(dir, 'eval.single');
    const one = await rubrica(dir, args(single)).done;
    expect(one.code, one.stderr).toBe(0);
    expect(double.requests.length).toBe(calls); // every answer came from the cache

    const res = (d: string) =>
      lines(join(d, 'results.jsonl')).map((l) => withoutRunFields(JSON.parse(l), RUN_FIELDS));
    expect(idsIn(join(merged, 'results.jsonl'))).toEqual(want);
    expect(res(merged)).toEqual(res(single));
    // The pictures, byte for byte.
    const pngs = (d: string) => readdirSync(join(d, 'images')).sort();
    expect(pngs(merged)).toEqual(pngs(single));
    for (const f of pngs(single))
      expect(readFileSync(join(merged, 'images', f))).toEqual(
        readFileSync(join(single, 'images', f)),
      );
    // The summary is recomputed over all 18 records: the same statistics and intervals.
    const summary = (d: string) => {
      const s = JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      for (const k of ['created_at', 'elapsed_ms', 'elapsed_parts', 'elapsed_last_ms']) delete s[k];
      return withoutRunFields(s, [...RUN_FIELDS, 'probe']);
    };
    const merged_ = summary(merged) as { records: number; rewards: Record<string, unknown> };
    expect(merged_.records).toBe(18);
    expect(merged_).toEqual(summary(single));
    // A shard's own summary covers its share only: the merge did not copy one.
    const s0 = JSON.parse(readFileSync(join(out(0), 'summary.json'), 'utf8'));
    expect(s0.records).toBe(sizes[0]);
    // The report, element by element: only the run's time, the judge's calls and cost
    // (none for the single run: all cached) and the elapsed time may differ.
    const report = (d: string) => readFileSync(join(d, 'report.html'), 'utf8').split('><');
    const [a, b] = [report(merged), report(single)];
    expect(a.length).toBe(b.length);
    const differ = a.filter((x, k) => x !== b[k]);
    expect(differ.length).toBeLessThanOrEqual(9);
    for (const x of differ)
      expect(x).toMatch(
        /\d{4}-\d\d-\d\dT\d\d:\d\d|^div class="v">\d+<\/div$|cost unknown|unknown price|^td>\d+(\.\d)?( over \d+ invocations \(last [\d.]+\))?<\/td$/,
      );
    expect(a.join('><')).toContain('1 rollouts name a prompt_id missing from');

    // The inputs moved (the shards ran on other machines): the recorded paths are gone, and
    // --in and --prompts say where they are now.
    const moved = mkdtempSync(join(tmpdir(), 'rubrica-moved-'));
    renameSync(prompts(), join(moved, 'prompts.jsonl'));
    try {
      const lost = await merge(join(dir, 'eval.lost'), SHARDS.map(out));
      expect(lost.code).toBe(2);
      expect(lost.stderr).toMatch(/the prompts of the run: .*eval-prompts\.jsonl/);
      renameSync(rollouts(), join(moved, 'rollouts.jsonl'));
      const found = await rubrica(dir, [
        'merge',
        '--out',
        join(dir, 'eval.found'),
        '--in',
        join(moved, 'rollouts.jsonl'),
        '--prompts',
        join(moved, 'prompts.jsonl'),
        ...SHARDS.map(out),
      ]).done;
      expect(found.code, found.stderr).toBe(0);
      expect(res(join(dir, 'eval.found'))).toEqual(res(merged));
      expect(summary(join(dir, 'eval.found'))).toEqual(merged_);
      // --prompts belongs to eval's shards only.
      const wrong = await rubrica(dir, [
        'merge',
        '--out',
        join(dir, 'x.jsonl'),
        '--prompts',
        join(moved, 'prompts.jsonl'),
        ...SHARDS.map((i) => join(dir, `gen.${i}.jsonl`)),
      ]).done;
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(
        /--prompts is for the shards of `eval`; these are shards of `generate`/,
      );
    } finally {
      for (const [from, to] of [
        [join(moved, 'prompts.jsonl'), prompts()],
        [join(moved, 'rollouts.jsonl'), rollouts()],
      ] as const)
        if (existsSync(from)) renameSync(from, to);
    }
  }, 420_000);
  it('with --policy, shards sample their prompts and the merge equals one sampled run', async () => {
    const pol = (o: string) => [
      'eval',
      '--prompts',
      prompts(),
      '--policy',
      'openai-compatible:policy',
      '--policy-base-url',
      double.url,
      '--n',
      '2',
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--run',
      'sampled',
      '--cache',
      join(dir, 'cache.sqlite'),
      '--out',
      o,
    ];
    const shardOut = (i: number) => join(dir, `evalp.${i}`);
    const done = await Promise.all(
      SHARDS.map((i) => rubrica(dir, [...pol(shardOut(i)), '--shard', `${i}/${N}`]).done),
    );
    for (const r of done) expect(r.code, r.stderr).toBe(0);
    // Each shard sampled only its prompts, both samples of each.
    for (const i of SHARDS)
      for (const l of lines(join(shardOut(i), 'rollouts.jsonl')))
        expect(shardOfId((JSON.parse(l) as { prompt_id: string }).prompt_id, N)).toBe(i);
    const merged = join(dir, 'evalp.merged');
    const m = await merge(merged, SHARDS.map(shardOut));
    expect(m.code, m.stderr).toBe(0);
    const single = join(dir, 'evalp.single');
    const one = await rubrica(dir, pol(single)).done;
    expect(one.code, one.stderr).toBe(0);
    const strip = (d: string, f: string) =>
      lines(join(d, f)).map((l) => withoutRunFields(JSON.parse(l), RUN_FIELDS));
    expect(idsIn(join(merged, 'results.jsonl'))).toEqual(
      Array.from({ length: 9 }, (_, i) => [`prompt-${i}#0`, `prompt-${i}#1`]).flat(),
    );
    for (const f of ['rollouts.jsonl', 'results.jsonl'])
      expect(strip(merged, f), f).toEqual(strip(single, f));
    const summary = (d: string) => {
      const s = JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8')) as {
        settings: Record<string, unknown>;
      };
      // The sampled file is named after each run's folder.
      expect(s.settings.rollouts).toBe(join(d, 'rollouts.jsonl'));
      s.settings.rollouts = null;
      return withoutRunFields(s, [
        ...RUN_FIELDS,
        'probe',
        'created_at',
        'elapsed_ms',
        'elapsed_parts',
        'elapsed_last_ms',
      ]);
    };
    expect(summary(merged)).toEqual(summary(single));
  }, 420_000);
});

describe('sharded curate + merge', () => {
  const candidates = () => join(dir, 'candidates.jsonl');
  const out = (i: number) => join(dir, `cur.${i}`);
  const args = (o: string) => [
    'curate',
    '--in',
    candidates(),
    '--rubrics',
    join(dir, 'prisma.jsonl'),
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    double.url,
    '--judge-retries',
    '0',
    '--rounds',
    '0',
    '--concurrency',
    '1',
    '--cache',
    join(dir, 'cache.sqlite'),
    '--out',
    o,
  ];

  it('3 shard processes (one SIGKILLed and resumed) merge into the folder one process writes', async () => {
    const want = Array.from({ length: 12 }, (_, i) => `cand-${i}`);
    const cands = want.map((id, i) => ({
      id,
      instruction: `instruction ${i}`,
      code: ICONS[i]!,
      source: i % 2 ? 'web' : 'github',
    }));
    writeFileSync(candidates(), cands.map((c) => JSON.stringify(c)).join('\n'));
    writeFileSync(
      join(dir, 'prisma.jsonl'),
      cands.map((c) => JSON.stringify(prismaRubric(c.id, c.instruction))).join('\n'),
    );
    const sizes = SHARDS.map((s) => want.filter((id) => shardOfId(id, N) === s).length);
    const decisions = (i: number) => join(out(i), 'decisions.jsonl');
    const { victim, partial, resumed } = await runShards(
      (i) => [...args(out(i)), '--shard', `${i}/${N}`],
      decisions,
      sizes,
    );
    expect(resumed).toContain(`skipped ${partial} candidates already in ${decisions(victim)}`);

    const merged = join(dir, 'cur.merged');
    const m = await merge(merged, [out(1), out(2), out(0)]);
    expect(m.code, m.stderr).toBe(0);
    const calls = double.requests.length;
    const single = join(dir, 'cur.single');
    const one = await rubrica(dir, args(single)).done;
    expect(one.code, one.stderr).toBe(0);
    expect(double.requests.length).toBe(calls);

    expect(idsIn(join(merged, 'decisions.jsonl'))).toEqual(want);
    const dec = (d: string) =>
      lines(join(d, 'decisions.jsonl')).map((l) => withoutRunFields(JSON.parse(l), ['usage']));
    expect(dec(merged)).toEqual(dec(single));
    const file = (d: string, f: string) => readFileSync(join(d, f));
    for (const f of ['kept.jsonl', 'kept.parquet', 'funnel.json', 'funnel.txt', 'funnel.html'])
      expect(file(merged, f), f).toEqual(file(single, f));
    const funnel = JSON.parse(file(merged, 'funnel.json').toString()) as {
      total: { candidates?: number };
    };
    expect(JSON.stringify(funnel)).toContain('"web"');
    const summary = (d: string) =>
      withoutRunFields(JSON.parse(file(d, 'summary.json').toString()), ['ledger']);
    expect(summary(merged)).toEqual(summary(single));
    expect((summary(merged) as { decisions: number }).decisions).toBe(12);
    // Decisions of both kinds, so the funnel is not trivially one number.
    const kinds = new Set(dec(merged).map((d) => (d as { decision: string }).decision));
    expect(kinds.size).toBeGreaterThanOrEqual(2);
  }, 420_000);
});

describe('refusals', () => {
  it('merge refuses a missing shard and shards of mixed commands; a shard folder stays its own', async () => {
    const cur = (i: number) => join(dir, `cur.${i}`);
    const ev = (i: number) => join(dir, `eval.${i}`);
    for (const [r, msg] of [
      [await merge(join(dir, 'x'), [cur(0), cur(1)]), 'missing shard 2/3'],
      [await merge(join(dir, 'x'), [ev(0), ev(1), cur(2)]), 'of `curate`'],
      [await merge(join(dir, 'x.jsonl'), [join(dir, 'gen.0.jsonl'), ev(1), ev(2)]), 'of `eval`'],
      [await merge(join(dir, 'x'), [ev(0), ev(1), ev(2), ev(2)]), 'given twice'],
      [
        await merge(join(dir, 'x'), [ev(0), ev(1), join(dir, 'eval.single')]),
        'without a shard sidecar',
      ],
    ] as const) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(msg);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(existsSync(join(dir, 'x'))).toBe(false);
    // Shard 1's run pointed at shard 0's folder is refused before any work.
    const wrong = await rubrica(dir, [
      'curate',
      '--in',
      join(dir, 'candidates.jsonl'),
      '--rubrics',
      join(dir, 'prisma.jsonl'),
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--rounds',
      '0',
      '--cache',
      join(dir, 'cache.sqlite'),
      '--out',
      cur(0),
      '--shard',
      '1/3',
    ]).done;
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('holds shard 0/3 of `curate`');
    // eval's records carry the run name: a shard without --run is a usage error.
    const noRun = await rubrica(dir, [
      'eval',
      '--prompts',
      join(dir, 'eval-prompts.jsonl'),
      '--rollouts',
      join(dir, 'rollouts.jsonl'),
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--out',
      join(dir, 'eval.norun'),
      '--shard',
      '0/3',
    ]).done;
    expect(noRun.code).toBe(2);
    expect(noRun.stderr).toContain('--shard needs --run');
  }, 120_000);
});
