// The input files of `generate` and `eval`: prompts.jsonl (`{"id","prompt",…}`) and
// rollouts.jsonl (`{"id","prompt_id"|"prompt","completion",…}`, as `generate` writes it).
// A bad line is reported with its line number and skipped; a missing file is a value too.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { type LineIssue, readJsonLines, zodMessage } from './stats/jsonl.ts';

export interface PromptLine {
  id: string;
  prompt: string;
}

export interface RolloutLine {
  id: string;
  prompt_id: string | null;
  prompt: string | null;
  completion: string;
  sample?: number;
  model?: string;
}

/** A rollout line that records a failed policy call instead of a completion. */
export interface RolloutErrorLine {
  id: string;
  prompt_id: string | null;
  error: { code: string; message: string };
}

export type FileResult<T> =
  | { ok: true; value: T; issues: LineIssue[] }
  | { ok: false; error: { code: 'file_not_found' | 'file_unreadable'; message: string } };

const idSchema = z.union([z.string().min(1), z.number()]).transform(String);

const promptSchema = z.looseObject({ id: idSchema, prompt: z.string().min(1) });

const rolloutSchema = z.looseObject({
  id: idSchema,
  prompt_id: idSchema.nullish(),
  prompt: z.string().nullish(),
  completion: z.string().optional(),
  sample: z.number().int().nonnegative().optional(),
  model: z.string().optional(),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
});

type FileError = Extract<FileResult<never>, { ok: false }>;

async function readText(path: string): Promise<{ ok: true; text: string } | FileError> {
  try {
    return { ok: true, text: await readFile(path, 'utf8') };
  } catch (err) {
    const code =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file_not_found' : 'file_unreadable';
    return { ok: false, error: { code, message: `${path}: ${(err as Error).message}` } };
  }
}

export async function readPromptsFile(path: string): Promise<FileResult<PromptLine[]>> {
  const read = await readText(path);
  if (!read.ok) return read;
  const { lines, issues } = readJsonLines(read.text, path);
  const seen = new Set<string>();
  const out: PromptLine[] = [];
  for (const { line, value } of lines) {
    const parsed = promptSchema.safeParse(value);
    if (!parsed.success) {
      issues.push({ file: path, line, code: 'bad_shape', message: zodMessage(parsed.error) });
    } else if (seen.has(parsed.data.id)) {
      issues.push({
        file: path,
        line,
        code: 'duplicate_id',
        message: `prompt id ${parsed.data.id} seen before; the first is kept`,
      });
    } else {
      seen.add(parsed.data.id);
      out.push({ id: parsed.data.id, prompt: parsed.data.prompt });
    }
  }
  return { ok: true, value: out, issues };
}

export interface RolloutsFile {
  rollouts: RolloutLine[];
  /** Ids whose last line is a failed policy call (no completion to evaluate). */
  errors: RolloutErrorLine[];
}

/**
 * Reads rollouts. A resumed `generate` may write an error line and later a success line for
 * the same id, so the LAST line of an id wins; ids keep the order of their first line.
 */
export async function readRolloutsFile(path: string): Promise<FileResult<RolloutsFile>> {
  const read = await readText(path);
  if (!read.ok) return read;
  const { lines, issues } = readJsonLines(read.text, path);
  const last = new Map<string, z.infer<typeof rolloutSchema>>();
  for (const { line, value } of lines) {
    const parsed = rolloutSchema.safeParse(value);
    if (!parsed.success) {
      issues.push({ file: path, line, code: 'bad_shape', message: zodMessage(parsed.error) });
      continue;
    }
    const r = parsed.data;
    if (r.completion === undefined && !r.error) {
      issues.push({
        file: path,
        line,
        code: 'bad_shape',
        message: 'completion: a rollout needs "completion" (or an "error")',
      });
      continue;
    }
    last.set(r.id, r);
  }
  const rollouts: RolloutLine[] = [];
  const errors: RolloutErrorLine[] = [];
  for (const r of last.values()) {
    const prompt_id = r.prompt_id ?? null;
    if (r.completion === undefined) {
      errors.push({
        id: r.id,
        prompt_id,
        error: { code: r.error!.code, message: r.error!.message },
      });
      continue;
    }
    const line: RolloutLine = {
      id: r.id,
      prompt_id,
      prompt: r.prompt ?? null,
      completion: r.completion,
    };
    if (r.sample !== undefined) line.sample = r.sample;
    if (r.model !== undefined) line.model = r.model;
    rollouts.push(line);
  }
  return { ok: true, value: { rollouts, errors }, issues };
}
