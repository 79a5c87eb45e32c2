// The pictures of one run directory, as the studio needs them: results.jsonl lines with `id`,
// `prompt_id`, `prompt`, `run` and `image`, nothing else. Scores are not required — the studio
// shows pictures, so a directory of rollouts that nobody has judged yet is a valid run.
import { basename, join } from 'node:path';
import { z } from 'zod';
import { readInputTextFile } from '../core/read-input-text.ts';
import { type LineIssue, readJsonLines, zodMessage } from '../eval/stats/jsonl.ts';
import { StudioError } from './errors.ts';

const PictureLine = z.looseObject({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  prompt_id: z.union([z.string(), z.number()]).transform(String),
  prompt: z.string().optional(),
  run: z.string().optional(),
  image: z.string().min(1).optional(),
});

/** One line of a run's results.jsonl that the studio can show (it has an `image`). */
export interface RunPicture {
  id: string;
  prompt_id: string;
  prompt: string;
  /** The line's own run name, when it has one. */
  run: string | undefined;
  /** As written: relative to the run directory or absolute. */
  image: string;
}

/**
 * Reads DIR/results.jsonl. A missing file is a StudioError `no_run`; a bad line is an issue
 * (kept, counted by the caller), never a throw; lines without `image` are left out.
 */
export async function readRunPictures(
  dir: string,
): Promise<{ label: string; records: RunPicture[]; issues: LineIssue[] }> {
  const file = join(dir, 'results.jsonl');
  let text: string | null;
  try {
    // Not readFile: a FIFO named results.jsonl would park a thread for ever (issue 35).
    text = await readInputTextFile(file);
  } catch (err) {
    throw new StudioError('no_run', (err as Error).message);
  }
  if (text === null) throw new StudioError('no_run', `${file}: no such file`);
  const { lines, issues } = readJsonLines(text, file);
  const records: RunPicture[] = [];
  for (const { line, value } of lines) {
    const r = PictureLine.safeParse(value);
    if (!r.success) {
      issues.push({ file, line, code: 'bad_shape', message: zodMessage(r.error) });
      continue;
    }
    if (r.data.image === undefined) continue;
    records.push({
      id: r.data.id,
      prompt_id: r.data.prompt_id,
      prompt: r.data.prompt ?? '',
      run: r.data.run !== undefined && r.data.run !== '' ? r.data.run : undefined,
      image: r.data.image,
    });
  }
  // Like eval runs: the records' single run name, else the directory's name.
  const runs = [...new Set(records.map((r) => r.run).filter((r) => r !== undefined))];
  const label =
    runs.length === 1 ? runs[0]! : basename(dir.replace(/(?<![/\\])[/\\]+$/, '')) || dir;
  return { label, records, issues };
}
