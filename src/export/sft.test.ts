// SFT export: joining rollouts with scores, the threshold, assistant content (reasoning +
// SVG), system messages, best-per-prompt, skip reasons; and the CLI end to end.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { registerSft } from '../cli/commands/export-sft.ts';
import { UsageError } from '../cli/usage-error.ts';
import { loadDwtSystemPrompt } from './dwt-prompt.ts';
import {
  assistantContent,
  type SftRollout,
  type SftScore,
  sftExamples,
  writeSftParquet,
} from './sft.ts';

const [apple, cat, sun] = fluentEmoji(3).map((c) => c.svg);

const DWT = `## 1. Concept Sketching
A round red apple with a short stem and one leaf.
## 2. Canvas Planning
viewBox 0 0 32 32, apple centred, 80% of the canvas.
## 3. Shape Decomposition
Body: path; stem: rect; leaf: ellipse.
## 4. Coordinate Calculation
Body centre (16, 18), radius 12; stem at (16, 4).
## 5. Styling and Colouring
#E53935 body, #6D4C41 stem, #43A047 leaf.
## 6. Final Assembly
Body first, then stem, then leaf.`;

const dwtCompletion = `${DWT}\n\n\`\`\`svg\n${apple}\n\`\`\`\n\nHope you like it! Let me know if you want changes.`;
const thinkCompletion = `<think>\nThe user wants a cat. I will draw its head and ears.\n</think>\nHere is the icon:\n${cat}`;

const rollouts: SftRollout[] = [
  { id: 'p1#0', prompt_id: 'p1', prompt: 'a red apple with a leaf', completion: dwtCompletion },
  {
    id: 'p1#1',
    prompt_id: 'p1',
    prompt: 'a red apple with a leaf',
    completion: `\`\`\`svg\n${sun}\n\`\`\``,
  },
  { id: 'p2#0', prompt_id: 'p2', prompt: null, completion: thinkCompletion },
  { id: 'p2#1', prompt_id: 'p2', prompt: null, completion: 'I cannot draw that.' },
  { id: 'p3#0', prompt_id: 'p3', prompt: 'a sun', error: { code: 'http_error', message: '500' } },
  {
    id: 'p3#1',
    prompt_id: 'p3',
    prompt: 'a sun',
    completion: `<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>`,
  },
  { id: 'p3#2', prompt_id: 'p3', prompt: 'a sun', completion: sun! },
];
const score = (id: string, reward: number, extra: Partial<SftScore> = {}): SftScore => ({
  id,
  reward,
  status: 'ok',
  reward_kind: 'hybrid',
  ...extra,
});
const scores: SftScore[] = [
  score('p1#0', 0.81, { checks: { dwt_valid: true } }),
  score('p1#1', 0.72),
  score('p2#0', 0.9),
  score('p2#1', 0, { status: 'unscoreable' }),
  score('p3#1', 0.4),
  score('p3#2', 0.95, { reward_kind: 'ruler' }),
];

describe('assistantContent', () => {
  it('keeps the DwT prose and the SVG in a fence, and drops chatter after the SVG', () => {
    const text = assistantContent(dwtCompletion)!;
    expect(text.startsWith('## 1. Concept Sketching')).toBe(true);
    expect(text.endsWith(`\`\`\`svg\n${apple!.trim()}\n\`\`\``)).toBe(true);
    expect(text).not.toContain('Hope you like it');
    // The model's own fence opener is replaced, not doubled.
    expect(text.match(/```svg/g)).toHaveLength(1);
  });

  it('keeps a <think> block as written; svg and full modes', () => {
    const text = assistantContent(thinkCompletion)!;
    expect(text).toMatch(/^<think>\nThe user wants a cat/);
    expect(text).toContain('</think>\nHere is the icon:\n\n```svg\n<svg');
    expect(assistantContent(thinkCompletion, 'svg')).toBe(`\`\`\`svg\n${cat!.trim()}\n\`\`\``);
    expect(assistantContent(thinkCompletion, 'full')).toBe(thinkCompletion);
    expect(assistantContent('no drawing here')).toBeNull();
  });
});

describe('assistantContent in other domains', () => {
  const py = 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])';
  const pyCompletion = `I will plot a line.\n\n\`\`\`py\n${py}\n\`\`\`\n\nDone!`;

  it("puts the domain's code in the domain's own fence, after the reasoning", () => {
    expect(assistantContent(pyCompletion, 'dwt', 'python')).toBe(
      `I will plot a line.\n\n\`\`\`python\n${py}\n\`\`\``,
    );
    expect(assistantContent(pyCompletion, 'svg', 'python')).toBe(`\`\`\`python\n${py}\n\`\`\``);
    const vl = '{"mark": "bar", "encoding": {}}';
    expect(assistantContent(`\`\`\`json\n${vl}\n\`\`\``, 'svg', 'vega-lite')).toBe(
      `\`\`\`vega-lite\n${vl}\n\`\`\``,
    );
  });

  it('is null when the completion holds no code of that domain', () => {
    expect(assistantContent(pyCompletion, 'dwt', 'latex')).toBeNull();
    expect(assistantContent('I cannot plot that.', 'dwt', 'python')).toBeNull();
  });
});

