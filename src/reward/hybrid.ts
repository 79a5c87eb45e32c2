// Reason-SVG's hybrid reward: R = λt·R_think + λr·R_render + λs·R_semantic + λa·R_aesthetic,
// defaults 0.1 / 0.1 / 0.6 / 0.2, divided by Σλ (= 1 with the defaults) so overrides and
// ablations (a λ set to 0) stay on the same 0–1 scale. Every term is reported per rollout
// as a criterion, like RULER's items. Decisions where the paper is vague (docs/reason-svg.md):
//  - R_think is a structure proxy: "graded" (default) = the longest run of DwT stages found in
//    canonical order ÷ 6 (so a valid DwT scores 1), counted only when the reasoning comes before
//    the SVG; "binary" = 1 for a structurally valid DwT, else 0.
//  - R_render = 1 when the SVG rendered, else 0. Unrenderable → both image terms 0, status
//    `unscoreable` with the artifact/render reason; R keeps λt·R_think, as the paper's sum does.
//  - Image terms use the scorer's raw value unless the scorer declares a range (LAION 1–10 →
//    (a−1)/9, clamped); CLIP cosine is used as is (no ×100, no clamp).
//  - A scorer failure gives status `unscoreable`, reason `scorer_error`, reward 0 — a broken
//    scorer is never mistaken for a bad drawing.
import { DWT_STAGES, type DwtReport } from '../artifact/types.ts';
import type { CriterionScore } from '../core/criteria.ts';
import type { ScoreRecord } from '../core/record.ts';
import { emptyUsage } from '../core/usage.ts';
import type { Inspection } from '../pipeline/types.ts';
import type { ImageScorer, ScorerResult } from '../scorers/types.ts';

export interface HybridLambdas {
  think: number;
  render: number;
  semantic: number;
  aesthetic: number;
}

export const DEFAULT_HYBRID_LAMBDAS: Readonly<HybridLambdas> = Object.freeze({
  think: 0.1,
  render: 0.1,
  semantic: 0.6,
  aesthetic: 0.2,
});

export type ThinkMode = 'graded' | 'binary';

export interface HybridConfig {
  /** Scores image–prompt alignment (CLIP cosine in the paper). Needed when λs > 0. */
  semantic?: ImageScorer;
  /** Scores visual appeal (HPSv2 in the paper; LAION aesthetic in-process). Needed when λa > 0. */
  aesthetic?: ImageScorer;
  lambdas?: Partial<HybridLambdas>;
  think?: ThinkMode;
}

export interface HybridItem {
  id: string;
  prompt_id?: string | null;
  prompt?: string | null;
  inspection: Inspection;
}

const STAGE_COUNT = 6;

export function resolveLambdas(partial?: Partial<HybridLambdas>): HybridLambdas {
  return { ...DEFAULT_HYBRID_LAMBDAS, ...partial };
}

/** A readable problem with the configuration, or null when it can score. */
export function checkHybridConfig(config: HybridConfig): string | null {
  const l = resolveLambdas(config.lambdas);
  for (const [k, v] of Object.entries(l)) {
    if (!Number.isFinite(v) || v < 0) return `lambda ${k} must be a number ≥ 0, not ${v}`;
  }
  if (l.think + l.render + l.semantic + l.aesthetic <= 0) return 'at least one lambda must be > 0';
  if (l.semantic > 0 && !config.semantic)
    return 'the semantic term needs a scorer (--clip-model DIR or --scorer-url URL), or --lambda-semantic 0';
  if (l.aesthetic > 0 && !config.aesthetic)
    return 'the aesthetic term needs a scorer (--aesthetic-weights FILE with --clip-model, or --scorer-url URL), or --lambda-aesthetic 0';
  return null;
}

