// RULER's two-step authoring. Step 1: the author draws an ideal SVG for the prompt
// (free text). Step 2: with that drawing in mind, it rewrites the preset's items for the
// prompt (structured JSON; the request carries the preset's exact answer schema, the parse
// takes any object so validate.ts can name what is wrong). Each step is cached under the
// author model, the step's prompt-file version and everything the step reads, so re-running
// costs no calls. Domains other than SVG have their own two prompt files (ideal-code.md,
// rubric-code.md) filled with what domain-prompts.ts says about the domain.
import { emptyUsage, type Usage } from '../core/usage.ts';
import type { ModelClient } from '../models/types.ts';
import { AnyAuthorAnswerSchema, authorAnswerSchema } from '../rubric/answer-schema.ts';
import type { PresetSkeleton } from '../rubric/presets.ts';
import {
  fillTemplate,
  loadPromptTemplate,
  type PromptTemplate,
  sha256,
} from '../rubric/prompt-file.ts';
import type { AnswerCache } from '../store/cache.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';
import type { DomainAuthoring } from './domain-prompts.ts';

export type AuthorStep<T> =
  | { ok: true; value: T; usage: Usage; cached: boolean }
  | { ok: false; message: string; usage: Usage };

/**
 * Version of the author side: both prompt files and the preset skeleton (for another domain:
 * its two prompt files and what the author is told about the domain).
 */
export function authorVersion(preset: PresetSkeleton, d?: DomainAuthoring): string {
  if (d) {
    const ideal = loadPromptTemplate('author/ideal-code.md').version;
    const rubric = loadPromptTemplate('author/rubric-code.md').version;
    return sha256(JSON.stringify([ideal, rubric, d.version, preset])).slice(0, 16);
  }
  const ideal = loadPromptTemplate('author/ideal-svg.md').version;
  const rubric = loadPromptTemplate('author/rubric.md').version;
  return sha256(JSON.stringify([ideal, rubric, preset])).slice(0, 16);
}

/** One cached free-text call of the author (step 1). */
async function askText(
  client: ModelClient,
  t: PromptTemplate,
  values: Record<string, string>,
  keyParts: string[],
  cache: AnswerCache | null,
  signal?: AbortSignal,
): Promise<AuthorStep<string>> {
  const key = cacheKey(['author-ideal', ...modelKeyParts(client), t.version, ...keyParts]);
  const hit = await cache?.get<string>('author', key);
  if (hit !== undefined) return { ok: true, value: hit, usage: emptyUsage(), cached: true };
  const res = await client.generateText(
    [
      { role: 'system', content: fillTemplate(t.system, values) },
      { role: 'user', content: fillTemplate(t.user, values) },
    ],
    { signal },
  );
  if (!res.ok)
    return { ok: false, message: `${res.error.code}: ${res.error.message}`, usage: res.usage };
  await cache?.set('author', key, res.value);
  return { ok: true, value: res.value, usage: res.usage, cached: false };
}

/** Step 1: the author's raw answer (an SVG, usually fenced). */
export function authorIdeal(
  client: ModelClient,
  prompt: string,
  cache: AnswerCache | null,
  signal?: AbortSignal,
): Promise<AuthorStep<string>> {
  const t = loadPromptTemplate('author/ideal-svg.md');
  return askText(client, t, { prompt }, [prompt], cache, signal);
}

/** Step 1 in another domain: the author's raw answer (that domain's code, usually fenced). */
export function authorIdealCode(
  client: ModelClient,
  prompt: string,
  d: DomainAuthoring,
  cache: AnswerCache | null,
  signal?: AbortSignal,
): Promise<AuthorStep<string>> {
  const t = loadPromptTemplate('author/ideal-code.md');
  const values = {
    prompt,
    domain_name: d.name,
    fence: d.fence,
    picture: d.picture,
    domain_rules: d.rules,
  };
  return askText(client, t, values, [d.domain, d.version, prompt], cache, signal);
}

function describeItems(preset: PresetSkeleton): string {
  return preset.items
    .map((s, i) => `${i + 1}. ${s.key} · ${s.axis} · ${s.weight} · ${s.title}: ${s.focus}`)
    .join('\n');
}

/** Step 2: the rubric text for the preset's items, written with the ideal in mind. */
export function authorRubric(
  client: ModelClient,
  preset: PresetSkeleton,
  prompt: string,
  idealSvg: string,
  cache: AnswerCache | null,
  signal?: AbortSignal,
): Promise<AuthorStep<unknown>> {
  const t = loadPromptTemplate('author/rubric.md');
  const values = {
    prompt,
    ideal_svg: idealSvg,
    items: describeItems(preset),
    item_count: String(preset.items.length),
    preset_notes: preset.authorNotes,
  };
  return askRubric(client, t, preset, values, [prompt, sha256(idealSvg)], cache, signal);
}

/** Step 2 in another domain: as authorRubric, seeing the ideal code and the domain's standards. */
export function authorRubricCode(
  client: ModelClient,
  preset: PresetSkeleton,
  prompt: string,
  d: DomainAuthoring,
  idealCode: string,
  cache: AnswerCache | null,
  signal?: AbortSignal,
): Promise<AuthorStep<unknown>> {
  const t = loadPromptTemplate('author/rubric-code.md');
  const values = {
    prompt,
    domain_name: d.name,
    fence: d.fence,
    picture: d.picture,
    domain_criteria: d.criteria,
    ideal_code: idealCode,
    items: describeItems(preset),
    item_count: String(preset.items.length),
    preset_notes: preset.authorNotes,
  };
  const keyParts = [d.domain, d.version, prompt, sha256(idealCode)];
  return askRubric(client, t, preset, values, keyParts, cache, signal);
}

/** One cached structured call of the author (step 2), carrying the preset's answer schema. */
async function askRubric(
  client: ModelClient,
  t: PromptTemplate,
  preset: PresetSkeleton,
  values: Record<string, string>,
  keyParts: string[],
  cache: AnswerCache | null,
  signal?: AbortSignal,
): Promise<AuthorStep<unknown>> {
  const key = cacheKey([
    'author-rubric',
    ...modelKeyParts(client),
    t.version,
    preset.name,
    sha256(JSON.stringify(preset)),
    ...keyParts,
  ]);
  const hit = await cache?.get<unknown>('author', key);
  if (hit !== undefined) return { ok: true, value: hit, usage: emptyUsage(), cached: true };
  const res = await client.generateObject(
    [
      { role: 'system', content: fillTemplate(t.system, values) },
      { role: 'user', content: fillTemplate(t.user, values) },
    ],
    AnyAuthorAnswerSchema,
    'rubric',
    { signal, requestSchema: authorAnswerSchema(preset) },
  );
  if (!res.ok)
    return { ok: false, message: `${res.error.code}: ${res.error.message}`, usage: res.usage };
  await cache?.set('author', key, res.value);
  return { ok: true, value: res.value, usage: res.usage, cached: false };
}
