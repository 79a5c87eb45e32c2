// Direct judging, the holistic baseline PrismaForge compares its rubrics with: one overall
// score per sample from a judge that sees the instruction, the code and the picture. A
// reward kind of its own so the paper's rubric-vs-holistic comparisons (filtering quality,
// agreement with humans) run through `eval`, `compare` and `align` like any other reward.
import { artifactCode, artifactDomain } from '../../artifact/code.ts';
import type { RewardResult } from '../../core/record.ts';
import { pictureGate } from '../gates.ts';
import { reasonResult, treeResult } from '../result.ts';
import { group, leaf } from '../tree.ts';
import type { RewardContext } from './context.ts';

export async function directReward(ctx: RewardContext): Promise<RewardResult> {
  const gate = pictureGate(ctx.inspection, ctx.blankPolicy);
  if (gate) return reasonResult('direct', gate.reason, gate.message);
  const png = ctx.inspection.render?.ok ? ctx.inspection.render.png : null;
  // The answer's own code in its own domain (a matplotlib script, a Vega-Lite spec, …).
  const code = artifactCode(ctx.inspection.artifact);
  if (!png || !code) return reasonResult('direct', 'render_error', 'nothing was rendered');
  const rubric = ctx.prismaRubric?.();
  const prompt = ctx.prompt ?? rubric?.prompt ?? null;
  if (prompt === null) {
    return reasonResult(
      'direct',
      'no_rubric',
      'no instruction text to judge against (give "prompt")',
    );
  }
  if (!ctx.prisma)
    return reasonResult('direct', 'infra_error', 'reward direct needs a judge model');
  const out = await ctx.prisma.visionJudge.judgeDirect({
    prompt,
    domain: artifactDomain(ctx.inspection.artifact),
    code,
    png,
    signal: ctx.signal,
  });
  const only = leaf({
    key: 'overall',
    axis: 'holistic',
    weight: 1,
    score: out.ok ? out.value.f : null,
    source: 'judge',
    ...(out.ok ? { rationale: out.value.rationale } : { reason: out.fault }),
  });
  return treeResult('direct', group('direct', 1, [only]), {
    usage: out.usage,
    cached: out.cached,
    ...(out.ok ? {} : { message: out.message }),
  });
}
