// The Drawing-with-Thought prompt and `generate --dwt`: the prompt's six headings are what the
// stage detector counts as a structurally valid DwT, and `--dwt` sends the file verbatim as the
// system message (checked on the request the loopback model double received).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractArtifact } from '../../src/artifact/extract.ts';
import { DWT_STAGES } from '../../src/artifact/types.ts';
import { register as registerGenerate } from '../../src/cli/commands/generate.ts';
import { UsageError } from '../../src/cli/usage-error.ts';
import { DWT_SYSTEM_PROMPT_PATH, loadDwtSystemPrompt } from '../../src/export/dwt-prompt.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';

const [svg] = fluentEmoji(1).map((c) => c.svg);

describe('the DwT system prompt', () => {
  it('names the six stages as headings the stage detector accepts, in order', async () => {
    const { text, version } = loadDwtSystemPrompt();
    expect(version).toMatch(/^[0-9a-f]{16}$/);
    const headings = text.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toHaveLength(6);
    // A completion that follows the prompt: each heading, a line of plan, then the SVG.
    const completion = `${headings.map((h) => `${h}\nPlan for this stage.`).join('\n\n')}\n\n\`\`\`svg\n${svg}\n\`\`\``;
    const art = await extractArtifact(completion);
    expect(art.found).toBe(true);
    expect(art.dwt.stages).toEqual([...DWT_STAGES]);
    expect(art.dwt.valid).toBe(true);
    // Without the last two stages it is not valid DwT.
    const partial = await extractArtifact(
      `${headings.slice(0, 4).join('\n')}\n\`\`\`svg\n${svg}\n\`\`\``,
    );
    expect(partial.dwt.valid).toBe(false);
  });
});

describe('rubrica generate --dwt', () => {
  let double: ModelDouble;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rubrica-dwt-'));
    double = await startModelDouble({
      handler: () => ({ content: `## 1. Concept Sketching\nA cat.\n\`\`\`svg\n${svg}\n\`\`\`` }),
    });
  });
  afterAll(async () => {
    await double.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (...extra: string[]) => {
    const program = new Command('rubrica').exitOverride();
    let exit = 0;
    registerGenerate(program, (c) => {
      exit = Math.max(exit, c);
    });
    const prompts = join(dir, 'prompts.jsonl');
    writeFileSync(prompts, '{"id":"cat","prompt":"a cat face"}\n');
    await program.parseAsync(
      [
        'generate',
        '--prompts',
        prompts,
        '--policy',
        'openai-compatible:policy',
        '--policy-base-url',
        double.url,
        '--n',
        '2',
        ...extra,
      ],
      { from: 'user' },
    );
    return exit;
  };

  it('sends prompts/dwt/system.md verbatim as the system message', async () => {
    const out = join(dir, 'rollouts.jsonl');
    expect(await run('--dwt', '--out', out)).toBe(0);
    expect(double.requests).toHaveLength(2);
    for (const req of double.requests) {
      expect(req.messages[0]).toMatchObject({
        role: 'system',
        text: readFileSync(DWT_SYSTEM_PROMPT_PATH, 'utf8').trim(),
      });
      expect(req.messages[1]).toMatchObject({ role: 'user', text: 'a cat face' });
    }
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
  });

  it('refuses --dwt together with --system', async () => {
    await expect(run('--dwt', '--system', 'none', '--out', join(dir, 'x.jsonl'))).rejects.toThrow(
      UsageError,
    );
  });
});
