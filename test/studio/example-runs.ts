// Two eval-like runs made from the bundled example rollouts (real Fluent Emoji drawings,
// MIT, see examples/LICENSES.md): samples 0 and 2 play "model-a", sample 1 "model-b". The
// SVGs are rendered with resvg, so studio screenshots show real pictures.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const ROLLOUTS = new URL('../../examples/rollouts.jsonl', import.meta.url);

export async function exampleRuns(): Promise<{ root: string; runs: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'rubrica-studio-ex-'));
  const lines = (await readFile(ROLLOUTS, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const byRun = new Map<string, string[]>();
  for (const line of lines) {
    const r = JSON.parse(line) as {
      id: string;
      prompt_id: string;
      prompt: string;
      sample: number;
      completion: string;
    };
    const svg = /<svg[\s\S]*?<\/svg>/i.exec(r.completion)?.[0];
    if (!svg) continue;
    const run = r.sample === 1 ? 'model-b' : 'model-a';
    const dir = join(root, run);
    await mkdir(join(dir, 'images'), { recursive: true });
    const safe = r.id.replace('#', '_');
    let png: Buffer;
    try {
      png = Buffer.from(
        new Resvg(svg, { fitTo: { mode: 'width', value: 256 }, background: 'white' })
          .render()
          .asPng(),
      );
    } catch {
      continue;
    }
    await writeFile(join(dir, 'images', `${safe}.png`), png);
    const record = {
      id: r.id,
      prompt_id: r.prompt_id,
      prompt: r.prompt,
      run,
      image: `images/${safe}.png`,
      // A made-up judge score, varied but fixed, so align has decided votes to show.
      scores: {
        universal: {
          id: r.id,
          reward: (([...r.id].reduce((h, c) => h * 31 + c.charCodeAt(0), 7) >>> 0) % 97) / 100,
          status: 'ok',
        },
      },
    };
    byRun.set(run, [...(byRun.get(run) ?? []), JSON.stringify(record)]);
  }
  const runs: string[] = [];
  for (const [run, recs] of byRun) {
    await writeFile(join(root, run, 'results.jsonl'), `${recs.join('\n')}\n`);
    runs.push(join(root, run));
  }
  return { root, runs: runs.sort() };
}
