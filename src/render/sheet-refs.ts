// References made from <style> sheets: `.glow { filter: url(#blur) }` applies a filter to
// every element of class "glow", which the element's own attributes never show. The render
// cost bound (walker.ts) needs those references per element, so the sheets are read once
// before the walk and each rule becomes a matcher on the subject compound of its selectors
// (type, classes, id). Anything else in a selector (attributes, pseudo-classes, what the
// combinators require of ancestors) is ignored, so a matcher matches at least every element
// the renderer would style: the bound over-counts, never under-counts.
import type { CssPlain } from 'css-tree';
import { cssTree } from './css-tree-lazy.ts';

/** Properties whose url(#id) re-draws the referenced element per use. */
export const REF_PROPERTIES = new Set([
  'filter',
  'mask',
  'clip-path',
  'fill',
  'stroke',
  'marker',
  'marker-start',
  'marker-mid',
  'marker-end',
]);

interface Matcher {
  type: string | null;
  id: string | null;
  classes: string[];
}

export interface SheetRefRule {
  matchers: Matcher[];
  ids: string[];
}

function subjectMatcher(selector: CssPlain): Matcher {
  const nodes = (selector.children as CssPlain[]) ?? [];
  let start = 0;
  nodes.forEach((n, i) => {
    if (n.type === 'Combinator') start = i + 1;
  });
  const m: Matcher = { type: null, id: null, classes: [] };
  for (const n of nodes.slice(start)) {
    if (n.type === 'TypeSelector' && n.name !== '*') m.type = String(n.name).replace(/^.*\|/, '');
    else if (n.type === 'IdSelector') m.id = String(n.name);
    else if (n.type === 'ClassSelector') m.classes.push(String(n.name));
  }
  return m;
}

function urlIds(value: unknown, out: string[]): void {
  if (!value || typeof value !== 'object') return;
  const node = value as CssPlain;
  if (node.type === 'Url' && String(node.value).startsWith('#'))
    out.push(String(node.value).slice(1));
  for (const c of (node.children as CssPlain[] | undefined) ?? []) urlIds(c, out);
}

function collect(list: CssPlain[], out: SheetRefRule[]): void {
  for (const node of list) {
    if (node.type === 'Atrule' && node.block) {
      collect(((node.block as CssPlain).children as CssPlain[]) ?? [], out);
      continue;
    }
    if (node.type !== 'Rule') continue;
    const ids: string[] = [];
    for (const d of ((node.block as CssPlain).children as CssPlain[]) ?? []) {
      if (d.type === 'Declaration' && REF_PROPERTIES.has(String(d.property).toLowerCase())) {
        urlIds(d.value, ids);
      }
    }
    if (ids.length === 0) continue;
    const prelude = node.prelude as CssPlain;
    const selectors = prelude.type === 'SelectorList' ? (prelude.children as CssPlain[]) : [];
    // A prelude css-tree could not read matches everything: over-count, never under-count.
    const matchers = selectors.length > 0 ? selectors.map(subjectMatcher) : [];
    out.push({
      matchers: matchers.length > 0 ? matchers : [{ type: null, id: null, classes: [] }],
      ids,
    });
  }
}

/** Reference rules of already-cleaned sheets (css.ts output). */
export function sheetRefRules(sheets: string[]): SheetRefRule[] {
  const out: SheetRefRule[] = [];
  for (const css of sheets) {
    if (!css.includes('url(')) continue;
    try {
      const ast = cssTree().toPlainObject(
        cssTree().parse(css, { positions: false }),
      ) as unknown as CssPlain;
      collect((ast.children as CssPlain[]) ?? [], out);
    } catch {
      // Cleaned CSS always parses; nothing to add if it somehow does not.
    }
  }
  return out;
}

/** Ids the sheets make this element reference (each once per matching rule). */
export function sheetRefsFor(
  rules: SheetRefRule[],
  local: string,
  attrs: Record<string, string>,
): string[] {
  if (rules.length === 0) return [];
  const classes = attrs.class ? attrs.class.split(/\s+/).filter(Boolean) : [];
  const out: string[] = [];
  for (const rule of rules) {
    const hit = rule.matchers.some(
      (m) =>
        (m.type === null || m.type === local) &&
        (m.id === null || m.id === attrs.id) &&
        m.classes.every((c) => classes.includes(c)),
    );
    if (hit) out.push(...rule.ids);
  }
  return out;
}
