// One `rubric synth` run's collaborators, opened together and closed together. RULER: the
// answer cache, a render pool (the ideal is drawn), warm renderers for ideals of other domains
// started on first use, and the judge of the ideal filter. PrismaForge: the cache and the
// author only (it has no ideal filter). The CLI feeds prompts to `synthesize` one by one
// through its resumable JSONL runner.

import type { DomainId } from '../core/domain-ids.ts';
import { lazyDomainRenderers } from '../domains/lazy.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import { createJudge } from '../judge/judge.ts';
import type { JudgingStrategy } from '../judge/strategy.ts';
import type { ModelClient } from '../models/types.ts';
import type { JudgeMode } from '../pipeline/types.ts';
import { createRenderPool } from '../render/pool.ts';
import type { RendererName } from '../render/types.ts';
import type { PresetName } from '../rubric/presets.ts';
import type { PrismaRubric } from '../rubric/prisma-schema.ts';
import type { RubricRecord } from '../rubric/schema.ts';
import { openAnswerCache } from '../store/open-cache.ts';
import { createPrismaSynthesizer, type PrismaPromptInput } from './prisma.ts';
import { createRubricSynthesizer, type PromptInput } from './ruler.ts';

export interface SynthRun<I, O> {
  synthesize(input: I): Promise<O>;
  close(): Promise<void>;
}

export interface RulerSynthRunOptions {
  /** Needed for every preset but `universal`. */
  author?: ModelClient;
  /** The judge client of the ideal filter; needed for every preset but `universal`. */
  judge?: ModelClient;
  mode: JudgeMode;
  /** How the ideal filter's judge answers are asked and read (src/judge/strategy.ts). */
  judging?: Partial<JudgingStrategy>;
  preset: PresetName;
  minIdeal: number;
  /** Domain of prompts that name none. */
  domain: DomainId;
  /** The answer cache file, or false. */
  cache: string | false;
  /** Who draws the ideal SVG (default: the render pool's default renderer). */
  renderer?: RendererName;
  /** Where prompts' `{ path }` assets are read from (`--data-root`). */
  dataRoot?: string;
}

/** RULER's two-step author with the ideal filter, over a cache and renderers of its own. */
export function openRulerSynthRun(o: RulerSynthRunOptions): SynthRun<PromptInput, RubricRecord> {
  const cache = o.cache === false ? null : openAnswerCache(o.cache);
  const renderer = createRenderPool(o.renderer ? { defaults: { renderer: o.renderer } } : {});
  // Ideals of other domains are drawn by their sandboxed renderers, started on first use.
  const domains = lazyDomainRenderers({ svgRenderer: renderer });
  const synthesizer = createRubricSynthesizer({
    author: o.author,
    judge: o.judge
      ? createJudge({
          client: o.judge,
          mode: o.mode,
          cache,
          ...(o.judging?.scoring ? { scoring: o.judging.scoring } : {}),
        })
      : undefined,
    renderer,
    inspect: inspectCompletion,
    preset: o.preset,
    minIdeal: o.minIdeal,
    cache,
    domain: o.domain,
    domains,
    ...(o.dataRoot ? { dataRoot: o.dataRoot } : {}),
  });
  return {
    synthesize: (input) => synthesizer.synthesize(input),
    async close() {
      await cache?.close();
      await domains.close();
      await renderer.close();
    },
  };
}

export interface PrismaSynthRunOptions {
  author: ModelClient;
  /** Domain of instructions that name none (their shared criteria follow it); default none. */
  domain?: string;
  cache: string | false;
}

/** PrismaForge's difficulty-budgeted author (code + vision rubrics), over a cache of its own. */
export function openPrismaSynthRun(
  o: PrismaSynthRunOptions,
): SynthRun<PrismaPromptInput, PrismaRubric> {
  const cache = o.cache === false ? null : openAnswerCache(o.cache);
  const synth = createPrismaSynthesizer({ author: o.author, cache });
  return {
    // A line's own domain wins; else the run's (the rubric's shared criteria follow it).
    synthesize: (input) => synth.synthesize({ ...input, domain: input.domain ?? o.domain ?? null }),
    async close() {
      await cache?.close();
    },
  };
}
