// Finds the rubric of a rollout: by prompt id, or by prompt text after whitespace
// normalisation. Only kept rubrics are used; a rubrics.jsonl line that does not parse is
// reported, not fatal (the rollouts it would serve get `no_rubric`). Lines are read by the one
// JSONL reader (src/store/jsonl-values.ts), so a BOM, CRLF and blank lines read as they do
// for every other input file.
import { normalisePrompt } from '../core/group-key.ts';
import { parseJsonl, readJsonlSync } from '../store/jsonl-values.ts';
import type { PresetName } from './presets.ts';
import { type RubricRecord, RubricRecordSchema } from './schema.ts';

/** Kept rubrics looked up by preset and by prompt id, else by the prompt's text. */
export interface RubricIndex {
  /** Kept rubrics, by preset. */
  find(
    preset: PresetName,
    ref: { prompt_id?: string | null; prompt?: string | null },
  ): RubricRecord | undefined;
  /** Any kept rubric for this prompt id (the prompt text for universal scoring). */
  promptOf(promptId: string): string | undefined;
  /** The task data a rubric line for this prompt id carries (its rollouts' default). */
  assetsOf(promptId: string): RubricRecord['assets'];
  readonly size: number;
  /** Lines that could not be read: 1-based line number and why. */
  readonly errors: { line: number; message: string }[];
}

// The rubric lookup's text normalisation is the group rule's (a rollout finds the rubric of
// the group it is in); re-exported for the callers that import it from here.
export { normalisePrompt } from '../core/group-key.ts';

type ParsedRubrics = {
  rubrics: RubricRecord[];
  errors: { line: number; message: string }[];
};

function rubricsOf(lines: ReturnType<typeof parseJsonl>): ParsedRubrics {
  const rubrics: RubricRecord[] = [];
  // A torn last line of an interrupted run is expected: it is reported, not fatal.
  const errors = lines.bad.map((b) => ({ line: b.line, message: b.reason }));
  for (const { line, value } of lines.values) {
    // PrismaForge rubrics share the file and have their own loader (src/rubric/prisma-load.ts).
    if ((value as { preset?: unknown } | null)?.preset === 'prisma') continue;
    const r = RubricRecordSchema.safeParse(value);
    if (r.success) rubrics.push(r.data);
    else errors.push({ line, message: r.error.issues[0]?.message ?? 'invalid rubric' });
  }
  errors.sort((a, b) => a.line - b.line);
  return { rubrics, errors };
}

/**
 * Reads the text of a rubrics file: one RubricRecord per valid line. Blank lines are skipped,
 * PrismaForge lines are left to parsePrismaRubrics, and a line that is not JSON or not a
 * rubric is listed in `errors` with its 1-based number rather than thrown.
 * @example
 * ```ts
 * const { rubrics, errors } = parseRubricsJsonl(readFileSync('rubrics.jsonl', 'utf8'));
 * ```
 */
export function parseRubricsJsonl(text: string, file = 'rubrics.jsonl'): ParsedRubrics {
  // The one JSONL reader in its tolerant mode: a BOM, CRLF and blank lines read as in every
  // other input file; `file` only names the text in messages.
  return rubricsOf(parseJsonl(text, file, { badLines: 'collect' }));
}

/**
 * Indexes rubrics (records, or the path of a rubrics file, read now) for lookup by preset:
 * by prompt id, else by the prompt's normalised text. Only kept rubrics are found; a later
 * line for the same prompt replaces an earlier one. Unreadable lines are in `errors`.
 */
export function indexRubrics(source: readonly RubricRecord[] | string): RubricIndex {
  const { rubrics, errors } =
    typeof source === 'string'
      ? rubricsOf(readJsonlSync(source, { badLines: 'collect' }))
      : { rubrics: [...source], errors: [] };
  const byId = new Map<string, RubricRecord>();
  const byText = new Map<string, RubricRecord>();
  const prompts = new Map<string, string>();
  const assets = new Map<string, NonNullable<RubricRecord['assets']>>();
  let size = 0;
  for (const r of rubrics) {
    prompts.set(r.id, r.prompt);
    if (r.assets) assets.set(r.id, r.assets);
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
    assetsOf: (id) => assets.get(id),
    size,
    errors,
  };
}
