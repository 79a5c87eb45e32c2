// A complete drawing whose comments hold reasoning tags, answer tags or fence lines is
// extracted whole (issue 41: it was zeroed as `truncated`); a truly cut one still is not.
import { describe, expect, it } from 'vitest';
import { locateArtifact } from './extract.ts';
import { maskSvgComments } from './mask-comments.ts';

const SVG = (inner: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${inner}<circle r="4"/></svg>`;

describe('comments inside a drawing', () => {
  it.each([
    ['<think>', SVG('<!-- <think> plan -->')],
    ['</think>', SVG('<!-- done </think> -->')],
    ['a fence line', SVG('<!--\n```\nnotes\n```\n-->')],
    ['a fence line in CDATA', SVG('<style><![CDATA[\n```\n]]></style>')],
    ['an answer tag', SVG('<!-- </answer> <answer> -->')],
  ])('holding %s: the complete SVG is the answer, unchanged', (_, svg) => {
    for (const completion of [svg, `Here:\n\`\`\`svg\n${svg}\n\`\`\``, `<think>ok</think>${svg}`]) {
      const a = locateArtifact(completion);
      expect(a.error).toBeUndefined();
      expect(a.svg).toBe(svg);
    }
  });

  it('a truly cut answer is still truncated', () => {
    const cut = '<svg viewBox="0 0 10 10"><!-- <think> --><circle r="4"/>';
    expect(locateArtifact(cut).error?.code).toBe('truncated');
    expect(locateArtifact('<svg><!-- ``` --><circle/>\n```\n').error?.code).toBe('truncated');
    expect(locateArtifact('<svg><circle/>\n<think>still drawing').error?.code).toBe('truncated');
  });

  it('keeps the length and leaves text outside a drawing alone', () => {
    const text = '<!-- <think> --> before <svg><!-- <think> --></svg> after <!-- x -->';
    const masked = maskSvgComments(text);
    expect(masked).toHaveLength(text.length);
    expect(masked).toBe(
      `<!-- <think> --> before <svg><!--${' '.repeat(9)}--></svg> after <!-- x -->`,
    );
  });
});
