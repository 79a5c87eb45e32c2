// One curation run's collaborators, opened together and closed together: the answer cache,
// a render pool, PrismaForge's code and vision judges, the rubric source (a prisma rubrics
// file, else the author) and the generator, wired into gateCandidate. `rubrica curate` feeds
// candidates to `gate` one by one through its resumable JSONL runner.

import { lazyDomainRenderers } from '../domains/lazy.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import { createPrismaJudge } from '../judge/prisma-judges.ts';
import { DEFAULT_STRATEGY, type ScoringMode } from '../judge/strategy.ts';
import type { ModelClient } from '../models/types.ts';
import type { JudgeMode } from '../pipeline/types.ts';
import { createRenderPool } from '../render/pool.ts';
import type { FamilyTable } from '../reward/families.ts';
import { indexPrismaRubrics } from '../rubric/prisma-load.ts';
import { openAnswerCache } from '../store/open-cache.ts';
import { createPrismaSynthesizer, prismaAuthorVersion } from '../synth/prisma.ts';
import { type Candidate, type Decision, type GateConfig, gateCandidate } from './curate.ts';
import { createCurateDeps } from './curate-deps.ts';

export interface CurationRunOptions {
  /** The VLM of the vision rubric (and the holistic term). */
  judge: ModelClient;
  /** The LLM that reads the code. Default: the judge. */
  codeJudge?: ModelClient;
  /** Writes the rubric of an instruction `rubrics` lacks (none: such candidates get no rubric). */
  author?: ModelClient;
  /** Re-synthesises mid-band samples (needed when `gate.rounds` > 0). */
  generator?: ModelClient;
  /** A prisma rubrics file, matched by candidate id or instruction. */
  rubrics?: string;
  gate: GateConfig;
  mode: JudgeMode;
  /** How rubric verdicts are read (`--judge-scoring`; default auto, src/judge/strategy.ts). */
  scoring?: ScoringMode;
  lambdas: FamilyTable;
  /** The answer cache file, or false. */
  cache: string | false;
}

export interface CurationRun {
  /** Gates one candidate: kept, recovered, discarded or a grader fault, with its rounds. */
  gate(candidate: Candidate): Promise<Decision>;
  close(): Promise<void>;
}

/** A decision that is a grader fault (redone on the next run), by reason; else null. */
export function decisionFault(d: { decision?: unknown; reason?: unknown }): string | null {
  return d.decision === 'grader_error' ? String(d.reason ?? 'grader_error') : null;
}

export function openCurationRun(o: CurationRunOptions): CurationRun {
  const codeJudge = o.codeJudge ?? o.judge;
  const rubrics = o.rubrics ? indexPrismaRubrics(o.rubrics) : undefined;
  const cache = o.cache === false ? null : openAnswerCache(o.cache);
  const renderer = createRenderPool();
  // One warm sandbox per domain met, started on first use and shared by every unit.
  const domains = lazyDomainRenderers({ svgRenderer: renderer });
  const deps = createCurateDeps({
    rubrics,
    synthesizer: o.author ? createPrismaSynthesizer({ author: o.author, cache }) : undefined,
    graders: {
      codeJudge: createPrismaJudge({ client: codeJudge, mode: o.mode, cache, scoring: o.scoring }),
      visionJudge: createPrismaJudge({ client: o.judge, mode: o.mode, cache, scoring: o.scoring }),
      lambdas: o.lambdas,
    },
    generator: o.generator,
    renderer,
    domains,
    inspect: inspectCompletion,
    cache,
    // What a cached unit's decision depends on: a change here decides the candidate anew.
    identity: [
      o.judge.spec.id,
      codeJudge.spec.id,
      o.author?.spec.id ?? 'none',
      o.generator?.spec.id ?? 'none',
      o.mode,
      ...((o.scoring ?? DEFAULT_STRATEGY.scoring) === 'greedy'
        ? []
        : [`scoring:${o.scoring ?? DEFAULT_STRATEGY.scoring}`]),
      prismaAuthorVersion(),
      JSON.stringify(o.lambdas),
    ],
  });
  return {
    gate: (c) => gateCandidate(c, o.gate, deps),
    async close() {
      await cache?.close();
      await domains.close();
      await renderer.close();
    },
  };
}
