// Rubric synthesis for one prompt, end to end: author the ideal SVG, render it, author
// the rubric, validate it, judge the ideal with it and keep the rubric only when the
// ideal scores at least `minIdeal` (RULER: 0.9). Every outcome is a record; a dropped
// rubric says why (author_error, malformed, ideal_unrenderable, ideal_below_threshold,
// judge_error). The ideal is rendered before step 2 so a prompt whose ideal cannot be
// drawn costs no rubric call. A prompt of another domain (python, latex, dot, vega-lite,
// html, mermaid) gets the same steps in that domain: the author writes the ideal code, the
// domain's sandboxed renderer draws it, the rubric is written seeing that code and the
// domain's shared standards, and the same judge and threshold decide. A prompt with task data
// (`assets`) has them resolved first (a bad one drops the rubric with its asset_* code), named
// to the author, readable by the ideal's job, and hashed into the ideal judge's cache key;
// the record keeps them so score/serve give them to the prompt's rollouts.

import { type AssetsInput, assetsHash } from '../core/assets.ts';
import type { DomainId } from '../core/domain-ids.ts';
import { RubricaError } from '../core/errors.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { resolveAssets } from '../domains/assets.ts';
import type { DomainRenderers } from '../domains/renderers.ts';
import type { InspectFn } from '../inspect/types.ts';
import type { Judge } from '../judge/judge.ts';
import type { ModelClient } from '../models/types.ts';
import { judgeWithAssets } from '../pipeline/assets-key.ts';
import type { Renderer } from '../render/types.ts';
import { weightedReward } from '../reward/weighted.ts';
import { getPreset, type PresetName } from '../rubric/presets.ts';
import type { DropReason, RubricItem, RubricRecord } from '../rubric/schema.ts';
import { universalItems } from '../rubric/universal.ts';
import { validateAuthorAnswer } from '../rubric/validate.ts';
import type { AnswerCache } from '../store/cache.ts';
import {
  authorIdeal,
  authorIdealCode,
  authorRubric,
  authorRubricCode,
  authorVersion,
} from './author.ts';
import { domainAuthoring } from './domain-prompts.ts';

/** The ideal's judged score a RULER rubric needs to be kept. */
export const DEFAULT_MIN_IDEAL = 0.9;

/** The author and judge, the renderer, the preset, the ideal's bar and the cache. */
export interface SynthOptions {
  /** Needed for every preset but `universal`. */
  author?: ModelClient;
  /** Needed for every preset but `universal`. */
  judge?: Judge;
  renderer: Renderer;
  inspect: InspectFn;
  preset?: PresetName;
  minIdeal?: number;
  cache?: AnswerCache | null;
  /** Domain of prompts that name none (default 'svg'). */
  domain?: DomainId;
  /** Warm renderers for ideals of other domains (the caller keeps ownership). */
  domains?: DomainRenderers;
  /** Where prompts' `{ path }` assets are read from (`--data-root`); else inline only. */
  dataRoot?: string | null;
}

/** One prompt to write a rubric for. */
export interface PromptInput {
  id: string;
  prompt: string;
  /** The domain the prompt is answered in; default the synthesizer's (svg). */
  domain?: DomainId | null;
  /** The task's data files (src/core/assets.ts): the ideal's job reads them by name. */
  assets?: AssetsInput | null;
}

/** Writes one rubric per prompt (see createRubricSynthesizer). */
export interface RubricSynthesizer {
  synthesize(input: PromptInput, signal?: AbortSignal): Promise<RubricRecord>;
}

// Long because the author, judge, cache and renderer it closes over serve every prompt; the
// steps (author, validate, render the ideal, judge it) are the numbered blocks inside.
/**
 * RULER's two-step author: writes an ideal answer and the rubric's items, renders the ideal
 * and has the judge score it against the items; the rubric is kept only when the ideal scores
 * at least `minIdeal`. A failed step gives a record with `kept: false`, not a throw. Throws
 * at once when an authored preset has no author or judge.
 * @example
 * ```ts
 * const judge = createJudge({ client });
 * const opts = { author: client, judge, renderer: pool, inspect: inspectCompletion };
 * const synth = createRubricSynthesizer(opts);
 * const record = await synth.synthesize({ id: 'p1', prompt: 'a red apple' });
 * ```
 */
