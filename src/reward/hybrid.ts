// Reason-SVG's hybrid reward as a criterion tree: R = λt·R_think + λr·R_render + λs·R_semantic
// + λa·R_aesthetic (defaults 0.1 / 0.1 / 0.6 / 0.2), the λ being the leaves' weights, so the
// tree's rule (Σ w·v / Σ w) keeps overrides and ablations on the 0–1 scale. Think and render
// are check leaves, semantic and aesthetic scorer leaves. Decisions (docs/reason-svg.md):
//  - The render term *measures* rendering, so a rollout that did not render is scored (`ok`):
//    R_render = 0, both image terms 0, and R keeps λt·R_think, as the paper's sum does. The
//    record's checks still say renders: false.
//  - Image terms use the scorer's raw value unless the scorer declares a range (LAION 1–10 →
//    (a−1)/9, clamped); CLIP cosine is used as is.
//  - A scorer that fails leaves its term unscored: `grader_error: scorer_error`, never a 0.
//  - A λ of 0 switches its term off (the leaf is kept, with weight 0 and no score).
//  - No prompt text for the image scorers: `unscoreable: no_rubric`.

import type { CriterionLeaf } from '../core/criteria.ts';
import { RubricaError } from '../core/errors.ts';
import type { RewardResult } from '../core/record.ts';
import type { Inspection } from '../inspect/types.ts';
import { createScoreBatcher, type ScoreBatcher } from '../scorers/batcher.ts';
import type { ImageScorer, ScorerResult } from '../scorers/types.ts';
import { treeResult } from './result.ts';
import { type ThinkMode, thinkTerm } from './think.ts';
import { group, leaf } from './tree.ts';

export { type ThinkMode, thinkTerm } from './think.ts';

/** The weights of Reason-SVG's hybrid reward: think, render, semantic, aesthetic. */
export interface HybridLambdas {
  think: number;
  render: number;
  semantic: number;
  aesthetic: number;
}

/** Reason-SVG's hybrid weights (λt 0.1, λr 0.1, λs 0.6, λa 0.2). */
export const DEFAULT_HYBRID_LAMBDAS: Readonly<HybridLambdas> = Object.freeze({
  think: 0.1,
  render: 0.1,
  semantic: 0.6,
  aesthetic: 0.2,
});

/** The hybrid reward's image scorers (semantic, aesthetic), weights and think mode. */
export interface HybridConfig {
  /** Scores image–prompt alignment (CLIP cosine in the paper). Needed when λs > 0. */
  semantic?: ImageScorer;
  /** Scores visual appeal (HPSv2 in the paper; LAION aesthetic in-process). Needed when λa > 0. */
  aesthetic?: ImageScorer;
  lambdas?: Partial<HybridLambdas>;
  think?: ThinkMode;
}

/** The default hybrid weights with `partial`'s overrides applied. */
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

type ImageKey = 'semantic' | 'aesthetic';
/** An image term's scorer result: a value, a failure, or why it was not asked. */
export type ImageTerm = ScorerResult | { skipped: 'not_rendered' | 'off' | 'no_prompt' };

const fmt = (x: number) => Number(x.toFixed(4)).toString();

function imageLeaf(
  key: ImageKey,
  weight: number,
  scorer: ImageScorer | undefined,
  term: ImageTerm,
): CriterionLeaf {
  const base = { key, axis: key, weight, source: 'scorer' as const };
  if ('skipped' in term) {
    if (term.skipped === 'not_rendered')
      return leaf({ ...base, score: 0, rationale: 'not rendered: image term is 0' });
    if (term.skipped === 'off')
      return leaf({ ...base, score: null, rationale: 'term switched off (λ = 0)' });
    return leaf({
      ...base,
      score: null,
      reason: 'no_rubric',
      rationale: 'no prompt text to score against',
    });
  }
  const name = scorer?.name ?? key;
  if (!term.ok) {
    const why = `${term.error.code}: ${term.error.message}`;
    return leaf({
      ...base,
      score: null,
      reason: 'scorer_error',
      rationale: `${name} failed (${why})`,
    });
  }
  let s = term.value;
  let how = '';
  if (scorer?.range) {
    const [lo, hi] = scorer.range;
    s = Math.min(1, Math.max(0, (term.value - lo) / (hi - lo)));
    how = ` on ${lo}–${hi} → ${fmt(s)}`;
  }
  return leaf({ ...base, score: s, rationale: `${name} ${fmt(term.value)}${how}` });
}

