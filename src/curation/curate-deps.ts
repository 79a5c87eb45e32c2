// The real collaborators of a curation unit (curate.ts): rubrics from a file or synthesised
// by the author (once per instruction text in a run, cached across runs), the execution check
// (the render pipeline's inspection of the code), the elastic reward (the `prisma` reward
// kind, so curation and RL score samples the same way), and the generator that re-writes a
// borderline sample from its failing criteria.

import { type DomainId, isDomainId } from '../core/domain-ids.ts';
import { normalisePrompt } from '../core/group-key.ts';
import type { RewardResult } from '../core/record.ts';
import { emptyUsage } from '../core/usage.ts';
import { DOMAINS } from '../domains/registry.ts';
import type { DomainRenderers } from '../domains/renderers.ts';
import type { InspectFn, Inspection } from '../inspect/types.ts';
import type { ModelClient } from '../models/types.ts';
import type { Renderer } from '../render/types.ts';
import type { PrismaGraders } from '../reward/kinds/context.ts';
import { prismaReward } from '../reward/kinds/prisma.ts';
import type { PrismaRubricIndex } from '../rubric/prisma-load.ts';
import type { PrismaRubric } from '../rubric/prisma-schema.ts';
import { fillTemplate, loadPromptTemplate } from '../rubric/prompt-file.ts';
import type { AnswerCache } from '../store/cache.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';
import type { PrismaSynthesizer } from '../synth/prisma.ts';
import type { Candidate, FailingCriterion, GateDeps, RubricLookup } from './curate.ts';

/**
 * What `createCurateDeps` wires together: rubrics (a file index or an author), the PrismaForge
 * graders, an optional generator for re-synthesis, the renderer, the inspect step and the cache.
 */
export interface CurateDepsOptions {
  rubrics?: PrismaRubricIndex;
  synthesizer?: PrismaSynthesizer;
  graders: PrismaGraders;
  generator?: ModelClient;
  renderer: Renderer;
  /** Warm renderers of the other domains (python, vega-lite, html, …), kept for the run. */
  domains?: DomainRenderers;
  inspect: InspectFn;
  cache?: AnswerCache | null;
  identity: string[];
}

const REGENERATE = 'prisma/regenerate.md';

export function formatFailing(failing: FailingCriterion[]): string {
  if (!failing.length) return '- (none recorded; improve overall fidelity to the instruction)';
  return failing
    .map(
      (f) =>
        `- ${f.f.toFixed(2)}, [${f.group}] ${f.criterion} — ${f.rationale || 'no reason given'}`,
    )
    .join('\n');
}

/**
 * The real collaborators of gateCandidate: rubrics from `o.rubrics` or written by
 * `o.synthesizer` (once per instruction in a run, cached across runs), the render pipeline's
 * inspection as the execution check, the `prisma` reward kind as the score, and `o.generator`
 * to re-write a borderline sample from its failing criteria.
 * @example
 * ```ts
 * const judge = createPrismaJudge({ client });
 * const graders = { codeJudge: judge, visionJudge: judge, lambdas: DEFAULT_FAMILY_LAMBDAS };
 * const deps = createCurateDeps({
 *   synthesizer: createPrismaSynthesizer({ author: client }), graders, generator: client,
 *   renderer: pool, inspect: inspectCompletion, identity: ['run-1'],
 * });
 * ```
 */
export function createCurateDeps(o: CurateDepsOptions): GateDeps {
  const memo = new Map<string, Promise<RubricLookup>>();
  const cache = o.cache ?? null;

  const synthesize = (c: Candidate, signal?: AbortSignal): Promise<RubricLookup> => {
    const key = JSON.stringify([
      normalisePrompt(c.instruction),
      c.domain ?? 'svg',
      c.family ?? null,
    ]);
    let p = memo.get(key);
    if (!p) {
      p = o
        .synthesizer!.synthesize(
          { id: c.id, prompt: c.instruction, domain: c.domain, family: c.family },
          signal,
        )
        .then(
          (r): RubricLookup =>
            r.kept
              ? { ok: true, rubric: r, usage: r.usage }
              : {
                  ok: false,
                  fault: r.drop_reason === 'author_error',
                  message: `rubric ${r.drop_reason}: ${r.drop_message ?? ''}`,
                  usage: r.usage,
                },
        );
      memo.set(key, p);
      // A fault is not remembered: the next candidate with this instruction asks again.
      p.then((r) => {
        if (!r.ok && r.fault) memo.delete(key);
      });
      return p;
    }
    // Later candidates with the same instruction share the rubric; its cost was counted once.
    return p.then((r) => ({ ...r, usage: emptyUsage() }));
  };

  return {
    identity: o.identity,
    async rubricFor(c, signal) {
      const found = o.rubrics?.find({ prompt_id: c.id, prompt: c.instruction });
      if (found) return { ok: true, rubric: found, usage: emptyUsage() };
      if (!o.synthesizer)
        return {
          ok: false,
          fault: false,
          message: 'no prisma rubric for this instruction',
          usage: emptyUsage(),
        };
      return synthesize(c, signal);
    },
    // Executed in its own domain's sandbox: a matplotlib script in the python pool, a
    // Vega-Lite spec in the chart renderer, …; bare code is the answer as it stands.
    inspect: (code: string, domain: DomainId) =>
      o.inspect(code, {
        renderer: o.renderer,
        domain,
        ...(o.domains ? { domains: o.domains } : {}),
      }),
    score(rubric: PrismaRubric, ins: Inspection, signal?: AbortSignal): Promise<RewardResult> {
      return prismaReward({
        rollout: { id: rubric.id, prompt_id: rubric.id, prompt: rubric.prompt, completion: '' },
        prompt: rubric.prompt,
        inspection: ins,
        rubric: () => undefined,
        judge: null,
        blankPolicy: 'zero',
        prismaRubric: () => rubric,
        prisma: o.graders,
        signal,
      });
    },
    async regenerate(c, rubric, code, failing, round, signal) {
      if (!o.generator)
        return { ok: false, message: 'no --generator model for re-synthesis', usage: emptyUsage() };
      const t = loadPromptTemplate(REGENERATE);
      // The candidate's domain (the rubric may have been written for the instruction in
      // another file); the answer is asked for in that domain's fence so it is found again.
      const domain = c.domain ?? rubric.domain;
      const values = {
        prompt: c.instruction,
        domain,
        fence: isDomainId(domain) ? DOMAINS[domain].fenceLangs[0]! : domain,
        code,
        failing: formatFailing(failing),
      };
      const key = cacheKey([
        'prisma-regenerate',
        ...modelKeyParts(o.generator),
        t.version,
        round,
        JSON.stringify(values),
      ]);
      const hit = await cache?.get<string>('author', key);
      if (hit !== undefined) return { ok: true, completion: hit, usage: emptyUsage() };
      const res = await o.generator.generateText(
        [
          { role: 'system', content: fillTemplate(t.system, values) },
          { role: 'user', content: fillTemplate(t.user, values) },
        ],
        { signal },
      );
      if (!res.ok)
        return { ok: false, message: `${res.error.code}: ${res.error.message}`, usage: res.usage };
      await cache?.set('author', key, res.value);
      return { ok: true, completion: res.value, usage: res.usage };
    },
  };
}
