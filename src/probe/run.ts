// runProbe: the judge-health probe. Real drawings (rollouts) go through the same scorer as
// training (createRolloutScorer: inspect, render, judge, weigh) — judged again to measure
// repeatability, perturbed on the SVG (catalogue.ts) to test hack resistance and sensitivity,
// with the rubric's items shuffled for order effects, and the rubric's ideal drawing as an
// anchor. The answer cache is off throughout: a probe measures the judge, not its cache.

import pLimit from 'p-limit';
import { promptIdResolver } from '../core/group-key.ts';
import type { RewardKind, RolloutInput, ScoreRecord } from '../core/record.ts';
import { isGraderFaultRecord } from '../core/status.ts';
import type { PromptLine, RolloutLine } from '../eval/run-inputs.ts';
import { seededRandom } from '../eval/stats/prng.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import type { Inspection } from '../inspect/types.ts';
import { createGroupJudge, GROUP_CHUNK_MAX } from '../judge/group.ts';
import { createJudge } from '../judge/judge.ts';
import { createPairwiseJudge } from '../judge/pairwise.ts';
import type { JudgingStrategy } from '../judge/strategy.ts';
import type { ModelClient } from '../models/types.ts';
import { withRolloutTimeout } from '../pipeline/rollout-timeout.ts';
import { createRolloutScorer, type RolloutScorerOptions } from '../pipeline/score.ts';
import type { JudgeMode } from '../pipeline/types.ts';
import type { Renderer } from '../render/types.ts';
import type { RewardContext } from '../reward/kinds/context.ts';
import { INSTANCE_PRESET } from '../reward/kinds/index.ts';
import { instanceRubric } from '../reward/kinds/instance-rubric.ts';
import { judgedRubricReward } from '../reward/kinds/judged-rubric.ts';
import { weightedReward } from '../reward/weighted.ts';
import { indexRubrics } from '../rubric/load.ts';
import type { PrismaRubric } from '../rubric/prisma-schema.ts';
import type { RubricItem, RubricRecord } from '../rubric/schema.ts';
import { universalItems } from '../rubric/universal.ts';
import {
  anchorsResult,
  hackResult,
  orderResult,
  type PairInput,
  repeatabilityResult,
  type Scoring,
  sensitivityResult,
} from './analyse.ts';
import { type AttackPairInput, attackResult, type Defence } from './attack-result.ts';
import { ANCHORS, orderSpec, PERTURBATION_PROBES, REPEATABILITY } from './catalogue.ts';
import { createExamples } from './examples.ts';
import { attackCompletion, JUDGE_ATTACKS, staticDefences } from './judge-attacks.ts';
import {
  absoluteFigures,
  type GroupOrderAnswers,
  groupFigures,
  groupsWithinPrompts,
  type JudgingModeFigures,
  type PairAnswers,
  pairsWithinPrompts,
  pairwiseFigures,
} from './judging-modes.ts';
import { blankPage } from './perturb.ts';
import {
  DEFAULT_THRESHOLDS,
  PROBE_SCHEMA,
  type ProbeReport,
  type ProbeResult,
  type ProbeThresholds,
} from './types.ts';

/**
 * What to probe: a judge and a reward kind, the rollouts whose pictures are altered, the
 * rubrics (whose ideal SVGs are the anchors), repeats and thresholds.
 */
export interface ProbeOptions {
  prompts: readonly PromptLine[];
  rollouts: readonly RolloutLine[];
  /** Kept rubrics: needed for ruler / rubric-s, and their ideal SVGs are the anchors. */
  rubrics?: readonly RubricRecord[];
  /** PrismaForge rubrics: needed for reward "prisma" (code + vision judges). */
  prismaRubrics?: readonly PrismaRubric[];
  judge: ModelClient;
  reward: RewardKind;
  mode?: JudgeMode;
  /** How judge answers are asked and read (src/judge/strategy.ts). */
  judging?: Partial<JudgingStrategy>;
  /**
   * `--gate`: the checks whose flag zeroes a rollout (status gated, no judge call), as
   * training will gate them; default the scorer's (judge_text). Attack rows show `gated`.
   */
  gate?: RolloutScorerOptions['gate'];
  /** Needed for reward "hybrid". */
  hybrid?: RolloutScorerOptions['hybrid'];
  renderer: Renderer;
  /** Times each original picture is judged (≥ 2 to measure repeatability). Default 3. */
  repeats?: number;
  seed?: number;
  /** Use at most this many rollouts of each prompt (in file order). Default all. */
  maxPerPrompt?: number;
  /** Judge modes of the order probe. Default joint and per-item. */
  orderModes?: readonly JudgeMode[];
  thresholds?: Partial<ProbeThresholds>;
  /** Plant the attacks on the judge (verdicts, instructions, markers…) too. Default true. */
  attacks?: boolean;
  /** Scorings in flight at once. Default 8. */
  concurrency?: number;
  /** `--rollout-timeout-ms`: a scoring not done by then is a `deadline` grader fault. */
  rolloutTimeoutMs?: number;
  /**
   * Compare judging modes (greedy vs expected repeatability, pairwise position bias): pairs
   * judged in both orders, at most this many (default 16); 0 leaves the comparison out.
   */
  modePairs?: number;
  onProgress?: (done: number, total: number) => void;
}

