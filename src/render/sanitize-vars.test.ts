// var() substitution in the sanitiser: what librsvg receives must be what a browser would
// resolve (document-wide definitions, fallbacks, invalid → unset), scoped definitions are
// left alone for Chromium, and a substituted value still passes the CSS cleaner.
import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './sanitize.ts';
import { customProperties, hasScopedVar } from './sanitize-vars.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const clean = (body: string, rootStyle = '') => {
  const r = sanitizeSvg(`<svg ${NS}${rootStyle ? ` style="${rootStyle}"` : ''}>${body}</svg>`);
  if (!r.ok) throw new Error(r.error.message);
  return { svg: r.svg, removed: r.code.removed };
};

describe('custom properties', () => {
  it('substitutes :root definitions in sheets, style="" and presentation attributes', () => {
    const { svg } = clean(
      '<style>:root{--main:#f60;--alt:hsl(200 80% 40%)}.x{fill:var(--main)}</style>' +
        '<rect class="x"/><circle style="fill:var( --alt )"/><path fill="var(--main)"/>',
    );
    expect(svg).toContain('.x{fill:#f60}');
    expect(svg).toContain('style="fill:hsl(200 80% 40%)"');
    expect(svg).toContain('<path fill="#f60"/>');
    expect(svg).not.toMatch(/fill:var|fill="var/);
  });

  it("reads the root element's style and chains of references", () => {
    const { svg } = clean('<rect fill="var(--d)"/>', '--c: red; --d: var(--c)');
    expect(svg).toContain('<rect fill="red"/>');
  });

  it('uses the fallback for undefined names and cycles; unset when there is none', () => {
    const { svg } = clean(
      '<style>svg{--a:var(--b)}svg{--b:var(--a)}' +
        'rect{fill:var(--a,green);stroke:var(--nope, rgb(1, 2, 3))}circle{fill:var(--nope)}</style>' +
        '<rect/><circle/><path fill="var(--nope)" stroke="blue"/>',
    );
    expect(svg).toContain('rect{fill:green;stroke:rgb(1,2,3)}');
    expect(svg).toContain('circle{fill:unset}');
    expect(svg).toContain('<path stroke="blue"/>'); // invalid presentation attribute: gone
  });

  it(':root beats svg whatever the order; a later rule of equal rank wins', () => {
    const { svg } = clean(
      '<style>:root{--c:red}svg{--c:blue}svg{--d:blue}svg{--d:lime}</style>' +
        '<rect fill="var(--c)"/><circle fill="var(--d)"/>',
    );
    expect(svg).toContain('<rect fill="red"/>');
    expect(svg).toContain('<circle fill="lime"/>');
  });

  it('leaves names defined in a narrower scope to Chromium', () => {
    const doc = `<svg ${NS}><style>:root{--a:red}.b{--b:blue}</style><g style="--c: lime"><rect fill="var(--c)"/></g><rect fill="var(--b)"/><rect fill="var(--a)"/></svg>`;
    const r = sanitizeSvg(doc);
    expect(r.ok && r.svg).toContain('fill="var(--c)"');
    expect(r.ok && r.svg).toContain('fill="var(--b)"');
    expect(r.ok && r.svg).toContain('<rect fill="red"/>');
    expect(hasScopedVar(doc)).toBe(true);
    expect(
      hasScopedVar(`<svg ${NS}><style>:root{--a:red}</style><rect fill="var(--a)"/></svg>`),
    ).toBe(false);
    expect(customProperties('<svg><rect fill="red"/></svg>')).toBeNull();
    // Only the outermost <svg>'s style="" is document-wide, not a nested one's.
    const nested = customProperties(
      `<svg ${NS}><svg style="--n: red"><rect fill="var(--n)"/></svg></svg>`,
    );
    expect(nested?.scoped.has('--n')).toBe(true);
    expect(nested?.values.has('--n')).toBe(false);
  });

  it('a substituted value still goes through the cleaner (no url() fetch)', () => {
    const { svg, removed } = clean(
      '<style>:root{--bg:url(https://example.com/x.png)}rect{fill:var(--bg)}</style><rect/>',
    );
    expect(svg).not.toContain('example.com');
    expect(removed).toContain('css:url');
  });

  it('counts a filter applied through var() into the filter budget', () => {
    // librsvg now applies it, so the bomb bounds must see the substituted url(#f).
    // The same file with filter="url(#f)" is refused in render-budget.test.ts.
    const blur = `<filter id="f">${'<feGaussianBlur stdDeviation="3"/>'.repeat(3)}</filter>`;
    const rects = '<rect class="g" width="9" height="9"/>'.repeat(60);
    const outcome = (svg: string) => {
      const r = sanitizeSvg(svg, { size: 512 });
      return r.ok ? 'ok' : r.error.message;
    };
    const root = `<svg ${NS} viewBox="0 0 100 100"`;
    expect(
      outcome(`${root}><style>:root{--f:url(#f)}.g{filter:var(--f)}</style>${blur}${rects}</svg>`),
    ).toMatch(/filter passes/);
    expect(
      outcome(
        `${root} style="--f: url(#f)">${blur}${'<rect filter="var(--f)"/>'.repeat(60)}</svg>`,
      ),
    ).toMatch(/filter passes/);
    expect(outcome(`${root}>${blur}${rects}</svg>`)).toBe('ok'); // no filter applied
  });

  it('bounds a doubling chain instead of expanding it', () => {
    const defs = Array.from({ length: 30 }, (_, i) => `--v${i + 1}:var(--v${i}) var(--v${i})`);
    const { svg } = clean(
      `<style>svg{--v0:1px;${defs.join(';')}}rect{stroke-width:var(--v30)}</style><rect/>`,
    );
    expect(svg).toContain('rect{stroke-width:unset}');
    expect(svg.length).toBeLessThan(4000);
  });
});
