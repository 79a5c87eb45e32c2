// openRulerSynthRun and openPrismaSynthRun with their own real render pool and SQLite cache,
// the author and judge played by the model double over loopback HTTP: a rubric kept when its
// ideal scores high, dropped when it scores low; the second run answered from the cache; the
// PrismaForge run's default domain used only when a line names none.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authorAnswerFor, jointAnswer, schemaKeys } from '../../test/score/support/fixtures.ts';
import { fluentEmoji } from '../../test/support/corpus.ts';
import {
  jsonAnswer,
  type ModelDouble,
  schemaAnswerer,
  startModelDouble,
} from '../../test/support/model-double.ts';
import { createModelClient } from '../models/client.ts';
import { openPrismaSynthRun, openRulerSynthRun } from './run.ts';

const ICON = fluentEmoji(1)[0]!.svg;
const dir = mkdtempSync(join(tmpdir(), 'rubrica-synth-run-'));
let double: ModelDouble;

beforeAll(async () => {
  double = await startModelDouble();
});
afterAll(() => double?.close());
beforeEach(() => double.reset());

const client = (role: 'author' | 'judge') =>
  createModelClient(`openai-compatible:${role}`, {
    role,
    baseUrl: double.url,
    maxRetries: 0,
    env: {},
  });

describe('openRulerSynthRun', () => {
  it('keeps a rubric whose ideal scores high, drops a low one, and reuses the cache', async () => {
    double.script((req) => {
      if (req.text.includes('Draw the best SVG you can'))
        return { content: `\`\`\`svg\n${ICON}\n\`\`\`` };
      if (req.text.includes('You write grading rubrics'))
        return jsonAnswer(authorAnswerFor('thing'));
      const low = req.text.includes('a low one');
      return jsonAnswer(jointAnswer(schemaKeys(req), Array(6).fill(low ? 0.5 : 1)));
    });
    const cache = join(dir, 'ruler.sqlite');
    const open = () =>
      openRulerSynthRun({
        author: client('author'),
        judge: client('judge'),
        mode: 'joint',
        preset: 'ruler',
        minIdeal: 0.9,
        domain: 'svg',
        cache,
        renderer: 'resvg',
      });
    const run = open();
    try {
      const good = await run.synthesize({ id: 'g', prompt: 'a good one' });
      expect(good).toMatchObject({ id: 'g', preset: 'ruler', kept: true, ideal_score: 1 });
      expect(good.items).toHaveLength(6);
      const low = await run.synthesize({ id: 'l', prompt: 'a low one' });
      expect(low).toMatchObject({ kept: false, ideal_score: 0.5 });
    } finally {
      await run.close();
    }
    const calls = double.requests.length;
    const again = open();
    try {
      expect(await again.synthesize({ id: 'g', prompt: 'a good one' })).toMatchObject({
        kept: true,
      });
    } finally {
      await again.close();
    }
    expect(double.requests.length).toBe(calls);
  });
});

describe('openPrismaSynthRun', () => {
  it("uses the run's domain for lines that name none, and the line's own otherwise", async () => {
    double.script(schemaAnswerer({ seed: 3 }).handler);
    const run = openPrismaSynthRun({ author: client('author'), domain: 'html', cache: false });
    try {
      const a = await run.synthesize({ id: 'a', prompt: 'a bar chart of three fruits' });
      const b = await run.synthesize({ id: 'b', prompt: 'a red fox', domain: 'svg' });
      expect(a).toMatchObject({ id: 'a', preset: 'prisma', domain: 'html' });
      expect(b).toMatchObject({ id: 'b', preset: 'prisma', domain: 'svg' });
      expect(a.kept).toBe(true);
    } finally {
      await run.close();
    }
  });
});
