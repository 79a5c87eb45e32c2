// Finds the rubric of a rollout: by prompt id, or by prompt text after whitespace
// normalisation. Only kept rubrics are used; a rubrics.jsonl line that does not parse is
// reported, not fatal (the rollouts it would serve get `no_rubric`).
import { readFileSync } from 'node:fs';
import type { PresetName } from './presets.ts';
import { type RubricRecord, RubricRecordSchema } from './schema.ts';

export interface RubricIndex {
  /** Kept rubrics, by preset. */
  find(
    preset: PresetName,
    ref: { prompt_id?: string | null; prompt?: string | null },
  ): RubricRecord | undefined;
  /** Any kept rubric for this prompt id (the prompt text for universal scoring). */
  promptOf(promptId: string): string | undefined;
  readonly size: number;
  /** Lines that could not be read: 1-based line number and why. */
  readonly errors: { line: number; message: string }[];
}

export function normalisePrompt(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

export function parseRubricsJsonl(text: string): {
  rubrics: RubricRecord[];
  errors: { line: number; message: string }[];
} {
  const rubrics: RubricRecord[] = [];
  const errors: { line: number; message: string }[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      // A torn last line of an interrupted run is expected; say so plainly.
      errors.push({ line: i + 1, message: 'not valid JSON' });
      continue;
    }
    // PrismaForge rubrics share the file and have their own loader (src/rubric/prisma-load.ts).
    if ((json as { preset?: unknown } | null)?.preset === 'prisma') continue;
    const r = RubricRecordSchema.safeParse(json);
    if (r.success) rubrics.push(r.data);
    else errors.push({ line: i + 1, message: r.error.issues[0]?.message ?? 'invalid rubric' });
  }
  return { rubrics, errors };
}

export function indexRubrics(source: readonly RubricRecord[] | string): RubricIndex {
  const { rubrics, errors } =
    typeof source === 'string'
      ? parseRubricsJsonl(readFileSync(source, 'utf8'))
      : { rubrics: [...source], errors: [] };
  const byId = new Map<string, RubricRecord>();
  const byText = new Map<string, RubricRecord>();
  const prompts = new Map<string, string>();
  let size = 0;
  for (const r of rubrics) {
    prompts.set(r.id, r.prompt);
    if (!r.kept) continue;
    size++;
    // Later lines win: a re-synthesised rubric appended to the file replaces the old one.
    byId.set(`${r.preset}\u0000${r.id}`, r);
    byText.set(`${r.preset}\u0000${normalisePrompt(r.prompt)}`, r);
  }
  return {
    find(preset, ref) {
      if (ref.prompt_id) {
        const hit = byId.get(`${preset}\u0000${ref.prompt_id}`);
        if (hit) return hit;
      }
      if (ref.prompt) return byText.get(`${preset}\u0000${normalisePrompt(ref.prompt)}`);
      return undefined;
    },
    promptOf: (id) => prompts.get(id),
    size,
    errors,
  };
}
