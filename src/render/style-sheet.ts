// The paint a drawing's own <style> sheets give its elements, for the frame walk
// (frame-shapes.ts), which reads the document as written. A model often styles a figure by
// class — `.ln { fill: none; stroke: #203040 }` on every path of a line-art toucan — and a
// walk reading presentation attributes and style="" alone takes those paths for shapes filled
// black (the initial fill). Only simple selectors are read: a tag, a class, an id, a
// compound of them (`path.ln`) or `*`, in comma lists; a rule with any other selector
// (descendants, children, pseudo-classes, attributes) is left out, as are !important and
// the nesting of at-rules (their inner rules are read as if at the top level). The cascade
// is CSS's: a sheet's declaration beats a presentation attribute, style="" beats the sheet,
// and among rules the more specific, then the later, wins.
import type { XNode } from './walker.ts';

/** The properties the frame walk reads: paint, opacity, visibility, effects. */
const READ = new Set([
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'opacity',
  'display',
  'visibility',
  'filter',
  'clip-path',
  'mask',
]);

/** Sheets longer than this (characters, all together) are not read: a bound on work. */
const MAX_SHEET = 200_000;

interface Rule {
  tag?: string;
  id?: string;
  classes: string[];
  specificity: number;
  order: number;
  decls: [string, string][];
}

export interface StyleSheet {
  /**
   * The attributes to read an element's paint from: its own, with the sheet's declarations
   * over its presentation attributes (style="" still wins: styleOf reads it first). The same
   * object when no rule matches.
   */
  styled(tag: string, a: Record<string, string>): Record<string, string>;
}

const tagName = (n: XNode) => Object.keys(n).find((k) => k !== ':@') ?? '';

/** The text of every <style> element of the document, in document order. */
function sheetText(root: XNode): string {
  const out: string[] = [];
  let size = 0;
  const visit = (n: XNode, depth: number) => {
    if (depth > 200 || size > MAX_SHEET) return;
    const tag = tagName(n);
    const kids = Array.isArray(n[tag]) ? (n[tag] as XNode[]) : [];
    if (tag.replace(/^.*:/, '') === 'style') {
      const text = kids.map((c) => (typeof c['#text'] === 'string' ? c['#text'] : '')).join('');
      size += text.length;
      out.push(text);
      return;
    }
    for (const k of kids) visit(k, depth + 1);
  };
  visit(root, 0);
  return size > MAX_SHEET ? '' : out.join('\n');
}

/** One compound selector (`path.ln`, `#beak`, `.a.b`, `*`), or null for any other. */
function simple(sel: string): Omit<Rule, 'order' | 'decls'> | null {
  const m = /^(\*|[A-Za-z][\w-]*)?((?:[.#][A-Za-z_-][\w-]*)*)$/.exec(sel.trim());
  if (!m || sel.trim() === '') return null;
  const rule: Omit<Rule, 'order' | 'decls'> = { classes: [], specificity: 0 };
  if (m[1] && m[1] !== '*') {
    rule.tag = m[1];
    rule.specificity += 1;
  }
  for (const part of m[2]!.match(/[.#][^.#]+/g) ?? []) {
    if (part[0] === '#') {
      if (rule.id !== undefined && rule.id !== part.slice(1)) return null;
      rule.id = part.slice(1);
      rule.specificity += 10_000;
    } else {
      rule.classes.push(part.slice(1));
      rule.specificity += 100;
    }
  }
  return rule;
}

/**
 * The text with every comment blanked, in one pass. (A lazy regex over "/*" repeated with no
 * end restarts at each one: quadratic on a hostile sheet.)
 */
export function withoutComments(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf('/*', at);
    if (open < 0) return out + text.slice(at);
    out += `${text.slice(at, open)} `;
    const close = text.indexOf('*/', open + 2);
    if (close < 0) return out;
    at = close + 2;
  }
}

/**
 * Each innermost block of the sheet — `{` whose next brace is `}` — with the selector text
 * before it (back to the previous brace, `@` or `;`), so the inner rules of an at-rule read as
 * if at the top level. One pass, each character looked at a bounded number of times: the regex
 * this replaces, /([^{}@;]*)\{([^{}]*)\}/g, restarted its selector scan at every character
 * and took 23 s on a 190,000-character sheet with no rule in it (a policy's answer, in the
 * render worker's time limit).
 */
export function* blocks(css: string): Generator<[string, string]> {
  let close = -1;
  let open = css.indexOf('{');
  while (open >= 0) {
    if (close <= open) {
      close = css.indexOf('}', open + 1);
      if (close < 0) return;
    }
    const next = css.indexOf('{', open + 1);
    if (next >= 0 && next < close) {
      open = next; // an at-rule or a broken block: its inner block is read instead
      continue;
    }
    let from = open;
    while (from > 0 && !'{}@;'.includes(css[from - 1]!)) from--;
    yield [css.slice(from, open), css.slice(open + 1, close)];
    open = next;
  }
}

/** The rules of a sheet the frame walk can apply. */
function rulesOf(text: string): Rule[] {
  const rules: Rule[] = [];
  const css = withoutComments(text);
  let order = 0;
  for (const [selectors, body] of blocks(css)) {
    const decls: [string, string][] = [];
    for (const d of body.split(';')) {
      const k = d.indexOf(':');
      if (k < 0) continue;
      const prop = d.slice(0, k).trim().toLowerCase();
      const value = d.slice(k + 1).trim();
      if (!READ.has(prop) || value === '' || /!\s*important/i.test(value)) continue;
      decls.push([prop, value]);
    }
    if (decls.length === 0) continue;
    for (const sel of selectors.split(',')) {
      const r = simple(sel);
      if (r) rules.push({ ...r, order: order++, decls });
    }
  }
  return rules.sort((a, b) => a.specificity - b.specificity || a.order - b.order);
}

/** The document's sheets, or null when it has none the frame walk can apply. */
export function readStyleSheet(root: XNode): StyleSheet | null {
  const text = sheetText(root);
  if (!text.includes('{')) return null;
  const rules = rulesOf(text);
  if (rules.length === 0) return null;
  return {
    styled(tag, a) {
      let out: Record<string, string> | null = null;
      const classes = a.class ? a.class.trim().split(/\s+/) : [];
      for (const r of rules) {
        if (r.tag !== undefined && r.tag !== tag) continue;
        if (r.id !== undefined && r.id !== a.id) continue;
        if (!r.classes.every((c) => classes.includes(c))) continue;
        out ??= { ...a };
        for (const [prop, value] of r.decls) out[prop] = value;
      }
      return out ?? a;
    },
  };
}