/** Length of the longest strictly increasing run (subsequence) of canonical stage indices. */
function orderedStageCount(stages: readonly string[]): number {
  const canonical: readonly string[] = DWT_STAGES;
  const idx = stages.map((s) => canonical.indexOf(s)).filter((i) => i >= 0);
  const best: number[] = [];
  for (const i of idx) {
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (best[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    best[lo] = i;
  }
  return best.length;
}

export function thinkTerm(
  dwt: DwtReport,
  hasSvg: boolean,
  mode: ThinkMode = 'graded',
): { score: number; rationale: string } {
  if (dwt.valid)
    return {
      score: 1,
      rationale: 'structurally valid DwT: all six stages, in order, before the SVG',
    };
  if (mode === 'binary')
    return {
      score: 0,
      rationale: `not a valid DwT (${dwt.stages.length}/6 stages found${dwt.ordered ? '' : ', out of order'})`,
    };
  if (hasSvg && !dwt.beforeSvg && dwt.stages.length > 0)
    return {
      score: 0,
      rationale: 'DwT stages appear only after the SVG (planning must come first)',
    };
  const n = orderedStageCount(dwt.stages);
  return { score: n / STAGE_COUNT, rationale: `${n}/6 DwT stages in canonical order` };
}

function normalise(scorer: ImageScorer, value: number): number {
  if (!scorer.range) return value;
  const [lo, hi] = scorer.range;
  return Math.min(1, Math.max(0, (value - lo) / (hi - lo)));
}

function fmt(x: number): string {
  return Number(x.toFixed(4)).toString();
}

async function runScorer(
  scorer: ImageScorer | undefined,
  on: boolean,
  pngs: Buffer[],
  prompts: string[],
  signal?: AbortSignal,
): Promise<ScorerResult[] | null> {
  if (!on || !scorer || pngs.length === 0) return null;
  try {
    return await scorer.score(pngs, prompts, signal);
  } catch (err) {
    // The interface promises values, but a broken custom scorer must still not crash a batch.
    return pngs.map(() => ({
      ok: false,
      error: { code: 'inference', message: (err as Error).message },
    }));
  }
}

/**
 * Scores inspected rollouts with the hybrid reward; one ScoreRecord per item, in order.
 * Throws only for a configuration that cannot score (see checkHybridConfig).
 */
export async function scoreHybrid(
  items: HybridItem[],
  config: HybridConfig,
  signal?: AbortSignal,
): Promise<ScoreRecord[]> {
  const problem = checkHybridConfig(config);
  if (problem) throw new Error(problem);
  const l = resolveLambdas(config.lambdas);
  const total = l.think + l.render + l.semantic + l.aesthetic;

  // Only rendered items with a prompt reach the image scorers.
  const scorable = items
    .map((it, i) => ({ it, i }))
    .filter(({ it }) => it.inspection.render?.ok === true && (it.prompt ?? '').trim() !== '');
  const pngs = scorable.map(({ it }) => (it.inspection.render as { png: Buffer }).png);
  const prompts = scorable.map(({ it }) => it.prompt!.trim());
  const [sem, aes] = await Promise.all([
    runScorer(config.semantic, l.semantic > 0, pngs, prompts, signal),
    runScorer(config.aesthetic, l.aesthetic > 0, pngs, prompts, signal),
  ]);
  const slot = new Map(scorable.map(({ i }, k) => [i, k]));

  return items.map((it, i): ScoreRecord => {
    const { inspection } = it;
    const rendered = inspection.render?.ok === true;
    const think = thinkTerm(inspection.artifact.dwt, inspection.artifact.found, config.think);
    const criteria: CriterionScore[] = [
      {
        key: 'think',
        axis: 'reasoning',
        weight: l.think,
        score: think.score,
        rationale: think.rationale,
        source: 'check',
      },
      {
        key: 'render',
        axis: 'validity',
        weight: l.render,
        score: rendered ? 1 : 0,
        rationale: rendered ? 'the SVG rendered' : `no picture: ${failureMessage(inspection)}`,
        source: 'check',
      },
    ];
    const base = {
      id: it.id,
      prompt_id: it.prompt_id ?? null,
      reward_kind: 'hybrid',
      checks: inspection.summary,
      cached: false,
      usage: emptyUsage(),
      render_ms: inspection.render ? inspection.render.ms : null,
    };
    if (!rendered) {
      for (const key of ['semantic', 'aesthetic'] as const) {
        criteria.push({
          key,
          axis: key,
          weight: l[key],
          score: 0,
          rationale: 'not rendered: image term is 0',
          source: 'scorer',
        });
      }
      const reason =
        inspection.artifact.error?.code ??
        (inspection.render && !inspection.render.ok ? inspection.render.error.code : 'no_svg');
      return {
        ...base,
        reward: (l.think * think.score) / total,
        status: 'unscoreable',
        reason,
        message: failureMessage(inspection),
        criteria,
      };
    }
    const k = slot.get(i);
    const errors: string[] = [];
    let sum = l.think * think.score + l.render * 1;
    for (const [key, scorer, results] of [
      ['semantic', config.semantic, sem],
      ['aesthetic', config.aesthetic, aes],
    ] as const) {
      if (l[key] === 0 || !scorer) {
        criteria.push({
          key,
          axis: key,
          weight: l[key],
          score: null,
          rationale: 'term switched off (λ = 0)',
          source: 'scorer',
        });
        continue;
      }
      const r = k === undefined ? undefined : results?.[k];
      if (!r?.ok) {
        const why =
          k === undefined
            ? 'no prompt text to score against'
            : r
              ? `${r.error.code}: ${r.error.message}`
              : 'no result';
        errors.push(`${scorer.name}: ${why}`);
        criteria.push({
          key,
          axis: key,
          weight: l[key],
          score: null,
          rationale: `${scorer.name} failed (${why})`,
          source: 'scorer',
        });
        continue;
      }
      const s = normalise(scorer, r.value);
      sum += l[key] * s;
      const how = scorer.range ? ` on ${scorer.range[0]}–${scorer.range[1]} → ${fmt(s)}` : '';
      criteria.push({
        key,
        axis: key,
        weight: l[key],
        score: s,
        rationale: `${scorer.name} ${fmt(r.value)}${how}`,
        source: 'scorer',
      });
    }
    if (errors.length > 0) {
      return {
        ...base,
        reward: 0,
        status: 'unscoreable',
        reason: 'scorer_error',
        message: errors.join('; '),
        criteria,
      };
    }
    return { ...base, reward: sum / total, status: 'ok', criteria };
  });
}

function failureMessage(inspection: Inspection): string {
  if (inspection.artifact.error)
    return `${inspection.artifact.error.code}: ${inspection.artifact.error.message}`;
  if (inspection.render && !inspection.render.ok)
    return `${inspection.render.error.code}: ${inspection.render.error.message}`;
  return 'no SVG in the completion';
}

/** The per-rollout shape createRolloutScorer's `hybrid` option calls (src/pipeline/score.ts). */
export interface HybridRewarderContext {
  rollout: { id: string; prompt_id?: string | null; prompt?: string | null };
  prompt: string | null;
  inspection: Inspection;
  signal?: AbortSignal;
}

export interface HybridRewarderOptions {
  /** Rollouts gathered into one scorer call; default 16. */
  maxBatch?: number;
  /** How long the first waiting rollout waits for company, ms; default 10. */
  windowMs?: number;
  /** Called by close(): e.g. to free the CLIP sessions. */
  onClose?: () => Promise<void>;
}

/**
 * Adapts the batch hybrid reward to createRolloutScorer's per-rollout `hybrid` seam. Rollouts
 * arriving within a few milliseconds of each other are scored in one batch, so CLIP runs one
 * forward pass for many pictures instead of one each.
 */
export function createHybridRewarder(config: HybridConfig, opts: HybridRewarderOptions = {}) {
  const problem = checkHybridConfig(config);
  if (problem) throw new Error(problem);
  const maxBatch = Math.max(1, opts.maxBatch ?? 16);
  const windowMs = opts.windowMs ?? 10;
  type Waiting = {
    item: HybridItem;
    resolve: (r: ScoreRecord) => void;
    reject: (e: unknown) => void;
  };
  let queue: Waiting[] = [];
  let timer: NodeJS.Timeout | null = null;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    scoreHybrid(
      batch.map((w) => w.item),
      config,
    ).then(
      (records) => {
        for (const [i, w] of batch.entries()) w.resolve(records[i]!);
      },
      (err) => {
        for (const w of batch) w.reject(err);
      },
    );
  };

  return {
    async score(ctx: HybridRewarderContext) {
      const item: HybridItem = {
        id: ctx.rollout.id,
        prompt_id: ctx.rollout.prompt_id ?? null,
        prompt: ctx.prompt ?? ctx.rollout.prompt ?? null,
        inspection: ctx.inspection,
      };
      const rec = await new Promise<ScoreRecord>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (queue.length >= maxBatch) flush();
        else if (!timer) timer = setTimeout(flush, windowMs);
      });
      return {
        reward: rec.reward,
        status: rec.status,
        ...(rec.reason ? { reason: rec.reason } : {}),
        ...(rec.message ? { message: rec.message } : {}),
        criteria: rec.criteria,
        usage: rec.usage,
        cached: false,
      };
    },
    async close() {
      flush();
      await Promise.allSettled([config.semantic?.close?.(), config.aesthetic?.close?.()]);
      await opts.onClose?.();
    },
  };
}
