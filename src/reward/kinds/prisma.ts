// PrismaForge's elastic rubric reward: the sample's code rubric judged by an LLM reading the
// code, its vision rubric judged by a VLM on the picture (and a holistic judgement when the
// task family's λh > 0), weighed on the criterion tree (src/reward/elastic.ts). Missing or
// malformed code, a render failure or an empty picture are rule-based zeros before any call;
// a judge that fails (after the client's retries) leaves its items unscored, so the tree
// says `grader_error` — never a measured 0.
import { artifactCode, artifactDomain } from '../../artifact/code.ts';
import type { CriterionLeaf } from '../../core/criteria.ts';
import type { RewardResult } from '../../core/record.ts';
import { addUsage, emptyUsage } from '../../core/usage.ts';
import type { Asked } from '../../judge/cached-ask.ts';
import type { ItemVerdict } from '../../judge/prisma-schema.ts';
import type { PrismaItem } from '../../rubric/prisma-schema.ts';
import { elasticTree, itemLeaf } from '../elastic.ts';
import { lambdasFor } from '../families.ts';
import { pictureGate } from '../gates.ts';
import { reasonResult, treeResult } from '../result.ts';
import type { RewardContext } from './context.ts';

function leaves(items: PrismaItem[], out: Asked<ItemVerdict[]> | null): CriterionLeaf[] {
  if (out === null) return [];
  if (!out.ok) return items.map((it) => itemLeaf(it, { key: it.key, f: null, reason: out.fault }));
  const byKey = new Map(out.value.map((v) => [v.key, v]));
  return items.map((it) => itemLeaf(it, byKey.get(it.key)));
}

export async function prismaReward(ctx: RewardContext): Promise<RewardResult> {
  const rubric = ctx.prismaRubric?.();
  if (!rubric) {
    const id = JSON.stringify(ctx.rollout.prompt_id ?? null);
    return reasonResult(
      'prisma',
      'no_rubric',
      `no kept prisma rubric for prompt_id ${id} or its prompt text`,
    );
  }
  const gate = pictureGate(ctx.inspection, ctx.blankPolicy);
  if (gate) return reasonResult('prisma', gate.reason, gate.message);
  const png = ctx.inspection.render?.ok ? ctx.inspection.render.png : null;
  // The answer's own code in its own domain (a matplotlib script, a Vega-Lite spec, …).
  const code = artifactCode(ctx.inspection.artifact);
  if (!png || !code) return reasonResult('prisma', 'render_error', 'nothing was rendered');
  const domain = artifactDomain(ctx.inspection.artifact);
  const graders = ctx.prisma;
  if (!graders) return reasonResult('prisma', 'infra_error', 'reward prisma needs a judge model');
  const l = lambdasFor(graders.lambdas, rubric.family);
  const base = { prompt: rubric.prompt, domain, code, signal: ctx.signal };
  const [c, v, h] = await Promise.all([
    l.code > 0
      ? graders.codeJudge.judgeRubric({ ...base, modality: 'code', items: rubric.code_items })
      : null,
    l.vision > 0
      ? graders.visionJudge.judgeRubric({
          ...base,
          modality: 'vision',
          items: rubric.vision_items,
          png,
        })
      : null,
    l.holistic > 0 ? graders.visionJudge.judgeDirect({ ...base, png }) : null,
  ]);
  const asked = [c, v, h].filter((x) => x !== null);
  const usage = asked.reduce((u, a) => addUsage(u, a.usage), emptyUsage());
  const holistic: CriterionLeaf | undefined =
    h === null
      ? undefined
      : {
          kind: 'leaf',
          key: 'holistic',
          axis: 'holistic',
          weight: l.holistic,
          score: h.ok ? h.value.f : null,
          source: 'judge',
          ...(h.ok ? { rationale: h.value.rationale } : { reason: h.fault }),
        };
  const tree = elasticTree(
    { code: leaves(rubric.code_items, c), vision: leaves(rubric.vision_items, v), holistic },
    l,
  );
  const failed = asked.find((a) => !a.ok);
  const result = treeResult('prisma', tree, {
    usage,
    cached: asked.length > 0 && asked.every((a) => a.cached),
    ...(failed && !failed.ok ? { message: failed.message } : {}),
    ...(ctx.intervalLevel !== undefined ? { intervalLevel: ctx.intervalLevel } : {}),
  });
  // Expected when every rubric verdict was read from its distribution (the holistic score,
  // on the 0.01 grid, is always as written), else greedy.
  const verdicts = [c, v].flatMap((a) => (a?.ok ? a.value : []));
  if (result.status === 'ok' && verdicts.length)
    result.scoring = verdicts.every((x) => x.distribution) ? 'expected' : 'greedy';
  return result;
}
