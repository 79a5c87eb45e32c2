// RULER's two-step authoring. Step 1: the author draws an ideal SVG for the prompt
// (free text). Step 2: with that drawing in mind, it rewrites the preset's items for the
// prompt (structured JSON; the request carries the preset's exact answer schema, the parse
// takes any object so validate.ts can name what is wrong). Each step is cached under the
// author model, the step's prompt-file version and everything the step reads, so re-running
// costs no calls.
import { emptyUsage, type Usage } from '../core/usage.ts';
import type { ModelClient } from '../models/types.ts';
import type { AnswerCache } from '../store/cache.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';
import { AnyAuthorAnswerSchema, authorAnswerSchema } from './answer-schema.ts';
import type { PresetSkeleton } from './presets.ts';
import { fillTemplate, loadPromptTemplate, sha256 } from './prompt-file.ts';

export type AuthorStep<T> =
  | { ok: true; value: T; usage: Usage; cached: boolean }
  | { ok: false; message: string; usage: Usage };

/** Version of the author side: both prompt files and the preset skeleton. */
export function authorVersion(preset: PresetSkeleton): string {
  const ideal = loadPromptTemplate('author/ideal-svg.md').version;
  const rubric = loadPromptTemplate('author/rubric.md').version;
  return sha256(JSON.stringify([ideal, rubric, preset])).slice(0, 16);
}

/** Step 1: the author's raw answer (an SVG, usually fenced). */
export async function authorIdeal(
  client: ModelClient,
  prompt: string,
  cache: AnswerCache | null,
  signal?: AbortSignal,
): Promise<AuthorStep<string>> {
  const t = loadPromptTemplate('author/ideal-svg.md');
  const key = cacheKey(['author-ideal', ...modelKeyParts(client), t.version, prompt]);
  const hit = cache?.get<string>('author', key);
  if (hit !== undefined) return { ok: true, value: hit, usage: emptyUsage(), cached: true };
  const res = await client.generateText(
    [
      { role: 'system', content: fillTemplate(t.system, { prompt }) },
      { role: 'user', content: fillTemplate(t.user, { prompt }) },
    ],
    { signal },
  );
  if (!res.ok)
    return { ok: false, message: `${res.error.code}: ${res.error.message}`, usage: res.usage };
  cache?.set('author', key, res.value);
  return { ok: true, value: res.value, usage: res.usage, cached: false };
}

function describeItems(preset: PresetSkeleton): string {
  return preset.items
    .map((s, i) => `${i + 1}. ${s.key} · ${s.axis} · ${s.weight} · ${s.title}: ${s.focus}`)
    .join('\n');
}

/** Step 2: the rubric text for the preset's items, written with the ideal in mind. */
export async function authorRubric(
  client: ModelClient,
  preset: PresetSkeleton,
  prompt: string,
  idealSvg: string,
  cache: AnswerCache | null,
  signal?: AbortSignal,
): Promise<AuthorStep<unknown>> {
  const t = loadPromptTemplate('author/rubric.md');
  const key = cacheKey([
    'author-rubric',
    ...modelKeyParts(client),
    t.version,
    preset.name,
    sha256(JSON.stringify(preset)),
    prompt,
    sha256(idealSvg),
  ]);
  const hit = cache?.get<unknown>('author', key);
  if (hit !== undefined) return { ok: true, value: hit, usage: emptyUsage(), cached: true };
  const values = {
    prompt,
    ideal_svg: idealSvg,
    items: describeItems(preset),
    item_count: String(preset.items.length),
    preset_notes: preset.authorNotes,
  };
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
  cache?.set('author', key, res.value);
  return { ok: true, value: res.value, usage: res.usage, cached: false };
}
