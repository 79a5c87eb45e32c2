// Writes a probe run's outputs: probe.json (every figure, for scripts and CI) and card.html
// (the judge health card, one offline page).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHealthCard } from './card.ts';
import type { ProbeReport } from './types.ts';

/**
 * Writes DIR/probe.json and DIR/card.html (the health card) for a probe report, creating DIR;
 * resolves both paths.
 */
export async function writeProbeOutputs(
  dir: string,
  report: ProbeReport,
): Promise<{ json: string; card: string }> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'probe.json');
  const card = join(dir, 'card.html');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(card, renderHealthCard(report));
  return { json, card };
}
