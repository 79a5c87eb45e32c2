// CSS custom properties (`--main: #f60` … `fill: var(--main)`), resolved before the CSS
// cleaner runs. librsvg and resvg leave var() unresolved (the shape draws black), Chromium
// resolves it, also in presentation attributes (`fill="var(--c)"`). LLM drawings define
// their palette this way on `:root`/`svg`, so the sanitiser substitutes those definitions
// and the fast renderers draw what a browser draws (issue 11).
//
// Only document-wide definitions are substituted: rules whose selectors all match the root
// (`:root`, `svg`, `html`, `*`, outside at-rules) and the root element's style="". A name
// also defined anywhere else (a class rule, a <g style="--c: …">) depends on the element's
// ancestry; it is left alone and `hasScopedVar` tells `auto` to send the file to Chromium.
// A reference to an undefined name without fallback, a cycle or a runaway expansion is
// "invalid at computed-value time": the declaration becomes `unset` (in a presentation
// attribute, the attribute goes), as in a browser. The result still goes through css.ts,
// which remains the only gate for what reaches a renderer.
import type { CssNode, CssPlain } from 'css-tree';
import { cssTree } from './css-tree-lazy.ts';

export interface CustomProperties {
  /** Document-wide definitions, by name (`--main` → `#f60`). */
  values: Map<string, string>;
  /** Names also defined in a scope narrower than the document: never substituted. */
  scoped: Set<string>;
}

const MAX_DEPTH = 16;
/**
 * The text of each <style> element, in one pass: a lazy `<style…>([\s\S]*?)</style>` scanned
 * to the end again from every opener without an end tag (quadratic on a hostile answer); here
 * an end tag missing after one opener is missing after every later one.
 */
function* styleSheets(text: string): Generator<string> {
  STYLE_OPEN.lastIndex = 0;
  for (let m = STYLE_OPEN.exec(text); m; m = STYLE_OPEN.exec(text)) {
    if (m[0].endsWith('/>')) continue;
    STYLE_CLOSE.lastIndex = STYLE_OPEN.lastIndex;
    const close = STYLE_CLOSE.exec(text);
    if (!close) return;
    yield text.slice(STYLE_OPEN.lastIndex, close.index);
    STYLE_OPEN.lastIndex = close.index + close[0].length;
  }
}

