// Extraction on realistic completions (fixtures/*.txt, real Fluent Emoji SVGs inside) and
// on the edge cases the formats produce: nesting, several answers, truncation, hostile size.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { extractArtifact, locateArtifact } from './extract.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** The icon the fixture generator embedded, re-indented the same way. */
function iconIn(text: string, name: string): boolean {
  const id = fluentEmoji().find((c) => c.name === name);
  if (!id) throw new Error(`no icon ${name}`);
  const firstPath = / d="([^"]{20})/.exec(id.svg)?.[1];
  return firstPath !== undefined && text.includes(firstPath);
}

describe('extractArtifact on realistic completions', () => {
  it('Qwen-style <think> with a draft inside: the fenced SVG after it is the answer', async () => {
    const a = await extractArtifact(fixture('qwen-think-fence.txt'));
    expect(a.found).toBe(true);
    expect(a.source).toBe('fence_svg');
    expect(iconIn(a.svg!, 'hot-beverage')).toBe(true);
    expect(a.svg).not.toContain('width="16" height="14"'); // the draft from the reasoning
    expect(a.svg!.startsWith('<svg')).toBe(true);
    expect(a.svg!.endsWith('</svg>')).toBe(true);
    expect(a.reasoning).toContain('user wants a hot drink');
    expect(a.reasoning).not.toContain('Here is the SVG');
    expect(a.tokens.reasoning).toBeGreaterThan(50);
    expect(a.tokens.completion).toBeGreaterThan(a.tokens.svg + a.tokens.reasoning);
  });

  it('DeepSeek-style lone </think>: text before it is reasoning; XML prolog and comment kept', () => {
    const a = locateArtifact(fixture('deepseek-lone-close.txt'));
    expect(a.found).toBe(true);
    expect(a.source).toBe('fence_xml');
    expect(
      a.svg!.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!-- red apple -->\n<svg'),
    ).toBe(true);
    expect(a.reasoning.startsWith('The user asks for')).toBe(true);
    expect(a.reasoning).not.toContain('</think>');
  });

  it('GPT-style prose around a fence, with `<svg>` mentioned in the prose', () => {
    const a = locateArtifact(fixture('gpt-prose-fence.txt'));
    expect(a.found).toBe(true);
    expect(a.source).toBe('fence_svg');
    expect(iconIn(a.svg!, 'cat-face')).toBe(true);
    expect(a.reasoning).toBe('');
  });

  it('CRLF line endings and upper-case tags and fence info', () => {
    const a = locateArtifact(fixture('crlf-uppercase.txt'));
    expect(a.found).toBe(true);
    expect(a.source).toBe('fence_svg');
    expect(a.svg!.startsWith('<SVG ')).toBe(true);
    expect(a.svg!.endsWith('</SVG>')).toBe(true);
    expect(a.svg).toContain('\r\n');
  });

  it('no closing </svg> is truncated', async () => {
    const a = await extractArtifact(fixture('truncated.txt'));
    expect(a.found).toBe(false);
    expect(a.error?.code).toBe('truncated');
    expect(a.svg).toBeUndefined();
    expect(a.tokens.completion).toBeGreaterThan(100);
  });

  it('an SVG inside an HTML page, fenced and bare', () => {
    const fenced = locateArtifact(fixture('html-page-fence.txt'));
    expect(fenced.source).toBe('fence_html');
    expect(iconIn(fenced.svg!, 'house')).toBe(true);
    expect(fenced.svg).not.toContain('<body');
    expect(fenced.dwt.stages).toEqual([]); // "<style>" in the page is not a DwT stage
    const bare = locateArtifact(fixture('html-page-bare.txt'));
    expect(bare.source).toBe('html_page');
    expect(iconIn(bare.svg!, 'sun')).toBe(true);
    expect(bare.svg).not.toContain('</body>');
  });

  it('<answer> wrapper after reasoning', () => {
    const a = locateArtifact(fixture('answer-tags.txt'));
    expect(a.source).toBe('answer_tag');
    expect(iconIn(a.svg!, 'umbrella')).toBe(true);
    expect(a.svg).not.toContain('answer>');
  });

  it('DwT written as markdown headings before the code (Reason-SVG format, no <think>)', () => {
    const a = locateArtifact(fixture('dwt-headings.txt'));
    expect(a.found).toBe(true);
    expect(a.dwt).toEqual({
      stages: [
        'concept_sketching',
        'canvas_planning',
        'shape_decomposition',
        'coordinate_calculation',
        'styling_and_colouring',
        'final_assembly',
      ],
      complete: true,
      ordered: true,
      beforeSvg: true,
      valid: true,
    });
  });

  it('DwT as a mixed numbered list inside <think>, then a bare SVG', () => {
    const a = locateArtifact(fixture('dwt-numbered-think.txt'));
    expect(a.source).toBe('inline');
    expect(iconIn(a.svg!, 'bicycle')).toBe(true);
    expect(a.dwt.stages).toHaveLength(6);
    expect(a.dwt.valid).toBe(true);
  });

  it('empty <think> (thinking off) with "Stage N - …" prose stages', () => {
    const a = locateArtifact(fixture('qwen-nothink-dwt.txt'));
    expect(a.reasoning.trim()).toBe('');
    expect(a.dwt.stages).toHaveLength(6);
    expect(a.dwt.valid).toBe(true);
    expect(iconIn(a.svg!, 'light-bulb')).toBe(true);
  });

  it('several SVGs: the last complete one, not a later truncated attempt', () => {
    const a = locateArtifact(fixture('several-svgs.txt'));
    expect(a.found).toBe(true);
    expect(iconIn(a.svg!, 'sun')).toBe(true);
    expect(a.svg).not.toContain('M12 14');
  });

  it('an SVG only inside the reasoning is not an answer', () => {
    const a = locateArtifact(fixture('reasoning-only.txt'));
    expect(a.found).toBe(false);
    expect(a.error?.code).toBe('no_svg');
    expect(a.error?.message).toMatch(/reasoning/);
    expect(a.reasoning).toContain('<svg');
  });

  it('nested <svg>: the outer element is the answer', () => {
    const a = locateArtifact(fixture('nested-svg.txt'));
    expect(a.svg!.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="64"')).toBe(true);
    expect(a.svg!.match(/<\/svg>/g)).toHaveLength(2);
  });

  it('a fence left open at the end still yields its complete SVG', () => {
    const a = locateArtifact(fixture('unclosed-fence.txt'));
    expect(a.source).toBe('fence_svg');
    expect(iconIn(a.svg!, 'umbrella')).toBe(true);
  });

  it('a bare <svg> in prose', () => {
    const a = locateArtifact(fixture('bare-inline.txt'));
    expect(a.source).toBe('inline');
    expect(a.svg!.endsWith('</svg>')).toBe(true);
    expect(a.svg).not.toContain('Hope');
  });

  it('nothing SVG-like, and empty, are no_svg', async () => {
    expect(locateArtifact(fixture('no-svg.txt')).error?.code).toBe('no_svg');
    const empty = await extractArtifact(fixture('empty.txt'));
    expect(empty.error?.code).toBe('no_svg');
    expect(empty.tokens).toEqual({ completion: 0, svg: 0, reasoning: 0 });
  });
});

describe('extractArtifact edge cases', () => {
  const S = '<svg viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';

  it('is case-insensitive for <think>, <svg> and <answer>', () => {
    const a = locateArtifact(`<THINK>x ${S}</Think><Answer><SVG a="1"><g/></Svg></ANSWER>`);
    expect(a.svg).toBe('<SVG a="1"><g/></Svg>');
    expect(a.source).toBe('answer_tag');
    expect(a.reasoning).toBe(`x ${S}`);
  });

  it('an unclosed <think> means the completion ended while reasoning', () => {
    const a = locateArtifact(`<think>planning ${S} and then`);
    expect(a.error?.code).toBe('truncated');
  });

  it('prefers an <answer> block over an SVG written after it', () => {
    const a = locateArtifact(`<answer>${S}</answer>\nFor comparison: <svg><circle r="1"/></svg>`);
    expect(a.svg).toBe(S);
  });

  // Issue 11 item 4: a texture tile closed inside an outer <svg> that ran out of tokens
  // was returned as the answer (found: true), and the report showed the tile.
  const tile =
    '<svg width="8" height="8" viewBox="0 0 8 8"><path d="M0 8L8 0" stroke="#6b4" stroke-width="1"/></svg>';
  const cutShort =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">\n  <defs>\n' +
    `    <pattern id="grass" width="8" height="8" patternUnits="userSpaceOnUse">\n      ${tile}\n    </pattern>\n` +
    '  </defs>\n  <rect width="512" height="512" fill="url(#grass)"/>\n  <path d="M120 300 C 140 250, 180 240, 2';

  it('a closed <svg> inside an outer one that never closes is truncated, not the answer', () => {
    const fenced = locateArtifact(
      `Here is a meadow with a textured ground.\n\n\`\`\`svg\n${cutShort}`,
    );
    expect(fenced.found).toBe(false);
    expect(fenced.error?.code).toBe('truncated');
    const bare = locateArtifact(`<think>grass texture, then a cow</think>\n${cutShort}`);
    expect(bare.error?.code).toBe('truncated');
    const tagged = locateArtifact(`<answer>\n${cutShort}`);
    expect(tagged.error?.code).toBe('truncated');
    // A nested <svg> as a direct child of the unfinished drawing is part of it too.
    const child = locateArtifact(
      `<svg viewBox="0 0 9 9">\n<rect width="9" height="9"/>\n${tile}\n<circle r="`,
    );
    expect(child.error?.code).toBe('truncated');
  });

  it('an earlier complete drawing still wins over a later attempt cut short around a tile', () => {
    const a = locateArtifact(`First try:\n${S}\nA richer version:\n${cutShort}`);
    expect(a.svg).toBe(S);
  });

  it('a stray "<svg>" mention before the real one does not swallow it', () => {
    const a = locateArtifact(`I use an <svg> root with a viewBox.\n${S}\nDone.`);
    expect(a.svg).toBe(S);
    expect(locateArtifact(`The root element \`<svg>\`:\n${S}`).svg).toBe(S);
    expect(locateArtifact(`Here is the <svg>\n${S}`).svg).toBe(S);
  });

  it('an SVG in inline code after the drawing is a mention, not the answer', () => {
    const a = locateArtifact(
      `\`\`\`svg\n${S}\n\`\`\`\nNote: an empty \`<svg></svg>\` draws nothing.`,
    );
    expect(a.svg).toBe(S);
    // …but when it is all there is, it is what the model gave.
    expect(locateArtifact('Use `<svg></svg>`.').svg).toBe('<svg></svg>');
  });

  it('tags inside XML comments are commented-out code', () => {
    const svg =
      '<svg viewBox="0 0 9 9"><!-- was: <svg width="9"> --><circle r="4"/><!-- </svg> --></svg>';
    expect(locateArtifact(`Here:\n${svg}\n`).svg).toBe(svg);
    expect(locateArtifact(`<!-- ${S} --> nothing else`).error?.code).toBe('no_svg');
  });

  it('ignores <svgfoo> and finds a ">" inside a quoted attribute', () => {
    const svg = '<svg data-x="a>b"><text>1 > 0</text></svg>';
    const a = locateArtifact(`<svgfoo> ${svg}`);
    expect(a.svg).toBe(svg);
  });

  it('a self-closing <svg/> is complete (and empty)', () => {
    expect(locateArtifact('Here: <svg xmlns="http://www.w3.org/2000/svg"/>').svg).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
  });

  it('keeps a DOCTYPE with an internal subset, but not an HTML doctype', () => {
    const doc = '<!DOCTYPE svg [ <!ENTITY ns "http://www.w3.org/2000/svg"> ]>\n';
    expect(locateArtifact(`x\n${doc}${S}`).svg).toBe(doc + S);
    expect(locateArtifact(`<!DOCTYPE html><html><body>${S}</body></html>`).svg).toBe(S);
  });

  it('does not take a prolog separated from the SVG by other text', () => {
    expect(locateArtifact(`<?xml version="1.0"?> hello ${S}`).svg).toBe(S);
  });

  it('"</svg >" with a space closes the element', () => {
    expect(locateArtifact('<svg><g/></svg >').svg).toBe('<svg><g/></svg >');
  });

  it('a fence mentioned inline in prose is not an opener', () => {
    const a = locateArtifact(`Wrap it in \`\`\`svg fences like this:\n\`\`\`svg\n${S}\n\`\`\``);
    expect(a.svg).toBe(S);
    expect(a.source).toBe('fence_svg');
  });

  it('never throws on non-string input', () => {
    expect(locateArtifact(undefined as unknown as string).error?.code).toBe('no_svg');
  });
});

describe('extractArtifact on hostile sizes', () => {
  const cases: [string, () => string][] = [
    ['2 MB of unclosed "<svg "', () => '<svg '.repeat(400_000)],
    ['2 MB of "<svg></svg>" pairs', () => '<svg></svg>'.repeat(190_000)],
    ['2 MB of backtick runs on one line', () => '``` a '.repeat(350_000)],
    ['2 MB of think/answer tags', () => '<think>a</think><answer>'.repeat(90_000)],
    ['2 MB inside one start tag with quotes', () => `<svg a="${'x"y="'.repeat(400_000)}`],
    ['2 MB of "</svg" without ">"', () => `${'</svg   '.repeat(250_000)}`],
    ['2 MB of comments around tags', () => '<svg><!-- </svg> -->'.repeat(100_000)],
    ['2 MB after an unclosed comment', () => `<svg><!-- ${'<svg></svg>'.repeat(180_000)}`],
  ];
  for (const [name, make] of cases) {
    it(`${name} extracts quickly`, () => {
      const text = make();
      expect(text.length).toBeGreaterThan(1_900_000);
      const t = performance.now();
      const a = locateArtifact(text);
      const ms = performance.now() - t;
      expect(typeof a.found).toBe('boolean');
      // A quadratic scan would take minutes here; the bound leaves room for a busy machine.
      expect(ms).toBeLessThan(5000);
    });
  }

  it('a 2 MB realistic completion: tokens estimated beyond the exact prefix', async () => {
    const icons = fluentEmoji(400).map((c) => c.svg);
    let body = '';
    while (body.length < 2_000_000) body += `${icons.join('\n')}\n`;
    const text = `<think>long</think>\n\`\`\`svg\n<svg viewBox="0 0 32 32">\n${body}</svg>\n\`\`\``;
    const t = performance.now();
    const a = await extractArtifact(text);
    expect(performance.now() - t).toBeLessThan(5000);
    expect(a.found).toBe(true);
    expect(a.svg!.length).toBeGreaterThan(2_000_000);
    expect(a.tokens.estimated).toBe(true);
    expect(a.tokens.svg).toBeGreaterThan(400_000);
  });
});