describe('sftExamples', () => {
  const prompts = new Map([['p2', 'a cat face']]);

  it('keeps ok rollouts at or above the threshold, with the reason for every skip', () => {
    const { examples, summary } = sftExamples(rollouts, scores, { minReward: 0.72, prompts });
    expect(examples.map((e) => e.messages[0]!.content)).toEqual([
      'a red apple with a leaf',
      'a red apple with a leaf',
      'a cat face',
      'a sun',
    ]);
    expect(summary).toMatchObject({
      rollouts: 7,
      written: 4,
      skipped: { unscoreable: 1, rollout_error: 1, below_min_reward: 1 },
    });
    for (const e of examples) {
      expect(e.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(e.messages[1]!.content).not.toBe('');
    }
  });

  it('filters by reward kind, DwT validity and best-per-prompt; adds system and meta', () => {
    const system = loadDwtSystemPrompt();
    expect(system.version).toMatch(/^[0-9a-f]{16}$/);
    const hybridOnly = sftExamples(rollouts, scores, {
      minReward: 0,
      rewardKind: 'hybrid',
      prompts,
    });
    expect(hybridOnly.summary.skipped.no_score).toBe(1); // p3#2 has only a ruler score
    expect(hybridOnly.summary.skipped.rollout_error).toBe(1);

    const dwtOnly = sftExamples(rollouts, scores, {
      minReward: 0,
      requireDwt: true,
      system: system.text,
      withMeta: true,
      prompts,
    });
    expect(dwtOnly.examples).toHaveLength(1);
    const [ex] = dwtOnly.examples;
    expect(ex!.messages[0]).toEqual({ role: 'system', content: system.text });
    expect(ex!.meta).toEqual({
      id: 'p1#0',
      prompt_id: 'p1',
      reward: 0.81,
      reward_kind: 'hybrid',
      domain: 'svg',
    });

    const best = sftExamples(rollouts, scores, {
      minReward: 0,
      bestPerPrompt: 1,
      withMeta: true,
      prompts,
    });
    expect(best.examples.map((e) => e.meta!.id)).toEqual(['p1#0', 'p2#0', 'p3#2']);
    expect(best.summary.skipped.not_best).toBe(2); // p1#1 and p3#1
  });

  it("exports every domain's rollouts, the domain given or detected, and records it", () => {
    const tikz = '\\begin{tikzpicture}\\draw (0,0) -- (1,1);\\end{tikzpicture}';
    const mixed: SftRollout[] = [
      { id: 'a', prompt: 'a line plot', completion: '```python\nimport matplotlib\n```' },
      {
        id: 'b',
        prompt: 'a diagonal',
        completion: `\`\`\`latex\n${tikz}\n\`\`\``,
        domain: 'latex',
      },
      // Declared python, but no python code in it: skipped as no_code, never exported as text.
      {
        id: 'c',
        prompt: 'a bar chart',
        completion: '```dot\ndigraph { a -> b }\n```',
        domain: 'python',
      },
      { id: 'd', prompt: 'a sun', completion: sun! },
    ];
    const { examples, summary } = sftExamples(
      mixed,
      ['a', 'b', 'c', 'd'].map((id) => score(id, 1)),
      { minReward: 0.5, withMeta: true },
    );
    expect(examples.map((e) => [e.meta!.id, e.meta!.domain])).toEqual([
      ['a', 'python'],
      ['b', 'latex'],
      ['d', 'svg'],
    ]);
    expect(examples[0]!.messages[1]!.content).toBe('```python\nimport matplotlib\n```');
    expect(examples[1]!.messages[1]!.content).toBe(`\`\`\`latex\n${tikz}\n\`\`\``);
    expect(summary.skipped).toEqual({ no_code: 1 });
  });

  it('skips a rollout whose prompt text is unknown', () => {
    const { summary } = sftExamples(rollouts, scores, { minReward: 0 });
    expect(summary.skipped.no_prompt).toBe(1);
  });
});

describe('parquet output (for verl SFT)', () => {
  it('writes a messages column that reads back as the same examples', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-sftpq-'));
    try {
      const { examples } = sftExamples(rollouts, scores, {
        minReward: 0,
        system: 'You draw SVG.',
        prompts: new Map([['p2', 'a cat face']]),
      });
      const file = join(dir, 'sft.parquet');
      writeSftParquet(file, examples);
      const back = await parquetReadObjects({ file: await asyncBufferFromFile(file) });
      expect(back).toEqual(examples.map((e) => ({ messages: e.messages })));
      // With meta, a domain column follows the messages.
      const meta = sftExamples(rollouts, scores, {
        minReward: 0,
        withMeta: true,
        prompts: new Map([['p2', 'a cat face']]),
      }).examples;
      writeSftParquet(file, meta);
      const withDomain = await parquetReadObjects({ file: await asyncBufferFromFile(file) });
      expect(withDomain).toEqual(meta.map((e) => ({ messages: e.messages, domain: 'svg' })));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rubrica export sft (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-sft-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, lines: unknown[]) => {
    const p = join(dir, name);
    writeFileSync(p, `${lines.map((l) => `${JSON.stringify(l)}\n`).join('')}{"torn": \n`);
    return p;
  };
  const run = (...args: string[]) =>
    spawnSync('node', ['bin/rubrica.js', 'export', 'sft', ...args], { encoding: 'utf8' });

  it('writes chat-messages JSONL and reports skips and unreadable lines', () => {
    const r = write('rollouts.jsonl', rollouts);
    const s = write('scores.jsonl', scores);
    const p = write('prompts.jsonl', [{ id: 'p2', prompt: 'a cat face' }]);
    const out = join(dir, 'sft.jsonl');
    const res = run(
      '--rollouts',
      r,
      '--scores',
      s,
      '--prompts',
      p,
      '--min-reward',
      '0.8',
      '--out',
      out,
      '--dwt',
    );
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toContain('wrote 3 of 7 rollouts');
    expect(res.stderr).toMatch(/rollouts\.jsonl:8: not valid JSON/);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    for (const l of lines) {
      expect(Object.keys(l)).toEqual(['messages']);
      expect(l.messages.map((m: { role: string }) => m.role)).toEqual([
        'system',
        'user',
        'assistant',
      ]);
      expect(l.messages[0].content).toContain('## 1. Concept Sketching');
    }
  });

  it('refuses bad flags (usage errors, exit 2) and sets exit 1 when nothing passes', async () => {
    // In-process through commander, like main.ts does; one spawned run above covers the binary.
    const parse = async (...args: string[]) => {
      const group = new Command('export').exitOverride();
      let exit = 0;
      registerSft(group, (c) => {
        exit = Math.max(exit, c);
      });
      await group.parseAsync(['sft', ...args], { from: 'user' });
      return exit;
    };
    const r = write('r2.jsonl', rollouts);
    const s = write('s2.jsonl', scores);
    const out = join(dir, 'none.jsonl');
    await expect(
      parse('--rollouts', r, '--scores', s, '--min-reward', 'high', '--out', out),
    ).rejects.toThrow(UsageError);
    await expect(
      parse('--rollouts', join(dir, 'missing'), '--scores', s, '--min-reward', '0', '--out', out),
    ).rejects.toThrow(/no such file/);
    await expect(
      parse('--rollouts', r, '--scores', s, '--min-reward', '0', '--out', out, '--content', 'html'),
    ).rejects.toThrow(/--content/);
    expect(await parse('--rollouts', r, '--scores', s, '--min-reward', '2', '--out', out)).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('');
  });
});

describe('assistantContent on a hostile completion', () => {
  it('drops a dangling fence opener after a long run of tabs in linear time', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>';
    const completion = `think\n\`\`\`\t${'\t'.repeat(200_000)}\`\`\`svg\n${svg}\n\`\`\``;
    const t = performance.now();
    const out = assistantContent(completion, 'dwt');
    expect(performance.now() - t).toBeLessThan(1_000);
    expect(out?.endsWith(`\`\`\`svg\n${svg}\n\`\`\``)).toBe(true);
    expect(assistantContent(`plan\n\`\`\`svg \n  ${svg}`, 'dwt')).toBe(
      `plan\n\n\`\`\`svg\n${svg}\n\`\`\``,
    );
  });
});