/** Longest text a substitution may produce (a `--a: var(--b) var(--b)` chain doubles). */
const MAX_EXPANDED = 16_384;
const VAR_CALL = /(?<![\w-])var\(/i;
const STYLE_OPEN = /<(?:[\w.-]+:)?style\b[^<>]*>/gi;
const STYLE_CLOSE = /<\/(?:[\w.-]+:)?style\s*>/gi;
// The tag name is taken whole (a lookahead then a backreference: no backtracking into it), and
// the scan for style= stops at the next '<' (never inside a well-formed tag): otherwise a
// name could end at every character and each '<' scanned to the end of the file.
const TAG_WITH_STYLE = /<(?=([\w.:-]+))\1[^<>]*?\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const DEFINITION = /(?:^|[;{\s])(--[\w-]+)\s*:/g;
// Selector → specificity rank for the root-matching selectors; anything else is scoped.
const ROOT_SELECTORS: Record<string, number> = {
  ':root': 2,
  'svg:root': 3,
  svg: 1,
  html: 1,
  '*': 0,
};

const rawValue = (v: CssPlain | undefined) =>
  v && typeof v.value === 'string' ? v.value.trim() : '';

/** Definitions of one sheet: root-scope ones with their rank, and scoped names. */
function sheetDefinitions(
  css: string,
  defs: { name: string; value: string; rank: number }[],
  scoped: Set<string>,
): void {
  let ast: CssNode;
  try {
    ast = cssTree().parse(css, { parseCustomProperty: false, parseValue: false });
  } catch {
    return;
  }
  const sheet = cssTree().toPlainObject(ast) as unknown as CssPlain;
  for (const node of (sheet.children as CssPlain[]) ?? []) {
    if (node.type !== 'Rule') {
      // Definitions inside @media/@supports apply conditionally: scoped.
      for (const m of cssTree()
        .generate(node as unknown as CssNode)
        .matchAll(DEFINITION)) {
        scoped.add(m[1]!);
      }
      continue;
    }
    const prelude = node.prelude as CssPlain;
    const selectors = cssTree()
      .generate(prelude as unknown as CssNode)
      .split(',')
      .map((s) => s.trim());
    const ranks = selectors.map((s) => ROOT_SELECTORS[s]);
    const rootRule = ranks.every((r) => r !== undefined);
    for (const d of ((node.block as CssPlain).children as CssPlain[]) ?? []) {
      const prop = typeof d.property === 'string' ? d.property : '';
      if (d.type !== 'Declaration' || !prop.startsWith('--')) continue;
      if (rootRule)
        defs.push({
          name: prop,
          value: rawValue(d.value as CssPlain),
          rank: Math.max(...(ranks as number[])),
        });
      else scoped.add(prop);
    }
  }
}

/**
 * The custom properties a document defines, read from its raw text (<style> sheets and
 * style="" attributes); null when it uses no var() at all (the common case, one regex).
 */
export function customProperties(text: string): CustomProperties | null {
  if (!VAR_CALL.test(text)) return null;
  const defs: { name: string; value: string; rank: number }[] = [];
  const scoped = new Set<string>();
  for (const sheet of styleSheets(text)) {
    const css = sheet.replace(/^\s*<!\[CDATA\[/, '').replace(/\]\]>\s*$/, '');
    if (css.includes('--')) sheetDefinitions(css, defs, scoped);
  }
  const rootAt = text.search(/<(?:[\w.-]+:)?svg[\s/>]/);
  for (const m of text.matchAll(TAG_WITH_STYLE)) {
    const style = m[2] ?? m[3] ?? '';
    const isRoot = m.index === rootAt;
    for (const d of style.matchAll(/(?<![\w-])(--[\w-]+)\s*:\s*([^;]*)/g)) {
      // The root's style="" beats every sheet rule (rank above any selector).
      if (isRoot) defs.push({ name: d[1]!, value: d[2]!.trim(), rank: 10 });
      else scoped.add(d[1]!);
    }
  }
  // Equal rank: the later rule wins (a stable sort keeps document order).
  defs.sort((a, b) => a.rank - b.rank);
  const values = new Map<string, string>();
  for (const d of defs) values.set(d.name, d.value);
  return { values, scoped };
}

/** True when some var() names a property defined in a narrower scope (not substituted). */
export function hasScopedVar(text: string): boolean {
  const props = customProperties(text);
  if (!props || props.scoped.size === 0) return false;
  for (const m of text.matchAll(/(?<![\w-])var\(\s*(--[\w-]+)/gi)) {
    if (props.scoped.has(m[1]!)) return true;
  }
  return false;
}

/** Index of the `)` closing the `(` before `from`, or -1. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Index of the first comma at nesting depth 0, or -1. */
function topLevelComma(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) return i;
  }
  return -1;
}

const UNRESOLVED = Symbol('scoped');
type Substituted = string | null | typeof UNRESOLVED;

/**
 * `text` with every var() replaced: a string; null when invalid at computed-value time;
 * UNRESOLVED when a reference names a scoped property (leave the text as it was).
 */
function substitute(text: string, props: CustomProperties, depth: number): Substituted {
  if (depth > MAX_DEPTH) return null;
  let out = '';
  let at = 0;
  for (;;) {
    const m = VAR_CALL.exec(text.slice(at));
    if (!m) break;
    const open = at + m.index + m[0].length;
    const close = closingParen(text, open);
    if (close < 0) return null;
    const inner = text.slice(open, close);
    const comma = topLevelComma(inner);
    const name = (comma < 0 ? inner : inner.slice(0, comma)).trim();
    if (props.scoped.has(name)) return UNRESOLVED;
    const value = props.values.get(name);
    let r: Substituted = value !== undefined ? substitute(value, props, depth + 1) : null;
    // An empty definition (`--x:;`) is valid and substitutes nothing; a fallback is used
    // only for an undefined or invalid property.
    if (r === null && comma >= 0) r = substitute(inner.slice(comma + 1), props, depth + 1);
    if (r === null || r === UNRESOLVED) return r;
    out += text.slice(at, at + m.index) + r;
    if (out.length > MAX_EXPANDED) return null;
    at = close + 1;
  }
  return out + text.slice(at);
}

/** A presentation attribute's value with var() resolved; null: drop the attribute. */
export function resolveVarsInValue(value: string, props: CustomProperties | null): string | null {
  if (!props || !VAR_CALL.test(value)) return value;
  const r = substitute(value, props, 0);
  return r === UNRESOLVED ? value : r;
}

/**
 * A <style> sheet or style="" list with var() resolved in every declaration's value
 * (custom property definitions themselves are left for the cleaner).
 */
export function resolveVarsInCss(
  css: string,
  context: 'stylesheet' | 'declarations',
  props: CustomProperties | null,
): string {
  if (!props || !VAR_CALL.test(css)) return css;
  let ast: CssNode;
  try {
    ast = cssTree().parse(css, {
      context: context === 'stylesheet' ? 'stylesheet' : 'declarationList',
      parseCustomProperty: false,
      parseValue: false,
    });
  } catch {
    return css;
  }
  let changed = false;
  cssTree().walk(ast, (n) => {
    const node = n as unknown as { type: string; property: string; value: CssPlain };
    if (node.type !== 'Declaration' || node.property.startsWith('--')) return;
    const raw = node.value;
    if (raw.type !== 'Raw' || typeof raw.value !== 'string' || !VAR_CALL.test(raw.value)) return;
    const r = substitute(raw.value, props, 0);
    if (r === UNRESOLVED) return;
    raw.value = r ?? 'unset';
    changed = true;
  });
  return changed ? cssTree().generate(ast) : css;
}
