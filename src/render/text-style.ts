// The font a piece of text is drawn in, as the renderer cascades it: presentation attributes
// (font-size="…"), then <style> sheet rules (`.title { font: bold 64px Arial }` — what model-
// written posters and diagrams use for every label), then style="", each inherited by what
// the element holds. Only the properties that decide how wide a line is are read. Sheet
// rules match on their subject compound (type, classes, id; ancestors required by a
// combinator are not checked), in specificity then source order, as sheet-refs.ts does.
import { tagOf } from './overdraw.ts';
import { blocks, withoutComments } from './style-sheet.ts';
import type { XNode } from './walker.ts';

export const TEXT_PROPS = [
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'letter-spacing',
  'word-spacing',
  'text-anchor',
] as const;
export type TextProp = (typeof TEXT_PROPS)[number];
export type TextProps = Partial<Record<TextProp, string>>;

interface SheetRule {
  type: string | null;
  id: string | null;
  classes: string[];
  specificity: number;
  props: TextProps;
}

const isTextProp = (p: string): p is TextProp => (TEXT_PROPS as readonly string[]).includes(p);

const FONT_SIZE =
  /^(?:(?:\d+(?:\.\d*)?|\.\d+)(?:px|pt|em|rem|%)|0|[a-z-]*(?:small|medium|large))$/i;
const LINE_HEIGHT = /^\/[\w.%]*$/;

/**
 * `font: [style] [variant] [weight] size[/line-height] family` split into its longhands, read
 * word by word: the first word that is a size ends the prefix (words of letters, digits and
 * dashes only), a `/line-height` after it is skipped, and the rest is the family. The size has a
 * unit (CSS refuses a unitless size in the shorthand, but for 0): so the weight of `font: 600
 * 16px Arial` is not read as a 600 px size (model-m l01-b's six labels, all inside the frame,
 * were read as 600 px text running off it). One regular expression for the whole value was
 * polynomial on a run of words like `MLARGE` (recheck).
 */
function fontShorthand(value: string, out: TextProps): void {
  const words = [...value.matchAll(/\S+/g)];
  const at = words.findIndex((w) => FONT_SIZE.test(w[0].split('/')[0]!));
  if (at < 0 || words.slice(0, at).some((w) => !/^[\w-]+$/.test(w[0]))) return;
  const [size, attached] = words[at]![0].split('/');
  let next = at + 1;
  if (attached === '')
    next++; // `12px/ 1.2`: the line height is the next word
  else if (attached === undefined && words[next] && LINE_HEIGHT.test(words[next]![0])) {
    next += words[next]![0] === '/' ? 2 : 1; // `12px /1.2` or `12px / 1.2`
  } else if (attached !== undefined && !LINE_HEIGHT.test(`/${attached}`)) return;
  const family = words[next];
  if (!family) return;
  for (const { 0: word } of words.slice(0, at)) {
    if (/^(italic|oblique)$/i.test(word)) out['font-style'] = word;
    else if (/^(bold|bolder|lighter|\d{3})$/i.test(word)) out['font-weight'] = word;
  }
  out['font-size'] = size!;
  out['font-family'] = value.slice(family.index).trim();
}

/** The text properties of a declaration list (`a: b; c: d`), `font` expanded. */
export function declarations(text: string): TextProps {
  const out: TextProps = {};
  for (const decl of text.split(';')) {
    const i = decl.indexOf(':');
    if (i < 0) continue;
    const prop = decl.slice(0, i).trim().toLowerCase();
    const value = decl
      .slice(i + 1)
      .replace(/!\s*important/i, '')
      .trim();
    if (prop === 'font') fontShorthand(value, out);
    else if (isTextProp(prop)) out[prop] = value;
  }
  return out;
}

function sheetText(nodes: XNode[]): string {
  return nodes
    .map((n) =>
      typeof n['#text'] === 'string' ? n['#text'] : sheetText((n[tagOf(n)] as XNode[]) ?? []),
    )
    .join('');
}

/** The text rules of every <style> sheet in the document, in source order. */
export function textSheetRules(root: XNode): SheetRule[] {
  const sheets: string[] = [];
  const find = (nodes: XNode[], depth: number) => {
    for (const n of nodes) {
      const tag = tagOf(n);
      if (tag === '#text' || depth > 100) continue;
      const kids = (n[tag] as XNode[]) ?? [];
      if (tag === 'style') sheets.push(sheetText(kids));
      else find(kids, depth + 1);
    }
  };
  find([root], 0);
  const rules: SheetRule[] = [];
  for (const sheet of sheets) {
    if (!/font|letter-spacing|word-spacing|text-anchor/i.test(sheet)) continue;
    // Innermost blocks: the rules themselves, also those nested in @media; read in one pass
    // (style-sheet.ts: the regexes this replaces were quadratic on a hostile sheet).
    for (const [selectors, body] of blocks(withoutComments(sheet))) {
      const props = declarations(body);
      if (Object.keys(props).length === 0) continue;
      for (const selector of selectors.split(',')) {
        const subject =
          selector
            .trim()
            .split(/[\s>+~]+/)
            .pop() ?? '';
        if (subject === '' || subject.startsWith('@')) continue;
        const type = /^[a-zA-Z][\w-]*/.exec(subject)?.[0] ?? null;
        const id = /#([\w-]+)/.exec(subject)?.[1] ?? null;
        const classes = [...subject.matchAll(/\.([\w-]+)/g)].map((c) => c[1]!);
        const specificity = (id ? 100 : 0) + 10 * classes.length + (type ? 1 : 0);
        rules.push({ type, id, classes, specificity, props });
      }
    }
  }
  // Stable sort: equal specificity keeps source order, later rules win by applying later.
  return rules.sort((a, b) => a.specificity - b.specificity);
}

/** What one element declares itself: attributes, then sheet rules, then style="". */
export function declaredTextProps(
  rules: SheetRule[],
  tag: string,
  attrs: Record<string, string>,
): TextProps {
  const out: TextProps = {};
  for (const p of TEXT_PROPS) if (attrs[p] !== undefined) out[p] = attrs[p];
  if (rules.length > 0) {
    const classes = attrs.class ? attrs.class.split(/\s+/).filter(Boolean) : [];
    for (const r of rules) {
      if (r.type !== null && r.type !== tag) continue;
      if (r.id !== null && r.id !== attrs.id) continue;
      if (!r.classes.every((c) => classes.includes(c))) continue;
      Object.assign(out, r.props);
    }
  }
  if (attrs.style) Object.assign(out, declarations(attrs.style));
  return out;
}
