// inspectCompletion end to end: real completions, the real isolated render pool, checks.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderPool, type RenderPool } from '../render/index.ts';
import { inspectCompletion, inspectionToJson } from './inspect.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../artifact/fixtures/${name}`, import.meta.url), 'utf8');

let pool: RenderPool;
beforeAll(() => {
  pool = createRenderPool({ workers: 1 });
});
afterAll(async () => {
  await pool.close();
});

describe('inspectCompletion', () => {
  it('renders the answer SVG of every realistic completion that has one', async () => {
    const found = [
      'qwen-think-fence.txt',
      'deepseek-lone-close.txt',
      'gpt-prose-fence.txt',
      'html-page-fence.txt',
      'html-page-bare.txt',
      'answer-tags.txt',
      'dwt-headings.txt',
      'dwt-numbered-think.txt',
      'qwen-nothink-dwt.txt',
      'several-svgs.txt',
      'nested-svg.txt',
      'unclosed-fence.txt',
      'bare-inline.txt',
    ];
    for (const name of found) {
      const ins = await inspectCompletion(fixture(name), { renderer: pool, prompt: 'an icon' });
      expect(ins.artifact.found, name).toBe(true);
      expect(ins.render?.ok, name).toBe(true);
      expect(ins.summary.renders, name).toBe(true);
      expect(ins.summary.blank, name).toBe(false);
      expect(ins.summary.text_in_image, name).toBe(false);
      expect(ins.summary.clutter, name).toBe(false);
      expect(ins.summary.output_tokens, name).toBe(ins.artifact.tokens.completion);
    }
  });

  it('upper-case tags are extracted but are not SVG to an XML parser', async () => {
    const ins = await inspectCompletion(fixture('crlf-uppercase.txt'), { renderer: pool });
    expect(ins.artifact.found).toBe(true);
    expect(ins.render?.ok).toBe(false);
    expect(ins.render && !ins.render.ok && ins.render.error.code).toBe('parse_error');
  });

  it('no answer: nothing is rendered, the artifact error says why', async () => {
    for (const [name, code] of [
      ['truncated.txt', 'truncated'],
      ['reasoning-only.txt', 'no_svg'],
      ['empty.txt', 'no_svg'],
    ] as const) {
      const ins = await inspectCompletion(fixture(name), { renderer: pool });
      expect(ins.render, name).toBeNull();
      expect(ins.artifact.error?.code, name).toBe(code);
      expect(ins.summary.renders, name).toBe(false);
      const json = inspectionToJson(ins) as { render: { ok: boolean; error: { code: string } } };
      expect(json.render.ok).toBe(false);
      expect(json.render.error.code).toBe(code);
    }
  });

  it('DwT stages flow into the summary', async () => {
    const ins = await inspectCompletion(fixture('dwt-headings.txt'), { renderer: pool });
    expect(ins.summary.dwt_valid).toBe(true);
    expect(ins.summary.dwt_stages).toHaveLength(6);
  });

  it('honours render options (size, background)', async () => {
    const ins = await inspectCompletion(fixture('bare-inline.txt'), {
      renderer: pool,
      render: { size: 64, background: '#000000' },
    });
    expect(ins.render?.ok && [ins.render.width, ins.render.height]).toEqual([64, 64]);
  });

  it('a renderer that rejects (closed pool) becomes a render_error value, not a throw', async () => {
    const closed = createRenderPool({ workers: 1 });
    await closed.close();
    const ins = await inspectCompletion(fixture('bare-inline.txt'), { renderer: closed });
    expect(ins.render?.ok).toBe(false);
    expect(ins.render && !ins.render.ok && ins.render.error.code).toBe('render_error');
    expect(ins.summary.renders).toBe(false);
  });

  it('bundled examples: the hacks are flagged on exactly the rollouts that carry them', async () => {
    const lines = readFileSync(new URL('../../examples/rollouts.jsonl', import.meta.url), 'utf8');
    const flagged: Record<string, string[]> = { text_in_image: [], clutter: [], blank: [] };
    for (const line of lines.trim().split('\n')) {
      const r = JSON.parse(line) as { id: string; prompt: string; completion: string };
      const ins = await inspectCompletion(r.completion, { renderer: pool, prompt: r.prompt });
      if (ins.summary.text_in_image) flagged.text_in_image!.push(r.id);
      if (ins.summary.clutter) flagged.clutter!.push(r.id);
      if (ins.summary.blank) flagged.blank!.push(r.id);
    }
    // examples/README.md: p08#1 writes the prompt's words, p03#1 is 320 decorative strokes.
    expect(flagged).toEqual({ text_in_image: ['p08#1'], clutter: ['p03#1'], blank: [] });
  });

  it('JSON view carries the numbers behind the flags, without PNG bytes', async () => {
    const ins = await inspectCompletion(fixture('gpt-prose-fence.txt'), {
      renderer: pool,
      prompt: 'a cat face',
    });
    const json = inspectionToJson(ins);
    const text = JSON.stringify(json);
    expect(text.length).toBeLessThan(20_000);
    expect(json).toMatchObject({
      artifact: { found: true, source: 'fence_svg', error: null },
      render: { ok: true, width: 512, height: 512 },
      checks: {
        blank: { flag: false, unit: 'mse' },
        text_in_image: { flag: false, value: 0 },
        clutter: { flag: false },
      },
    });
  });

  it('sends the render before counting tokens, so the two overlap', async () => {
    // A renderer that records when it is called and answers with the real pool. The call
    // must come in the same tick as inspectCompletion, not after the token count resolves.
    const calls: string[] = [];
    const renderer = {
      render: (svg: string | Uint8Array) => {
        calls.push(typeof svg === 'string' ? svg.slice(0, 4) : 'bytes');
        return pool.render(svg);
      },
      close: async () => {},
    };
    const pending = inspectCompletion(fixture('qwen-think-fence.txt'), { renderer });
    expect(calls).toEqual(['<svg']);
    const ins = await pending;
    expect(ins.render?.ok).toBe(true);
    expect(ins.artifact.tokens.svg).toBeGreaterThan(0);
  });
});
