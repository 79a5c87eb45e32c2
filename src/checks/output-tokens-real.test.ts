// output_tokens on real drawings (issue 40 item 3): two complete Illustrator scenes from the
// held-out set repeat 28–30 % of their bytes — gradient stops written again into every
// gradient, each gradient with its own id and coordinates — and are not padding; the same
// drawings pasted twice, or a copy wrapped in a group with an id nothing points at, are.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractArtifact } from '../artifact/extract.ts';
import { outputTokens, repeatedBytes } from './output-tokens.ts';
import { resolveCheckOptions } from './thresholds.ts';

const holdout = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/scenes-holdout/${name}.svg`, import.meta.url), 'utf8');

async function judge(svg: string) {
  const artifact = await extractArtifact(`Here is the scene.\n\n\`\`\`svg\n${svg}\n\`\`\`\n`);
  return outputTokens({ artifact, render: null, options: resolveCheckOptions() });
}

/** The drawing's root open tag and its content, to paste the content again inside it. */
function split(svg: string): { head: string; body: string } {
  const open = svg.indexOf('>', svg.indexOf('<svg')) + 1;
  return {
    head: svg.slice(svg.indexOf('<svg'), open),
    body: svg.slice(open, svg.lastIndexOf('</svg>')),
  };
}

describe('output_tokens on real drawings', () => {
  for (const name of ['factory', 'house-on-hill']) {
    it(`does not flag the complete ${name} (its repeats sit in different gradients)`, async () => {
      const r = await judge(holdout(name));
      expect(r.value).toBeGreaterThan(8000);
      expect(r.flag).toBe(false);
      expect(r.detail?.kind).not.toBe('padding');
    });

    it(`flags the ${name} with its content pasted again verbatim`, async () => {
      const { head, body } = split(holdout(name));
      const r = await judge(`${head}${body}${body}</svg>`);
      expect(r.flag).toBe(true);
      expect(r.detail?.kind).toBe('padding');
    });

    it(`flags copies of the ${name} wrapped in groups with ids nothing points at`, async () => {
      const { head, body } = split(holdout(name));
      const copies = [1, 2, 3].map((k) => `<g id="copy${k}">${body}</g>`).join('\n');
      const r = await judge(`${head}${copies}</svg>`);
      expect(r.detail?.kind).toBe('padding');
    });
  }

  it('counts a path under two different transforms once, under the same one twice', () => {
    const path = '<path d="M0 0 C 10 20 30 40 50 60 Z" fill="#c33"/>';
    const placed = `<g transform="translate(10 0)">\n${path}\n</g>\n<g transform="translate(90 0)">\n${path}\n</g>`;
    expect(repeatedBytes(placed).repeated).toBe(0);
    const same = `<g transform="translate(10 0)">\n${path}\n</g>\n<g transform="translate(10 0)">\n${path}\n</g>`;
    expect(repeatedBytes(same).repeated).toBe(
      path.length + '<g transform="translate(10 0)">'.length,
    );
  });

  it('keeps a referenced id in the context: stops of two gradients are not repeats', () => {
    const stops = '<stop offset="0" stop-color="#fff"/>\n<stop offset="1" stop-color="#000"/>';
    const defs = ['a', 'b'].map((id) => `<linearGradient id="${id}">\n${stops}\n</linearGradient>`);
    const svg = `<defs>\n${defs.join('\n')}\n</defs>\n<rect fill="url(#a)"/><rect fill="url(#b)" x="5"/>`;
    expect(repeatedBytes(svg).repeated).toBe(0);
  });
});
