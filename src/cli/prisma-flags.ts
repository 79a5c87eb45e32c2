// The PrismaForge flags of `score` (--code-judge, --prisma-lambdas) and the prisma lines of
// --rubrics, checked before any model call: a rubrics file with no kept prisma rubric would
// give every rollout `no_rubric`, silently.
import { readFileSync } from 'node:fs';
import type { RewardKind } from '../core/record.ts';
import { createModelClient, type ModelClientOptions } from '../models/client.ts';
import { DEFAULT_FAMILY_LAMBDAS, LambdaError, parseLambdaOverrides } from '../reward/families.ts';
import { parsePrismaRubrics } from '../rubric/prisma-load.ts';
import { asUsage } from './flags.ts';
import { UsageError } from './usage-error.ts';

export function prismaFromFlags(
  flags: { rubrics?: string; codeJudge?: string; prismaLambdas?: string },
  rewards: readonly RewardKind[],
  clientOptions: Omit<ModelClientOptions, 'role'>,
) {
  let lambdas = DEFAULT_FAMILY_LAMBDAS;
  if (flags.prismaLambdas !== undefined) {
    try {
      lambdas = parseLambdaOverrides(flags.prismaLambdas);
    } catch (err) {
      if (err instanceof LambdaError) throw new UsageError(`--prisma-lambdas: ${err.message}`);
      throw err;
    }
  }
  const codeJudge = flags.codeJudge
    ? asUsage(() => createModelClient(flags.codeJudge!, { ...clientOptions, role: 'judge' }))
    : undefined;
  if (!rewards.includes('prisma') || !flags.rubrics)
    return { lambdas, codeJudge, rubrics: undefined };
  const { rubrics, errors } = parsePrismaRubrics(readFileSync(flags.rubrics, 'utf8'));
  for (const e of errors) {
    process.stderr.write(`rubrica: ${flags.rubrics}:${e.line}: ${e.message} (line ignored)\n`);
  }
  if (!rubrics.some((r) => r.kept)) {
    throw new UsageError(
      `--rubrics ${flags.rubrics} has no kept prisma rubric, but --reward prisma needs them: every rollout would be no_rubric. ` +
        'Write them with: rubrica rubric synth --preset prisma',
    );
  }
  return { lambdas, codeJudge, rubrics };
}
