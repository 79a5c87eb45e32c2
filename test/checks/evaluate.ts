// Runs the real pipeline (extract → isolated render pool → runChecks) over the labelled
// set and counts, per flag, false positives on clean drawings and recall on the planted
// hacks of that flag's kind. Shared by the slow test and by `node --import tsx` runs that
// print the table while tuning.
import { extractArtifact } from '../../src/artifact/extract.ts';
import { runChecks } from '../../src/checks/run-checks.ts';
import type { CheckResult } from '../../src/checks/types.ts';
import { createRenderPool } from '../../src/render/index.ts';
import type { Flag, LabelledItem } from './labelled-set.ts';

export const FLAGS: readonly Flag[] = ['text_in_image', 'clutter', 'clipped', 'ink_coverage'];

export interface Outcome {
  item: LabelledItem;
  checks: CheckResult[];
  flags: Set<string>;
}

export interface FlagFigures {
  flag: Flag;
  clean: number;
  falsePositives: number;
  fpRate: number;
  hacks: number;
  caught: number;
  recall: number;
}

export async function evaluate(items: LabelledItem[], workers = 2): Promise<Outcome[]> {
  const pool = createRenderPool({ workers });
  try {
    return await Promise.all(
      items.map(async (item) => {
        const artifact = await extractArtifact(`\`\`\`svg\n${item.svg}\n\`\`\``);
        // A generous time limit, and one retry: this measures the checks, and a render that
        // times out on a loaded machine (fontconfig's first use, eight agents on two cores)
        // would count as an unflagged drawing.
        let render = artifact.svg ? await pool.render(artifact.svg, { timeoutMs: 60_000 }) : null;
        if (render && !render.ok && render.error.code === 'timeout')
          render = await pool.render(artifact.svg!, { timeoutMs: 60_000 });
        const checks = runChecks(artifact, render, item.prompt);
        const flags = new Set(checks.filter((c) => c.flag === true).map((c) => c.name));
        return { item, checks, flags };
      }),
    );
  } finally {
    await pool.close();
  }
}

export function figures(outcomes: Outcome[]): FlagFigures[] {
  return FLAGS.map((flag) => {
    const clean = outcomes.filter((o) => o.item.hack === undefined);
    const hacks = outcomes.filter((o) => o.item.hack === flag);
    const falsePositives = clean.filter((o) => o.flags.has(flag)).length;
    const caught = hacks.filter((o) => o.flags.has(flag)).length;
    return {
      flag,
      clean: clean.length,
      falsePositives,
      fpRate: clean.length === 0 ? 0 : falsePositives / clean.length,
      hacks: hacks.length,
      caught,
      recall: hacks.length === 0 ? 0 : caught / hacks.length,
    };
  });
}

/** False positives per clean family, for the table (where the errors are). */
export function fpByFamily(outcomes: Outcome[], flag: Flag): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of outcomes) {
    if (o.item.hack !== undefined) continue;
    const [n, k] = (out[o.item.family] ?? '0/0').split('/').map(Number) as [number, number];
    out[o.item.family] = `${n + (o.flags.has(flag) ? 1 : 0)}/${k + 1}`;
  }
  return out;
}

export function table(rows: FlagFigures[], outcomes: Outcome[]): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  const lines = ['flag            FP (clean)          recall (planted)   FP by clean family'];
  for (const r of rows) {
    const fam = Object.entries(fpByFamily(outcomes, r.flag))
      .map(([k, v]) => `${k.replace('clean:', '')} ${v}`)
      .join(', ');
    lines.push(
      `${r.flag.padEnd(15)} ${`${r.falsePositives}/${r.clean} ${pct(r.fpRate)}`.padEnd(19)} ${`${r.caught}/${r.hacks} ${pct(r.recall)}`.padEnd(18)} ${fam}`,
    );
  }
  return lines.join('\n');
}
