// The input files of `generate` and `eval`: prompts.jsonl (`{"id","prompt",…}`) and
// rollouts.jsonl (`{"id","prompt_id"|"prompt","completion",…}`, as `generate` writes it).
// Both are streamed line by line (any size), ids are kept exactly (src/store/jsonl-input.ts);
// a bad line is reported with its line number and skipped; a missing file is a value too.

import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { DOMAIN_IDS, type DomainId } from '../core/domain-ids.ts';
import {
  ExactIdSchema,
  type InputItem,
  JsonlFormatError,
  readJsonlItems,
} from '../store/jsonl-input.ts';
import type { LineIssue } from './stats/jsonl.ts';

/** One line of a prompts file as eval, probe and generate read it. */
export interface PromptLine {
  id: string;
  prompt: string;
  /**
   * The task's domain (docs/domains.md), when the prompts file says it: sampled rollouts carry
   * it, and `eval --policy` refuses a reward that does not apply to it before sampling.
   */
  domain?: DomainId;
}

/** One line of a rollouts file as eval and probe read it. */
export interface RolloutLine {
  id: string;
  prompt_id: string | null;
  prompt: string | null;
  completion: string;
  sample?: number;
  model?: string;
  /** The completion's domain (docs/domains.md). */
  domain?: DomainId;
}

/** A rollout line that records a failed policy call instead of a completion. */
export interface RolloutErrorLine {
  id: string;
  prompt_id: string | null;
  error: { code: string; message: string };
}

export type FileResult<T> =
  | { ok: true; value: T; issues: LineIssue[] }
  | {
      ok: false;
      error: { code: 'file_not_found' | 'file_unreadable' | 'bad_format'; message: string };
    };

const promptSchema = z.looseObject({
  id: ExactIdSchema,
  prompt: z.string().min(1),
  domain: z.enum(DOMAIN_IDS).optional(),
});

const rolloutSchema = z.looseObject({
  id: ExactIdSchema,
  prompt_id: ExactIdSchema.nullish(),
  prompt: z.string().nullish(),
  completion: z.string().optional(),
  domain: z.enum(DOMAIN_IDS).optional(),
  sample: z.number().int().nonnegative().optional(),
  model: z.string().optional(),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
});

type FileError = Extract<FileResult<never>, { ok: false }>;

/** Streams a file's items (any size, UTF-8 checked); file-level failures become values. */
async function readItems<T extends { id: string }>(
  path: string,
  schema: z.ZodType<T>,
  example: string,
  duplicates: 'report' | 'pass',
): Promise<{ ok: true; items: InputItem<T>[]; issues: LineIssue[] } | FileError> {
  try {
    await stat(path);
  } catch (err) {
    const code =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file_not_found' : 'file_unreadable';
    return { ok: false, error: { code, message: `${path}: ${(err as Error).message}` } };
  }
  const items: InputItem<T>[] = [];
  const issues: LineIssue[] = [];
  try {
    for await (const x of readJsonlItems(path, schema, { example, duplicates })) {
      if ('error' in x)
        issues.push({
          file: path,
          line: x.line,
          code: x.error.startsWith('duplicate id')
            ? 'duplicate_id'
            : x.error.startsWith('not ')
              ? 'bad_json'
              : 'bad_shape',
          message: x.error,
        });
      else items.push(x);
    }
  } catch (err) {
    if (err instanceof JsonlFormatError)
      return { ok: false, error: { code: 'bad_format', message: err.message } };
    return {
      ok: false,
      error: { code: 'file_unreadable', message: `${path}: ${(err as Error).message}` },
    };
  }
  return { ok: true, items, issues };
}

/** Prompts: the first line of an id is used; a repeated id is reported and skipped. */
export async function readPromptsFile(path: string): Promise<FileResult<PromptLine[]>> {
  const read = await readItems(path, promptSchema, '{"id":"p1","prompt":"a red fox"}', 'report');
  if (!read.ok) return read;
  return {
    ok: true,
    value: read.items.map(({ item }) =>
      item.domain === undefined
        ? { id: item.id, prompt: item.prompt }
        : { id: item.id, prompt: item.prompt, domain: item.domain },
    ),
    issues: read.issues,
  };
}

export interface RolloutsFile {
  rollouts: RolloutLine[];
  /** Ids whose last line is a failed policy call (no completion to evaluate). */
  errors: RolloutErrorLine[];
}

/**
 * Reads rollouts. The duplicate-id policy of every command holds (the first line of an id is
 * used, later ones are reported and skipped), with one exception that is part of
 * `generate`'s resumable format: a line recording a failed policy call is replaced by a later
 * line of the same id (the retry). Ids keep the order of their first line.
 */
export async function readRolloutsFile(path: string): Promise<FileResult<RolloutsFile>> {
  const read = await readItems(
    path,
    rolloutSchema,
    '{"id":"p1#0","prompt_id":"p1","completion":"```svg …```"}',
    'pass',
  );
  if (!read.ok) return read;
  const issues = read.issues;
  const chosen = new Map<string, { line: number; r: z.infer<typeof rolloutSchema> }>();
  for (const { line, item: r } of read.items) {
    if (r.completion === undefined && !r.error) {
      issues.push({
        file: path,
        line,
        code: 'bad_shape',
        message: 'completion: a rollout needs "completion" (or an "error")',
      });
      continue;
    }
    const prev = chosen.get(r.id);
    if (prev && prev.r.completion !== undefined) {
      issues.push({
        file: path,
        line,
        code: 'duplicate_id',
        message: `duplicate id ${JSON.stringify(r.id)} (first on line ${prev.line}); this line is skipped`,
      });
      continue;
    }
    chosen.set(r.id, { line: prev?.line ?? line, r });
  }
  const rollouts: RolloutLine[] = [];
  const errors: RolloutErrorLine[] = [];
  for (const { r } of chosen.values()) {
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
    if (r.domain !== undefined) line.domain = r.domain;
    rollouts.push(line);
  }
  return { ok: true, value: { rollouts, errors }, issues };
}