interface Picture {
  id: string;
  prompt_id: string;
  prompt: string;
  completion: string;
  svg: string;
  inspection: Inspection;
  repeats: Scoring[];
  /** Mean of the measured repeats; null when every repeat was a grader fault. */
  base: number | null;
  /** What a pairwise or group judge reads with the picture (prompt, criteria, items, data hash). */
  context: {
    prompt: string;
    criteria: string;
    assets: string | null;
    items?: readonly RubricItem[];
  } | null;
}

const toScoring = (r: ScoreRecord): Scoring => ({
  reward: r.reward,
  status: r.status,
  reason: r.reason,
});

/** The completion with its SVG replaced (reasoning and prose kept, as a policy would write it). */
export function replaceSvg(completion: string, svg: string, next: string): string {
  const at = completion.lastIndexOf(svg);
  if (at < 0) return `\`\`\`svg\n${next}\n\`\`\``;
  return completion.slice(0, at) + next + completion.slice(at + svg.length);
}

function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  // A shuffle that left the order as it was tests nothing: rotate by one instead.
  if (out.length > 1 && out.every((x, i) => x === items[i])) out.push(out.shift()!);
  return out;
}

function tally(report: ProbeReport['grader_faults'], s: Scoring): void {
  report.scorings++;
  if (!isGraderFaultRecord(s)) return;
  report.faults++;
  const k = s.reason ?? 'unknown';
  report.by_reason[k] = (report.by_reason[k] ?? 0) + 1;
}

const FAULT: Scoring = { reward: 0, status: 'grader_error', reason: 'judge_error' };

// Long because it is the probe's one sequence of stages; each stage is a few lines calling
// the scorer and handing numbers to analyse.ts.
/**
 * Probes a judge + reward before training, on real rollouts: repeatability (the same picture
 * judged `repeats` times), hack resistance (text, clutter, blank), sensitivity (broken
 * pictures must score lower), anchors and item order. Grader faults are counted apart and
 * never turned into probe results; a probe left without data makes the verdict `incomplete`.
 * @example
 * ```ts
 * const prompts = [{ id: 'p1', prompt: 'a red apple' }];
 * const rollouts = [{ id: 'r1', prompt_id: 'p1', prompt: null, completion }];
 * const report = await runProbe({
 *   prompts, rollouts, rubrics, judge: client, reward: 'ruler', renderer: pool,
 * });
 * await writeProbeOutputs('runs/probe', report); // report.verdict: pass | fail | incomplete
 * ```
 */
