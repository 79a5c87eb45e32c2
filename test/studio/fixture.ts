// Two small eval runs for studio tests: the same prompts drawn by two "models", each picture
// a distinct solid-colour PNG (so a test can tell which picture is where), written as real
// run directories (results.jsonl + images/) the way `rubrica eval` leaves them.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

export interface StudioFixture {
  root: string;
  runs: string[];
}

const PROMPTS = [
  'a red apple',
  'a blue whale',
  'a yellow sun',
  'a green tree',
  'a grey cat',
  'a pink flower',
];

export async function makeRuns(
  opts: { prompts?: number; samples?: number } = {},
): Promise<StudioFixture> {
  const root = await mkdtemp(join(tmpdir(), 'rubrica-studio-'));
  const runs: string[] = [];
  const prompts = PROMPTS.slice(0, opts.prompts ?? 6);
  for (const [m, model] of ['model-a', 'model-b'].entries()) {
    const dir = join(root, model);
    await mkdir(join(dir, 'images'), { recursive: true });
    const lines: string[] = [];
    for (const [p, prompt] of prompts.entries()) {
      for (let s = 0; s < (opts.samples ?? 2); s++) {
        const id = `p${p}#${s}`;
        const image = `images/${id}.png`;
        const colour = { r: 40 + p * 35, g: m === 0 ? 60 + s * 80 : 200 - s * 80, b: m * 200 + 20 };
        await sharp({ create: { width: 64, height: 64, channels: 3, background: colour } })
          .png()
          .toFile(join(dir, image));
        lines.push(
          JSON.stringify({
            id,
            prompt_id: `p${p}`,
            prompt,
            run: model,
            image,
            scores: { universal: { id, reward: (m + 1) * 0.3 + s * 0.1 + p * 0.01, status: 'ok' } },
          }),
        );
      }
    }
    await writeFile(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
    runs.push(dir);
  }
  return { root, runs };
}
