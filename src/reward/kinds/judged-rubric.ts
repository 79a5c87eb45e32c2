// The judged rubric reward shared by RULER, universal and Rubric-S: a group of judge leaves,
// one per rubric item, weighed with the item weights (RULER 5,5,5,4,5,5; Rubric-S adds a −2
// text penalty). Rule-based zeros (no SVG, no render, blank) stop before the judge; a judge
// that fails leaves its items unscored, so the tree says `grader_error: judge_error`.
import type { CriterionLeaf } from '../../core/criteria.ts';
import type { RewardKind, RewardResult } from '../../core/record.ts';
import type { RubricItem } from '../../rubric/schema.ts';
import { pictureGate } from '../gates.ts';
import { reasonResult, treeResult } from '../result.ts';
import { group, leaf } from '../tree.ts';
import type { RewardContext } from './context.ts';

export interface JudgedRubric {
  items: RubricItem[];
  /** The prompt text the judge reads with the picture. */
  prompt: string;
}

export async function judgedRubricReward(
  kind: RewardKind,
  ctx: RewardContext,
  rubric: JudgedRubric | string,
): Promise<RewardResult> {
  if (typeof rubric === 'string') return reasonResult(kind, 'no_rubric', rubric);
  const gate = pictureGate(ctx.inspection, ctx.blankPolicy);
  if (gate) return reasonResult(kind, gate.reason, gate.message);
  const render = ctx.inspection.render;
  if (!render?.ok) return reasonResult(kind, 'render_error', 'nothing was rendered');
  if (!ctx.judge) return reasonResult(kind, 'infra_error', `reward ${kind} needs a judge model`);
  const items = ctx.dropAxis ? rubric.items.filter((i) => i.axis !== ctx.dropAxis) : rubric.items;
  const verdict = await ctx.judge.judge({
    prompt: rubric.prompt,
    items,
    png: render.png,
    signal: ctx.signal,
  });
  if (!verdict.ok) {
    const unscored = items.map(
      (it): CriterionLeaf =>
        leaf({
          key: it.key,
          axis: it.axis,
          weight: it.weight,
          score: null,
          source: 'judge',
          // The judge's own fault, or its cache's (a corrupted or unwritable cache file).
          reason: verdict.fault,
        }),
    );
    return treeResult(kind, group(kind, 1, unscored), {
      usage: verdict.usage,
      message: verdict.message,
    });
  }
  const leaves = verdict.criteria.map((c) => leaf({ ...c, source: c.source ?? 'judge' }));
  const result = treeResult(kind, group(kind, 1, leaves), {
    cached: verdict.cached,
    usage: verdict.usage,
    ...(ctx.intervalLevel !== undefined ? { intervalLevel: ctx.intervalLevel } : {}),
  });
  // Stand-in judges of older tests may not say how they read; real ones always do.
  if (verdict.scoring) result.scoring = verdict.scoring;
  if (verdict.provenance) result.provenance = verdict.provenance;
  return result;
}