export async function runProbe(opts: ProbeOptions): Promise<ProbeReport> {
  const t0 = performance.now();
  const th: ProbeThresholds = { ...DEFAULT_THRESHOLDS, ...opts.thresholds };
  const repeats = Math.max(1, opts.repeats ?? 3);
  const seed = opts.seed ?? 1;
  const mode = opts.mode ?? 'joint';
  const kind = opts.reward;
  const faults: ProbeReport['grader_faults'] = { scorings: 0, faults: 0, by_reason: {} };
  const built = await createRolloutScorer({
    rubrics: opts.rubrics ?? [],
    ...(opts.prismaRubrics ? { prismaRubrics: opts.prismaRubrics } : {}),
    judge: opts.judge,
    renderer: opts.renderer,
    inspect: inspectCompletion,
    cache: false,
    reward: kind,
    mode,
    ...(opts.judging ? { judging: opts.judging } : {}),
    ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
    hybrid: opts.hybrid,
    concurrency: opts.concurrency ?? 8,
  });
  const scorer = opts.rolloutTimeoutMs
    ? withRolloutTimeout(built, opts.rolloutTimeoutMs, { defaultRewards: [kind] })
    : built;
  const limit = pLimit(Math.max(1, opts.concurrency ?? 8));
  let done = 0;
  let total = 0;
  const score = async (input: RolloutInput, m: JudgeMode = mode) => {
    const out = await scorer.scoreRollout(input, { reward: kind, mode: m });
    tally(faults, toScoring(out.record));
    opts.onProgress?.(++done, total);
    return out;
  };

  try {
    // Pictures: rollouts with a prompt, at most maxPerPrompt per prompt.
    const promptText = new Map(opts.prompts.map((p) => [p.id, p.prompt]));
    for (const r of opts.rubrics ?? []) if (!promptText.has(r.id)) promptText.set(r.id, r.prompt);
    // Pictures of one prompt are one GRPO group (src/core/group-key.ts).
    const promptIdOf = promptIdResolver(opts.prompts);
    const perPrompt = new Map<string, number>();
    const skipped: Record<string, number> = {};
    const skip = (why: string) => {
      skipped[why] = (skipped[why] ?? 0) + 1;
    };
    const candidates: Omit<Picture, 'svg' | 'inspection' | 'repeats' | 'base' | 'context'>[] = [];
    for (const r of opts.rollouts) {
      const prompt_id = promptIdOf(r);
      const prompt = r.prompt ?? promptText.get(prompt_id);
      if (!prompt) {
        skip('no_prompt');
        continue;
      }
      const k = perPrompt.get(prompt_id) ?? 0;
      if (opts.maxPerPrompt !== undefined && k >= opts.maxPerPrompt) {
        skip('over_max_per_prompt');
        continue;
      }
      perPrompt.set(prompt_id, k + 1);
      candidates.push({ id: r.id, prompt_id, prompt, completion: r.completion });
    }
    total = candidates.length * repeats;

    // 1. Repeatability. One picture's repeats run one after another: concurrent identical
    // requests would share one judge call and make every repeat agree by construction.
    const pictures: Picture[] = [];
    await Promise.all(
      candidates.map((c) =>
        limit(async () => {
          const input = {
            id: c.id,
            prompt_id: c.prompt_id,
            prompt: c.prompt,
            completion: c.completion,
          };
          const first = await score(input);
          if (first.record.status === 'unscoreable' || !first.inspection?.artifact.svg) {
            // Nothing drawn to perturb (no SVG, truncated, did not render, blank, no rubric).
            skip(first.record.reason ?? 'unscoreable');
            done += repeats - 1;
            return;
          }
          const runs = [toScoring(first.record)];
          for (let i = 1; i < repeats; i++) runs.push(toScoring((await score(input)).record));
          const ok = runs.filter((s) => !isGraderFaultRecord(s)).map((s) => s.reward);
          pictures.push({
            ...c,
            svg: first.inspection.artifact.svg,
            inspection: first.inspection,
            repeats: runs,
            base: ok.length ? ok.reduce((a, b) => a + b, 0) / ok.length : null,
            context: first.judgeContext ?? null,
          });
        }),
      ),
    );
    // Input order, whatever order the scorings finished in.
    const order = new Map(candidates.map((c, i) => [c.id, i]));
    pictures.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const rep = repeatabilityResult(REPEATABILITY, pictures, th);
    const tol = Math.max(th.tolerance, th.noise_factor * rep.noise);
    const results: ProbeResult[] = [rep.result];

    // 2. Hack and sensitivity probes: every perturbation of every picture, scored at once.
    const promptIds = [...new Set(pictures.map((p) => p.prompt_id))];
    const otherPicture = (p: Picture): Picture | undefined => {
      // The first picture of the next prompt (cyclically): deterministic, and another subject.
      const at = promptIds.indexOf(p.prompt_id);
      for (let k = 1; k < promptIds.length; k++) {
        const id = promptIds[(at + k) % promptIds.length];
        const hit = pictures.find((q) => q.prompt_id === id && q.base !== null);
        if (hit) return hit;
      }
      return undefined;
    };
    const jobs: Promise<PairInput>[] = [];
    const examples = createExamples();
    const perProbe = PERTURBATION_PROBES.map(() => [] as Promise<PairInput>[]);
    total += pictures.length * PERTURBATION_PROBES.length;
    PERTURBATION_PROBES.forEach((probe, pi) => {
      pictures.forEach((p, i) => {
        const pair = async (): Promise<PairInput> => {
          const ref = { id: p.id, prompt_id: p.prompt_id, base: p.base };
          let completion: string | null;
          if (probe.perturb === null) {
            const other = otherPicture(p);
            completion = other ? other.completion : null;
          } else {
            const next = probe.perturb(p.svg, { prompt: p.prompt, seed: seed + i });
            completion = next === null ? null : replaceSvg(p.completion, p.svg, next);
          }
          if (completion === null) {
            done++;
            return { ...ref, probed: null };
          }
          if (p.base === null) {
            done++;
            return { ...ref, probed: FAULT };
          }
          const input = {
            id: `${p.id}~${probe.id}`,
            prompt_id: p.prompt_id,
            prompt: p.prompt,
            completion,
          };
          const out = await score(input);
          const original = p.inspection.render;
          const probed = out.inspection?.render;
          if (original?.ok && probed?.ok)
            examples.offer(probe.id, i, p.id, original.png, probed.png);
          return { ...ref, probed: toScoring(out.record) };
        };
        const job = limit(pair);
        jobs.push(job);
        perProbe[pi]!.push(job);
      });
    });
    await Promise.all(jobs);
    for (const [pi, probe] of PERTURBATION_PROBES.entries()) {
      const inputs = await Promise.all(perProbe[pi]!);
      results.push(
        probe.family === 'hack'
          ? hackResult(probe, inputs, tol, th)
          : sensitivityResult(probe, inputs, tol, th),
      );
    }

    // 2b. Attacks on the judge: each family planted into every picture, scored like a rollout,
    // with the defences that met it (judge-attacks.ts).
    const attacks = opts.attacks === false ? [] : JUDGE_ATTACKS;
    const titlesOf = (promptId: string) =>
      (opts.rubrics ?? []).find((r) => r.id === promptId)?.items.map((it) => it.title) ??
      (opts.prismaRubrics ?? [])
        .find((r) => r.id === promptId)
        ?.vision_items.filter((it) => it.origin === 'specific')
        .map((it) => it.criterion) ??
      [];
    total += pictures.length * attacks.length;
    const attackRows = await Promise.all(
      attacks.map((attack) =>
        Promise.all(
          pictures.map((p, i) =>
            limit(async (): Promise<AttackPairInput> => {
              const ref = { id: p.id, prompt_id: p.prompt_id, base: p.base, defences: [] };
              const ctx = { prompt: p.prompt, seed: seed + i, rubricTitles: titlesOf(p.prompt_id) };
              const next = attack.plant(p.svg, ctx);
              if (next === null || p.base === null) {
                done++;
                return { ...ref, probed: next === null ? null : FAULT };
              }
              const out = await score({
                id: `${p.id}~${attack.id}`,
                prompt_id: p.prompt_id,
                prompt: p.prompt,
                completion: attackCompletion(p.completion, p.svg, next, replaceSvg),
              });
              const defences = staticDefences(p.svg, next) as Defence[];
              if (out.record.checks.judge_text === true) defences.unshift('flagged');
              // A gate (--gate) zeroes a flagged rollout with status "gated".
              if ((out.record.status as string) === 'gated') defences.unshift('gated');
              const original = p.inspection.render;
              const probed = out.inspection?.render;
              if (original?.ok && probed?.ok && attack.place === 'drawn')
                examples.offer(attack.id, i, p.id, original.png, probed.png);
              return { ...ref, probed: toScoring(out.record), defences };
            }),
          ),
        ),
      ),
    );
    attacks.forEach((attack, k) => {
      results.push(attackResult(attack, attackRows[k]!, tol, th));
    });

    // 3. Order: the reward's rubric with its items shuffled, in each judge mode, against the
    // same rubric in its own order in that mode (the hybrid reward has no rubric to shuffle).
    if (kind !== 'hybrid') {
      const rubrics = indexRubrics(opts.rubrics ?? []);
      const modes = opts.orderModes ?? ['joint', 'per-item'];
      total += modes.length * pictures.length * 2;
      for (const m of modes) {
        const judge = createJudge({
          client: opts.judge,
          mode: m,
          cache: null,
          ...(opts.judging?.scoring ? { scoring: opts.judging.scoring } : {}),
        });
        const rows = await Promise.all(
          pictures.map((p, i) => {
            const rand = seededRandom((seed * 7919 + i) ^ 0x2545f491);
            const shuffle = (n: number) => shuffled([...Array(n).keys()], rand);
            return limit(async () => {
              const rollout = {
                id: p.id,
                prompt_id: p.prompt_id,
                prompt: p.prompt,
                completion: p.completion,
              };
              const ctx: RewardContext = {
                rollout,
                prompt: p.prompt,
                inspection: p.inspection,
                rubric: (preset) => rubrics.find(preset, rollout),
                judge,
                blankPolicy: 'zero',
              };
              const preset = INSTANCE_PRESET[kind];
              const rubric = preset
                ? instanceRubric(ctx, preset)
                : { items: universalItems(), prompt: p.prompt };
              if (typeof rubric === 'string' || p.base === null) {
                done += 2;
                return { id: p.id, prompt_id: p.prompt_id, original: FAULT, shuffled: FAULT };
              }
              const idx = shuffle(rubric.items.length);
              const judgeWith = async (items: typeof rubric.items): Promise<Scoring> => {
                const r = await judgedRubricReward(kind, ctx, { items, prompt: rubric.prompt });
                const s = { reward: r.reward, status: r.status, reason: r.reason };
                tally(faults, s);
                opts.onProgress?.(++done, total);
                return s;
              };
              const original = await judgeWith(rubric.items);
              const moved = await judgeWith(idx.map((k) => rubric.items[k]!));
              return { id: p.id, prompt_id: p.prompt_id, original, shuffled: moved };
            });
          }),
        );
        results.push(orderResult(orderSpec(m), rows, tol, th));
      }
    }

    // 4. Anchors: each rubric's ideal drawing, a blank page of its size, and the next prompt's ideal.
    const ideals = new Map<string, { prompt: string; svg: string }>();
    const preset = INSTANCE_PRESET[kind] ?? null;
    for (const r of opts.rubrics ?? []) {
      if (!r.kept || !r.ideal_svg || (preset && r.preset !== preset)) continue;
      if (!ideals.has(r.id)) ideals.set(r.id, { prompt: r.prompt, svg: r.ideal_svg });
    }
    const ids = [...ideals.keys()];
    total += ids.length * 3;
    const anchorRows = await Promise.all(
      ids.map((id, i) =>
        limit(async () => {
          const { prompt, svg } = ideals.get(id)!;
          const one = async (suffix: string, code: string) =>
            toScoring(
              (
                await score({
                  id: `${id}~anchor.${suffix}`,
                  prompt_id: id,
                  prompt,
                  completion: `\`\`\`svg\n${code}\n\`\`\``,
                })
              ).record,
            );
          const otherId = ids.length > 1 ? ids[(i + 1) % ids.length]! : null;
          return {
            prompt_id: id,
            ideal: await one('ideal', svg),
            blank: await one(
              'blank',
              blankPage(svg, { prompt, seed }) ?? '<svg xmlns="http://www.w3.org/2000/svg"/>',
            ),
            offPrompt: otherId ? await one('off_prompt', ideals.get(otherId)!.svg) : null,
          };
        }),
      ),
    );
    results.push(anchorsResult(ANCHORS, anchorRows, th));

    const judgingModes =
      (opts.modePairs ?? 16) > 0 && kind !== 'hybrid'
        ? await compareJudgingModes(opts, pictures, repeats, limit, opts.modePairs ?? 16)
        : undefined;

    const gated = results.filter(
      (r) => r.family === 'hack' || r.family === 'sensitivity' || r.family === 'attack',
    );
    const verdict = results.some((r) => r.verdict === 'fail')
      ? 'fail'
      : pictures.length === 0 ||
          gated.some(
            (r) => (r.verdict === 'no_data' && r.faults > 0) || r.verdict === 'not_testable',
          )
        ? 'incomplete'
        : 'pass';
    return {
      schema: PROBE_SCHEMA,
      created_at: new Date().toISOString(),
      verdict,
      judge: opts.judge.spec.id,
      reward: kind,
      mode,
      repeats,
      seed,
      pictures: { rollouts: opts.rollouts.length, used: pictures.length, skipped },
      tolerance: tol,
      thresholds: th,
      grader_faults: faults,
      probes: results,
      ...(judgingModes ? { judging_modes: judgingModes } : {}),
      examples: await examples.build(),
      elapsed_ms: Math.round(performance.now() - t0),
    };
  } finally {
    await scorer.close();
  }
}

