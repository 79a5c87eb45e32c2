// Finds the PrismaForge rubric of a rollout in a rubrics file: by prompt id, else by prompt
// text after whitespace normalisation (as src/rubric/load.ts does for RULER). PrismaForge
// lines (`"preset":"prisma"`) may share a rubrics.jsonl with RULER ones: each loader reads
// its own lines and leaves the others alone. Lines are split by the one JSONL reader's rules
// (src/store/jsonl-values.ts: BOM, CRLF, blank lines), as the RULER loader reads them.
import { readFileSync } from 'node:fs';
import { normalisePrompt } from '../core/group-key.ts';
import { isBadLine, jsonlTextLines, parseJsonLine } from '../store/jsonl-values.ts';
import { type PrismaRubric, PrismaRubricSchema } from './prisma-schema.ts';

export interface PrismaRubricIndex {
  find(ref: { prompt_id?: string | null; prompt?: string | null }): PrismaRubric | undefined;
  readonly size: number;
  readonly errors: { line: number; message: string }[];
}

/** True for a line that claims to be a PrismaForge rubric (whether or not it is valid). */
export function isPrismaLine(json: unknown): boolean {
  return (
    typeof json === 'object' && json !== null && (json as { preset?: unknown }).preset === 'prisma'
  );
}

/**
 * Reads the `"preset":"prisma"` lines of a rubrics file's text; other lines are skipped, an
 * invalid PrismaForge line is listed in `errors` with its 1-based number.
 */
export function parsePrismaRubrics(text: string): {
  rubrics: PrismaRubric[];
  errors: { line: number; message: string }[];
} {
  const rubrics: PrismaRubric[] = [];
  const errors: { line: number; message: string }[] = [];
  for (const l of jsonlTextLines(text)) {
    // Only lines that can be PrismaForge rubrics are parsed (the rest are RULER's).
    if (!l.text.includes('"prisma"')) continue;
    const parsed = parseJsonLine(l.line, l.text);
    if (isBadLine(parsed)) continue; // a torn line: the RULER loader already reports it
    const json = parsed.value;
    if (!isPrismaLine(json)) continue;
    const r = PrismaRubricSchema.safeParse(json);
    if (r.success) rubrics.push(r.data);
    else {
      const issue = r.error.issues[0];
      errors.push({ line: l.line, message: `${issue?.path.join('.')}: ${issue?.message}` });
    }
  }
  return { rubrics, errors };
}

/**
 * Indexes PrismaForge rubrics (records, or a rubrics file's path, read now): kept ones, found
 * by prompt id, else by the prompt's normalised text; later lines win.
 */
export function indexPrismaRubrics(source: readonly PrismaRubric[] | string): PrismaRubricIndex {
  const { rubrics, errors } =
    typeof source === 'string'
      ? parsePrismaRubrics(readFileSync(source, 'utf8'))
      : { rubrics: [...source], errors: [] };
  const byId = new Map<string, PrismaRubric>();
  const byText = new Map<string, PrismaRubric>();
  for (const r of rubrics) {
    if (!r.kept) continue;
    // Later lines win: a re-synthesised rubric appended to the file replaces the old one.
    byId.set(r.id, r);
    byText.set(normalisePrompt(r.prompt), r);
  }
  return {
    find(ref) {
      const hit = ref.prompt_id ? byId.get(ref.prompt_id) : undefined;
      if (hit) return hit;
      return ref.prompt ? byText.get(normalisePrompt(ref.prompt)) : undefined;
    },
    size: byId.size,
    errors,
  };
}
