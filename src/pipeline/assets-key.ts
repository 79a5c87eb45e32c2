// A rollout's task data in its graders' cache keys (issue 23): the judges the scorer shares
// across rollouts, seen through a view that adds the rollout's assets hash to every request.
// Two tasks with the same prompt and picture but different data files then never share a
// judged answer; a rollout without assets uses the shared judges unchanged (same keys as before).
import type { Judge } from '../judge/judge.ts';
import type { PrismaJudge } from '../judge/prisma-judges.ts';
import type { PrismaGraders } from '../reward/kinds/context.ts';

/** `judge` with `assets` (a content hash) on every request; itself when there is no hash. */
export function judgeWithAssets(judge: Judge | null, assets: string | null): Judge | null {
  if (!judge || !assets) return judge;
  return {
    mode: judge.mode,
    modelId: judge.modelId,
    promptVersion: judge.promptVersion,
    ...(judge.scoring ? { scoring: judge.scoring } : {}),
    judge: (req) => judge.judge({ ...req, assets }),
  };
}

function prismaJudgeWithAssets(j: PrismaJudge, assets: string): PrismaJudge {
  return {
    modelId: j.modelId,
    mode: j.mode,
    judgeRubric: (req) => j.judgeRubric({ ...req, assets }),
    judgeDirect: (req) => j.judgeDirect({ ...req, assets }),
  };
}

/** The PrismaForge graders with `assets` on every request; themselves when there is no hash. */
export function prismaWithAssets(
  g: PrismaGraders | undefined,
  assets: string | null,
): PrismaGraders | undefined {
  if (!g || !assets) return g;
  return {
    ...g,
    codeJudge: prismaJudgeWithAssets(g.codeJudge, assets),
    visionJudge: prismaJudgeWithAssets(g.visionJudge, assets),
  };
}