/**
 * 5. Judging modes (issue 37): the pictures again under greedy and under expected scoring
 * (`repeats` times each, one after another so no two calls are shared), and pairs of one
 * prompt's pictures shown in both orders to the pairwise judge.
 */
async function compareJudgingModes(
  opts: ProbeOptions,
  pictures: readonly Picture[],
  repeats: number,
  limit: ReturnType<typeof pLimit>,
  maxPairs: number,
): Promise<JudgingModeFigures[]> {
  const out: JudgingModeFigures[] = [];
  const measured = pictures.filter((p) => p.base !== null);
  for (const scoring of ['greedy', 'expected'] as const) {
    const scorer = await createRolloutScorer({
      rubrics: opts.rubrics ?? [],
      judge: opts.judge,
      renderer: opts.renderer,
      inspect: inspectCompletion,
      cache: false,
      reward: opts.reward,
      mode: opts.mode ?? 'joint',
      judging: { ...opts.judging, scoring, judging: 'absolute' },
      ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
      concurrency: opts.concurrency ?? 8,
    });
    try {
      const runs = await Promise.all(
        measured.map((p) =>
          limit(async () => {
            const input = {
              id: p.id,
              prompt_id: p.prompt_id,
              prompt: p.prompt,
              completion: p.completion,
            };
            const recs: ScoreRecord[] = [];
            for (let i = 0; i < repeats; i++) recs.push((await scorer.scoreRollout(input)).record);
            return recs;
          }),
        ),
      );
      out.push(absoluteFigures(`absolute-${scoring}`, runs));
    } finally {
      await scorer.close();
    }
  }
  const judge = createPairwiseJudge({ client: opts.judge, cache: null });
  const withPng = measured.filter((p) => p.context && p.inspection.render?.ok);
  const pairs = pairsWithinPrompts(withPng, maxPairs);
  const answers = await Promise.all(
    pairs.map(([a, b]) =>
      limit(async (): Promise<PairAnswers> => {
        const pa = a.inspection.render!.ok ? a.inspection.render!.png : Buffer.alloc(0);
        const pb = b.inspection.render!.ok ? b.inspection.render!.png : Buffer.alloc(0);
        const ctx = a.context!;
        const ask = (first: Buffer, second: Buffer) =>
          judge.compare({
            prompt: ctx.prompt,
            criteria: ctx.criteria,
            first,
            second,
            assets: ctx.assets,
          });
        return { ab: await ask(pa, pb), ba: await ask(pb, pa) };
      }),
    ),
  );
  out.push(pairwiseFigures(answers));
  // Group judging: up to 8 pictures of one prompt in one call, forward and reversed.
  const groupJudge = createGroupJudge({
    client: opts.judge,
    cache: null,
    scoring: opts.judging?.scoring ?? 'auto',
  });
  const groups = groupsWithinPrompts(
    withPng.filter((p) => p.context?.items?.length),
    GROUP_CHUNK_MAX,
    Math.max(1, Math.ceil(maxPairs / 4)),
  );
  const groupAnswers = await Promise.all(
    groups.map((members) =>
      limit(async (): Promise<GroupOrderAnswers> => {
        const pngs = members.map((p) =>
          p.inspection.render!.ok ? p.inspection.render!.png : Buffer.alloc(0),
        );
        const ctx = members[0]!.context!;
        const items = ctx.items!;
        const ask = (pictures: Buffer[]) =>
          groupJudge.rate({ prompt: ctx.prompt, items, pictures, assets: ctx.assets });
        return {
          forward: await ask(pngs),
          reversed: await ask([...pngs].reverse()),
          score: (e) =>
            weightedReward(items.map((it) => ({ ...it, score: e.scores[it.key]?.score ?? 0 }))) ??
            0,
        };
      }),
    ),
  );
  out.push(groupFigures(groupAnswers));
  return out;
}