export function createRubricSynthesizer(opts: SynthOptions): RubricSynthesizer {
  const preset = getPreset(opts.preset ?? 'ruler');
  const minIdeal = opts.minIdeal ?? DEFAULT_MIN_IDEAL;
  const cache = opts.cache ?? null;
  if (preset.authored && (!opts.author || !opts.judge)) {
    throw new RubricaError(
      'synth_config',
      `preset ${preset.name} needs an author model and a judge`,
    );
  }
  const judgeVersion = opts.judge ? `${opts.judge.mode}:${opts.judge.promptVersion}` : 'none';

  return {
    async synthesize({ id, prompt, domain: asked, assets: given }, signal) {
      const domain: DomainId = asked ?? opts.domain ?? 'svg';
      const other = domain === 'svg' ? null : domainAuthoring(domain);
      let usage: Usage = emptyUsage();
      let idealSvg: string | null = null;
      let idealCode: string | null = null;
      let items: RubricItem[] = [];
      const record = (
        extra: Partial<RubricRecord> & Pick<RubricRecord, 'kept' | 'ideal_score'>,
      ): RubricRecord => ({
        id,
        prompt,
        preset: preset.name,
        items,
        ideal_svg: idealSvg,
        // Only other domains carry these: SVG records stay as they were.
        ...(other ? { domain, ideal_code: idealCode } : {}),
        ...(given && Object.keys(given).length > 0 ? { assets: given } : {}),
        author: opts.author?.spec.id ?? 'none',
        judge: opts.judge?.modelId ?? 'none',
        versions: {
          author: preset.authored ? authorVersion(preset, other ?? undefined) : 'none',
          judge: judgeVersion,
        },
        usage,
        ...extra,
      });
      const drop = (reason: DropReason, message: string, idealScore: number | null = null) =>
        record({
          kept: false,
          ideal_score: idealScore,
          drop_reason: reason,
          drop_message: message,
        });

      if (!preset.authored) {
        items = universalItems();
        return record({ kept: true, ideal_score: null });
      }
      const author = opts.author!;
      const data = await resolveAssets(given, { dataRoot: opts.dataRoot ?? null });
      if (!data.ok) return drop(data.error.code, data.error.message);
      const dataHash = assetsHash(data.assets);
      // The author is told the files' names, so the ideal can read them as a policy would.
      const task = dataHash ? `${prompt}\n\n${dataNote(data.assets)}` : prompt;

      const ideal = other
        ? await authorIdealCode(author, task, other, cache, signal)
        : await authorIdeal(author, task, cache, signal);
      usage = addUsage(usage, ideal.usage);
      const what = other ? `ideal ${domain}` : 'ideal SVG';
      if (!ideal.ok) return drop('author_error', `${what}: ${ideal.message}`);

      // Inspected in the prompt's domain: an SVG ideal as before, other code in its sandbox.
      const seen = await opts.inspect(ideal.value, {
        prompt,
        renderer: opts.renderer,
        ...(other ? { domain, ...(opts.domains ? { domains: opts.domains } : {}) } : {}),
        ...(dataHash ? { assets: data.assets } : {}),
      });
      const code = other ? seen.artifact.code : seen.artifact.svg;
      if (!seen.artifact.found || !code) {
        return drop(
          'ideal_unrenderable',
          seen.artifact.error?.code ?? (other ? 'no_code' : 'no_svg'),
        );
      }
      if (other) idealCode = code;
      else idealSvg = code;
      if (!seen.render?.ok) {
        const failure = seen.render && !seen.render.ok ? seen.render.error : null;
        const reason = failure?.code ?? 'render_error';
        // Other domains' failures carry the compiler's words (stderr tail): keep a line of them.
        const detail = other && failure?.message ? `: ${failure.message.slice(0, 300)}` : '';
        return drop('ideal_unrenderable', `${reason}${detail}`);
      }
      if (seen.summary.blank) return drop('ideal_unrenderable', 'blank');
      const png = seen.render.png;

      const answer = other
        ? await authorRubricCode(author, preset, task, other, code, cache, signal)
        : await authorRubric(author, preset, task, code, cache, signal);
      usage = addUsage(usage, answer.usage);
      if (!answer.ok) return drop('author_error', `rubric: ${answer.message}`);
      const valid = validateAuthorAnswer(preset, prompt, answer.value);
      if (!valid.ok) return drop('malformed', valid.message);
      items = valid.items;

      const judge = judgeWithAssets(opts.judge!, dataHash)!;
      const verdict = await judge.judge({ prompt, items, png, signal });
      usage = addUsage(usage, verdict.usage);
      if (!verdict.ok) return drop('judge_error', verdict.message);
      const score = weightedReward(verdict.criteria);
      if (score === null) return drop('judge_error', 'judge gave no usable scores');
      if (score < minIdeal) {
        return drop(
          'ideal_below_threshold',
          `ideal scored ${score.toFixed(4)} < ${minIdeal}`,
          score,
        );
      }
      return record({ kept: true, ideal_score: score });
    },
  };
}

/** The line the author reads about the task's files (names and sizes; never the content). */
function dataNote(assets: Readonly<Record<string, Buffer>>): string {
  const files = Object.entries(assets).map(([n, b]) => `${n} (${b.length} bytes)`);
  return `Data files of this task, readable by name from the working directory: ${files.join(', ')}.`;
}
