// Turning `--pred name=file` arguments into judges: a file is one judge, unless it has a
// `judge` column, in which case each value of that column is a judge of its own (a study's
// spreadsheet often holds every judge's votes in one sheet).
import type { JudgeInput } from './align-table.ts';
import { parsePredictionLines, type ReadOptions } from './stats/align-input.ts';
import type { JsonLine } from './stats/jsonl.ts';
import { readRecords } from './stats/table-input.ts';

/** `name=path` → {name, path}; a bare path is named by its file name without extension. */
export function parsePredSpec(spec: string): { name: string; path: string } {
  const eq = spec.indexOf('=');
  // A Windows drive or a path with '=' in a directory name is still a path when no name precedes.
  if (eq > 0 && !spec.slice(0, eq).includes('/'))
    return { name: spec.slice(0, eq), path: spec.slice(eq + 1) };
  const base =
    spec
      .replace(/(?<![/\\])[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? spec;
  return { name: base.replace(/\.(jsonl|csv|tsv|json)$/i, '') || spec, path: spec };
}

const judgeOf = (value: unknown): string | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const j = (value as { judge?: unknown }).judge;
  return typeof j === 'string' || typeof j === 'number' ? String(j) : undefined;
};

/** One judge per file, or one per value of the file's `judge` column (named `name/value`). */
export function judgesFromText(
  name: string,
  text: string,
  opts: ReadOptions & { reward?: string; file: string },
): JudgeInput[] {
  const { lines, issues } = readRecords(text, opts.file, opts);
  const split = new Map<string, JsonLine[]>();
  let unnamed = 0;
  for (const l of lines) {
    const j = judgeOf(l.value);
    if (j === undefined) unnamed++;
    else split.set(j, [...(split.get(j) ?? []), l]);
  }
  if (split.size === 0 || unnamed > 0)
    return [{ name, predictions: parsePredictionLines(lines, issues, opts) }];
  return [...split].map(([judge, ls], i) => ({
    name: name === '' ? judge : `${name}/${judge}`,
    // Line-level issues of the file (bad JSON) are reported once, with the first judge.
    predictions: parsePredictionLines(ls, i === 0 ? issues : [], opts),
  }));
}

/**
 * Judges of the same name merged: `--pred j=runs/a --pred j=runs/b` is one judge that scored
 * both runs (a pairwise study compares pictures of two runs). The first score of an id wins.
 */
export function mergeJudges(judges: readonly JudgeInput[]): JudgeInput[] {
  const by = new Map<string, JudgeInput>();
  for (const j of judges) {
    const seen = by.get(j.name);
    if (!seen) {
      by.set(j.name, {
        name: j.name,
        predictions: {
          scores: new Map(j.predictions.scores),
          byRun: new Map(j.predictions.byRun),
          choices: [...j.predictions.choices],
          issues: [...j.predictions.issues],
          prompts: new Map(j.predictions.prompts ?? []),
        },
      });
      continue;
    }
    const p = seen.predictions;
    for (const [k, v] of j.predictions.scores) if (!p.scores.has(k)) p.scores.set(k, v);
    for (const [k, v] of j.predictions.byRun) if (!p.byRun.has(k)) p.byRun.set(k, v);
    p.choices.push(...j.predictions.choices);
    for (const [k, v] of j.predictions.prompts ?? []) if (!p.prompts!.has(k)) p.prompts!.set(k, v);
    p.issues.push(...j.predictions.issues);
  }
  return [...by.values()];
}