/** The hybrid tree of one inspected rollout, given its image terms' results. */
export function hybridResult(
  inspection: Inspection,
  config: HybridConfig,
  terms: Record<ImageKey, ImageTerm>,
): RewardResult {
  const l = resolveLambdas(config.lambdas);
  const rendered = inspection.render?.ok === true;
  const think = thinkTerm(inspection.artifact.dwt, inspection.artifact.found, config.think);
  const tree = group('hybrid', 1, [
    leaf({
      key: 'think',
      axis: 'reasoning',
      weight: l.think,
      score: think.score,
      rationale: think.rationale,
      source: 'check',
    }),
    leaf({
      key: 'render',
      axis: 'validity',
      weight: l.render,
      score: rendered ? 1 : 0,
      rationale: rendered
        ? `the ${inspection.artifact.domain && inspection.artifact.domain !== 'svg' ? `${inspection.artifact.domain} code` : 'SVG'} rendered`
        : `no picture: ${failureMessage(inspection)}`,
      source: 'check',
    }),
    imageLeaf('semantic', l.semantic, config.semantic, terms.semantic),
    imageLeaf('aesthetic', l.aesthetic, config.aesthetic, terms.aesthetic),
  ]);
  return treeResult('hybrid', tree);
}

function failureMessage(inspection: Inspection): string {
  if (inspection.artifact.error)
    return `${inspection.artifact.error.code}: ${inspection.artifact.error.message}`;
  if (inspection.render && !inspection.render.ok)
    return `${inspection.render.error.code}: ${inspection.render.error.message}`;
  return 'no SVG in the completion';
}

/** How rollouts are batched into one scorer call, and what close() also frees. */
export interface HybridRewarderOptions {
  /** Rollouts gathered into one scorer call; default 16. */
  maxBatch?: number;
  /** How long the first waiting rollout waits for company, ms; default 10. */
  windowMs?: number;
  /** Called by close(): e.g. to free the CLIP sessions. */
  onClose?: () => Promise<void>;
}

/** The hybrid reward bound to its scorers; close it to free them. */
export interface HybridRewarder {
  readonly config: HybridConfig;
  /** The hybrid verdict on one inspected rollout (image scorers batched across rollouts). */
  score(inspection: Inspection, prompt: string | null, signal?: AbortSignal): Promise<RewardResult>;
  close(): Promise<void>;
}

/**
 * The hybrid reward for the scoring pipeline. Rollouts arriving within a few milliseconds of
 * each other share one scorer call per term, so CLIP runs one forward pass for many pictures.
 * Throws only for a configuration that cannot score (see checkHybridConfig).
 * @example
 * ```ts
 * const semantic = createHttpScorer({ url: 'http://127.0.0.1:8000/clip' });
 * const hybrid = createHybridRewarder({ semantic, lambdas: { aesthetic: 0 } });
 * const r = await hybrid.score(inspection, 'a red apple');
 * await hybrid.close();
 * ```
 */
export function createHybridRewarder(
  config: HybridConfig,
  opts: HybridRewarderOptions = {},
): HybridRewarder {
  const problem = checkHybridConfig(config);
  if (problem) throw new RubricaError('bad_hybrid_config', problem);
  const l = resolveLambdas(config.lambdas);
  const batchers: Partial<Record<ImageKey, ScoreBatcher>> = {};
  for (const key of ['semantic', 'aesthetic'] as const) {
    const scorer = config[key];
    if (scorer && l[key] > 0) batchers[key] = createScoreBatcher(scorer, opts);
  }
  const term = async (
    key: ImageKey,
    ins: Inspection,
    prompt: string,
    signal?: AbortSignal,
  ): Promise<ImageTerm> => {
    const b = batchers[key];
    if (!b) return { skipped: 'off' };
    if (!ins.render?.ok) return { skipped: 'not_rendered' };
    if (!prompt) return { skipped: 'no_prompt' };
    return b.score(ins.render.png, prompt, signal);
  };
  return {
    config,
    async score(inspection, prompt, signal) {
      const text = (prompt ?? '').trim();
      const [semantic, aesthetic] = await Promise.all([
        term('semantic', inspection, text, signal),
        term('aesthetic', inspection, text, signal),
      ]);
      return hybridResult(inspection, config, { semantic, aesthetic });
    },
    async close() {
      for (const b of Object.values(batchers)) b.flush();
      await Promise.allSettled([config.semantic?.close?.(), config.aesthetic?.close?.()]);
      await opts.onClose?.();
    },
  };
}

/**
 * Scores inspected rollouts with the hybrid reward, one verdict per item, in order.
 * @example
 * ```ts
 * const config = { lambdas: { semantic: 0, aesthetic: 0 } }; // think and render terms only
 * const [r] = await scoreHybrid([{ inspection, prompt: 'a red apple' }], config);
 * ```
 */
export function scoreHybrid(
  items: { inspection: Inspection; prompt?: string | null }[],
  config: HybridConfig,
  signal?: AbortSignal,
): Promise<RewardResult[]> {
  const rewarder = createHybridRewarder(config, {
    maxBatch: Math.max(1, items.length),
    windowMs: 0,
  });
  // Not closed afterwards: the scorers belong to the caller.
  return Promise.all(items.map((it) => rewarder.score(it.inspection, it.prompt ?? null, signal)));
}
