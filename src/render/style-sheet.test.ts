// The paint a document's <style> sheets give its elements (style-sheet.ts), as the frame walk
// reads it: simple selectors, CSS's cascade (sheet over presentation attribute, style="" over
// the sheet, specificity then order among rules), other selectors left out.
import { describe, expect, it } from 'vitest';
import { styleOf } from './overdraw.ts';
import { readStyleSheet } from './style-sheet.ts';
import type { XNode } from './walker.ts';

/** A root holding one <style> element with `css`. */
const rootWith = (css: string): XNode => ({
  svg: [{ style: [{ '#text': css }] }],
  ':@': { viewBox: '0 0 10 10' },
});

describe('readStyleSheet', () => {
  it('applies class, tag, id and compound rules over presentation attributes', () => {
    const sheet = readStyleSheet(
      rootWith(
        '.ln { fill: none; stroke: #123 } path.thick { stroke-width: 6 } #a { opacity: .4 }',
      ),
    )!;
    const a = sheet.styled('path', { class: 'ln thick', id: 'a', fill: 'red', d: 'M0 0' });
    expect(styleOf(a, 'fill')).toBe('none');
    expect(styleOf(a, 'stroke')).toBe('#123');
    expect(styleOf(a, 'stroke-width')).toBe('6');
    expect(styleOf(a, 'opacity')).toBe('.4');
    // A circle of class `thick` is not a path.
    expect(styleOf(sheet.styled('circle', { class: 'thick' }), 'stroke-width')).toBeUndefined();
  });

  it('lets style="" win over the sheet, and the more specific rule over the later one', () => {
    const sheet = readStyleSheet(
      rootWith('#b { fill: blue } .c { fill: green } .c { fill: none }'),
    )!;
    expect(styleOf(sheet.styled('rect', { class: 'c' }), 'fill')).toBe('none');
    expect(styleOf(sheet.styled('rect', { class: 'c', id: 'b' }), 'fill')).toBe('blue');
    expect(styleOf(sheet.styled('rect', { class: 'c', style: 'fill:#fff' }), 'fill')).toBe('#fff');
  });

  it('leaves out selectors it does not read, comments and properties it does not need', () => {
    const sheet = readStyleSheet(
      rootWith(
        '/* .x { fill: none } */ g path { fill: none } .x:hover { fill: none } .x { font-size: 9px }',
      ),
    );
    expect(sheet).toBeNull();
    expect(readStyleSheet({ svg: [], ':@': {} })).toBeNull();
  });

  it("returns the element's own attributes when no rule matches", () => {
    const sheet = readStyleSheet(rootWith('.ln { fill: none }'))!;
    const a = { class: 'other', fill: 'red' };
    expect(sheet.styled('path', a)).toBe(a);
  });

  it('reads the inner rules of an at-rule, and a rule after an unclosed comment is gone', () => {
    const sheet = readStyleSheet(
      rootWith(
        '@media screen { .ln { fill: none; stroke: #203040 } } .b { fill: red } /* .c { fill: blue }',
      ),
    )!;
    expect(styleOf(sheet.styled('path', { class: 'ln' }), 'fill')).toBe('none');
    expect(styleOf(sheet.styled('path', { class: 'b' }), 'fill')).toBe('red');
    expect(styleOf(sheet.styled('path', { class: 'c' }), 'fill')).toBeUndefined();
  });

  it('reads a hostile sheet in linear time: no rule, or comment openers, 190,000 characters', () => {
    // The regex it replaced took 23 s on the first (2-core VM); one pass takes milliseconds.
    const t0 = performance.now();
    expect(readStyleSheet(rootWith(`${'x'.repeat(190_000)}@{}`))).toBeNull();
    expect(readStyleSheet(rootWith(`${'/*'.repeat(95_000)}{}`))).toBeNull();
    const sheet = readStyleSheet(rootWith(`${'{'.repeat(95_000)}.ln { fill: none }`));
    expect(styleOf(sheet!.styled('path', { class: 'ln' }), 'fill')).toBe('none');
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});
