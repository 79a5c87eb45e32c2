// Cleans CSS wherever an SVG can carry it: <style> sheets, style="" attributes and
// presentation attributes (fill="…", filter="…", mask="…"). Nothing in it may make the
// renderer fetch a resource, and nothing may mean something else to the renderer than
// it meant to us. So the text is never edited in place: css-tree tokenises and parses it,
// every name is decoded (CSS escapes resolved) and checked against an allowlist, and the
// output is generated from the tree. A name that decodes to characters that would need an
// escape again (a double escape `\5c 75rl`, an escaped `\2f\2a` comment start) is refused,
// so the output holds no backslash outside strings, and a string that needs one is refused
// too. Only same-document references `url(#id)` survive; @import, @font-face, every other
// url() and every function that can load an image (image(), image-set(), element(), …)
// go. A last check parses the output again and requires the same output with nothing more
// removed: the renderer reads exactly what was checked.
import type { CssNode, CssPlain } from 'css-tree';
import { cssTree } from './css-tree-lazy.ts';

export type CssContext = 'stylesheet' | 'declarations' | 'value';

export interface CssOptions {
  /** Largest blur / shadow radius kept in CSS filter functions (user units). */
  maxBlur?: number;
}

// Functions that draw from outside the document: dropped with their declaration.
const LOADING = new Set([
  'url',
  'src',
  'image',
  'image-set',
  '-webkit-image-set',
  'cross-fade',
  '-webkit-cross-fade',
  'element',
  '-moz-element',
  'paint',
  '-webkit-canvas',
]);

// Functions a drawing may use: colours, maths, transforms, filter functions, basic shapes,
// gradients. Everything else (attr(), counter(), env(), unknown names) goes.
const FUNCTIONS = new Set([
  ...['rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color'],
  ...['color-mix', 'light-dark', 'var', 'calc', 'min', 'max', 'clamp', 'abs', 'sign'],
  ...['round', 'mod', 'rem', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'pow'],
  ...['sqrt', 'hypot', 'log', 'exp', 'matrix', 'matrix3d', 'translate', 'translatex'],
  ...['translatey', 'translatez', 'translate3d', 'scale', 'scalex', 'scaley', 'scalez'],
  ...['scale3d', 'rotate', 'rotatex', 'rotatey', 'rotatez', 'rotate3d', 'skew', 'skewx'],
  ...['skewy', 'perspective', 'blur', 'brightness', 'contrast', 'drop-shadow', 'grayscale'],
  ...['hue-rotate', 'invert', 'opacity', 'saturate', 'sepia', 'inset', 'circle', 'ellipse'],
  ...['polygon', 'path', 'rect', 'xywh', 'linear-gradient', 'radial-gradient'],
  ...['conic-gradient', 'repeating-linear-gradient', 'repeating-radial-gradient'],
  ...['cubic-bezier', 'steps'],
]);
const BLUR_FUNCTIONS = new Set(['blur', 'drop-shadow']);

// At-rules kept (their blocks are cleaned like the sheet); every other one is dropped.
const AT_RULES = new Set(['media', 'supports', 'keyframes']);

// Node types that may appear; any other (Raw, Comment, CDO/CDC, unknown) refuses its
// declaration or rule.
const VALUE_NODES = new Set([
  'Value',
  'Identifier',
  'Number',
  'Dimension',
  'Percentage',
  'Hash',
  'String',
  'Operator',
  'WhiteSpace',
  'Function',
  'Parentheses',
  'Url',
  'Ratio',
]);
const PRELUDE_NODES = new Set([
  'SelectorList',
  'Selector',
  'TypeSelector',
  'ClassSelector',
  'IdSelector',
  'AttributeSelector',
  'PseudoClassSelector',
  'PseudoElementSelector',
  'Combinator',
  'Nth',
  'AnPlusB',
  'NestingSelector',
  'AtrulePrelude',
  'MediaQueryList',
  'MediaQuery',
  'Condition',
  'Feature',
  'FeatureRange',
  'SupportsDeclaration',
  'Declaration',
  ...VALUE_NODES,
]);

// A plain name after decoding: needs no escape to be written back.
const PLAIN_NAME = /^-{0,2}[A-Za-z_\u00a0-\uffff][-\w\u00a0-\uffff]*$|^--$/u;
const PLAIN_HASH = /^[-\w\u00a0-\uffff]+$/u;
const PLAIN_UNIT = /^[A-Za-z%]+$/;
const LOCAL_REF = /^#[^\s()'"\\]+$/;
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** Why a construct was refused: the `removed` entry recorded for it. */
type Refusal = string;

/** Text css-tree could not parse: named for what it tried to load, if it did. */
function unparsed(node: CssPlain | string): Refusal {
  const text = typeof node === 'string' ? node : node.value;
  const raw = typeof text === 'string' ? cssTree().ident.decode(text) : '';
  return /url\s*\(|image|element\s*\(|cross-fade|src\s*\(/i.test(raw) ? 'css:url' : 'css:unparsed';
}

class Cleaner {
  constructor(
    private readonly removed: Set<string>,
    private readonly opts: CssOptions,
  ) {}

  /** Decoded, checked name, or a refusal. */
  private name(raw: string, re: RegExp): string | null {
    const decoded = raw.includes('\\') ? cssTree().ident.decode(raw) : raw;
    return re.test(decoded) ? decoded : null;
  }

  /** Cleans a value subtree in place; returns a refusal when the value must go. */
  value(node: CssPlain, fn: string | null): Refusal | null {
    if (!VALUE_NODES.has(node.type)) return unparsed(node);
    switch (node.type) {
      case 'Identifier': {
        const n = this.name(node.name as string, PLAIN_NAME);
        if (n === null) return 'css:escape';
        node.name = n;
        break;
      }
      case 'Hash': {
        const v = this.name(node.value as string, PLAIN_HASH);
        if (v === null) return 'css:escape';
        node.value = v;
        break;
      }
      case 'Dimension': {
        const u = this.name(node.unit as string, PLAIN_UNIT);
        if (u === null || !NUMBER.test(node.value as string)) return 'css:escape';
        node.unit = u;
        if (fn && BLUR_FUNCTIONS.has(fn)) this.clampNumber(node);
        break;
      }
      case 'Number':
      case 'Percentage':
        if (!NUMBER.test(node.value as string)) return 'css:escape';
        if (node.type === 'Number' && fn && BLUR_FUNCTIONS.has(fn)) this.clampNumber(node);
        break;
      case 'Url': {
        // css-tree has decoded the url; only a same-document #id survives.
        const target = String(node.value).trim();
        if (!LOCAL_REF.test(target)) {
          this.removed.add('css:url');
          // `none` keeps the declaration meaning "no paint" instead of a fetch.
          for (const k of Object.keys(node)) delete node[k];
          node.type = 'Identifier';
          node.name = 'none';
          node.loc = null;
          return null;
        }
        node.value = target;
        break;
      }
      case 'Function': {
        const n = this.name(node.name as string, PLAIN_NAME);
        if (n === null) return 'css:escape';
        const lower = n.toLowerCase();
        if (LOADING.has(lower)) return 'css:url';
        if (!FUNCTIONS.has(lower)) return 'css:function';
        node.name = lower;
        return this.children(node, lower);
      }
      case 'Operator':
        if (!/^[,/+*-]$|^$/.test(String(node.value))) return 'css:unparsed';
        break;
      default:
        if (Array.isArray(node.children)) return this.children(node, fn);
    }
    return null;
  }

  private clampNumber(node: CssPlain): void {
    const max = this.opts.maxBlur;
    if (max === undefined) return;
    const n = Number(node.value);
    if (Math.abs(n) > max) {
      node.value = String(Math.sign(n) * max);
      this.removed.add('filter:clamped');
    }
  }

  private children(node: CssPlain, fn: string | null): Refusal | null {
    for (const c of (node.children as CssPlain[]) ?? []) {
      const r = this.value(c, fn);
      if (r) return r;
    }
    return null;
  }

  /** A declaration: property name checked, value cleaned; false when it must go. */
  declaration(d: CssPlain): boolean {
    if (d.type !== 'Declaration') return this.refuse('css:unparsed');
    const prop = this.name(d.property as string, PLAIN_NAME);
    if (prop === null) return this.refuse('css:escape');
    d.property = prop;
    const r = this.value(d.value as CssPlain, null);
    return r ? this.refuse(r) : true;
  }

  declarations(list: CssPlain[]): CssPlain[] {
    return list.filter((d) => this.declaration(d));
  }

  /** A selector or at-rule prelude: every node type allowed, every name plain. */
  private prelude(node: CssPlain): Refusal | null {
    if (!PRELUDE_NODES.has(node.type)) return 'css:unparsed';
    if (node.type === 'Declaration') return this.declaration(node) ? null : 'css:unparsed';
    if (VALUE_NODES.has(node.type) && node.type !== 'Identifier') return this.value(node, null);
    if (node.type === 'TypeSelector') {
      // `*`, `rect`, `svg|rect`, `*|a`: each side of a namespace bar is empty, * or plain.
      const decoded = cssTree().ident.decode(String(node.name));
      const parts = decoded.split('|');
      if (parts.length > 2 || !parts.every((p) => p === '' || p === '*' || PLAIN_NAME.test(p))) {
        return 'css:escape';
      }
      node.name = decoded;
      return null;
    }
    for (const key of ['name', 'unit'] as const) {
      if (typeof node[key] === 'string' && node[key] !== '') {
        const n = this.name(node[key] as string, node.type === 'Combinator' ? /^.*$/ : PLAIN_NAME);
        if (n === null) return 'css:escape';
        node[key] = n;
      }
    }
    if (node.type === 'Combinator' && !/^[>+~ ]$/.test(String(node.name))) return 'css:unparsed';
    if (node.type === 'AttributeSelector') {
      const nameNode = node.name as CssPlain;
      const n = this.name(String(nameNode?.name ?? ''), PLAIN_NAME);
      if (n === null) return 'css:escape';
      nameNode.name = n;
      if (node.value) {
        const r = this.value(node.value as CssPlain, null);
        if (r) return r;
      }
      if (node.flags != null && !/^[is]$/i.test(String(node.flags))) return 'css:escape';
      return null;
    }
    for (const key of ['children', 'value', 'selector', 'nth', 'query', 'condition']) {
      const v = node[key];
      const list = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [];
      for (const c of list as CssPlain[]) {
        const r = this.prelude(c);
        if (r) return r;
      }
    }
    return null;
  }

  /** The rules of a sheet or an at-rule block; refused ones are left out. */
  rules(list: CssPlain[]): CssPlain[] {
    const out: CssPlain[] = [];
    for (const node of list) {
      if (node.type === 'Rule') {
        const why = this.prelude(node.prelude as CssPlain);
        if (why) {
          this.refuse(why);
          continue;
        }
        const block = node.block as CssPlain;
        block.children = this.declarations(block.children as CssPlain[]);
        out.push(node);
      } else if (node.type === 'Atrule') {
        const name = this.name(node.name as string, PLAIN_NAME)?.toLowerCase();
        if (name === 'import') this.refuse('css:@import');
        else if (name === 'font-face') this.refuse('css:@font-face');
        else if (!name || !AT_RULES.has(name)) this.refuse('css:at-rule');
        else {
          const why = node.prelude ? this.prelude(node.prelude as CssPlain) : null;
          const block = node.block as CssPlain | null;
          if (why || !block) {
            this.refuse(why ?? 'css:at-rule');
            continue;
          }
          node.name = name;
          block.children = this.rules(block.children as CssPlain[]);
          out.push(node);
        }
      } else if (node.type !== 'Comment' && node.type !== 'CDO' && node.type !== 'CDC') {
        this.refuse('css:unparsed');
      }
    }
    return out;
  }

  private refuse(why: Refusal): false {
    this.removed.add(why);
    return false;
  }
}

const PARSE_CONTEXT = {
  stylesheet: 'stylesheet',
  declarations: 'declarationList',
  value: 'value',
} as const;

/** Parse, clean and generate once; null when the whole text must go. */
function cleanOnce(
  text: string,
  context: CssContext,
  removed: Set<string>,
  opts: CssOptions,
): string | null {
  let ast: CssNode;
  try {
    ast = cssTree().parse(text, {
      context: PARSE_CONTEXT[context],
      parseCustomProperty: true,
      positions: false,
    });
  } catch {
    removed.add(unparsed(text));
    return null;
  }
  const plain = cssTree().toPlainObject(ast) as unknown as CssPlain;
  const c = new Cleaner(removed, opts);
  if (context === 'stylesheet') plain.children = c.rules(plain.children as CssPlain[]);
  else if (context === 'declarations') {
    plain.children = c.declarations(plain.children as CssPlain[]);
  } else {
    const why = c.value(plain, null);
    if (why) {
      removed.add(why);
      return null;
    }
  }
  const out = cssTree().generate(cssTree().fromPlainObject(plain as unknown as CssNode));
  // Strings are the only nodes written with escapes; refuse rather than trust them.
  if (out.includes('\\')) {
    removed.add('css:escape');
    return null;
  }
  // A belt over the tree walk: a node type it does not descend into (a media feature
  // range, say) must still not carry a fetch to the renderer.
  if (/url\(\s*(?!#)|@import|image-set|cross-fade|element\(/i.test(out)) {
    removed.add('css:url');
    return null;
  }
  return out;
}

/** True when a text cannot hold a function, url, escape, comment or at-rule. */
function isInert(text: string): boolean {
  return !/[\\()@/{}<]/.test(text);
}

// Values real drawings write thousands of times, safe exactly as written (no escape, no
// quote, no comment, nothing but a local reference or numbers in a colour function): they
// skip the parser. Anything else goes through it.
const PLAIN_VALUE =
  /^(?:url\(#[A-Za-z0-9_.:-]+\)|(?:rgba?|hsla?)\([0-9\s.,%+-]*\))(?:\s+(?:none|#[0-9a-fA-F]{3,8}|[a-z]+))?$/;

// Results by input: a drawing repeats the same values and sheets (and a batch repeats
// drawings). Bounded; cleared when full.
const memo = new Map<string, { out: string | null; removed: string[] }>();
const MEMO_MAX = 4096;

/**
 * Returns the CSS with everything unsafe removed, regenerated from its parse tree, or
 * null when nothing of it may be kept (an attribute value that must go). `removed`
 * collects what was taken out ("css:@import", "css:url", "css:escape", …).
 */
export function cleanCss(
  text: string,
  context: CssContext,
  removed: Set<string>,
  opts: CssOptions = {},
): string | null {
  if (isInert(text)) return text;
  if (context === 'value' && PLAIN_VALUE.test(text)) return text;
  const key = `${context}\u0000${opts.maxBlur ?? ''}\u0000${text}`;
  const hit = memo.get(key);
  if (hit) {
    for (const r of hit.removed) removed.add(r);
    return hit.out;
  }
  const mine = new Set<string>();
  const out = cleanUncached(text, context, mine, opts);
  for (const r of mine) removed.add(r);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, { out, removed: [...mine] });
  return out;
}

function cleanUncached(
  text: string,
  context: CssContext,
  removed: Set<string>,
  opts: CssOptions,
): string | null {
  const first = cleanOnce(text, context, removed, opts);
  if (first === null || isInert(first)) return first;
  // The fixed point: what the renderer will parse must clean to itself, nothing removed.
  const again = new Set<string>();
  const second = cleanOnce(first, context, again, opts);
  if (second !== first || again.size > 0) {
    removed.add('css:unstable');
    return null;
  }
  return first;
}

/** A <style> sheet, cleaned; '' when nothing survives. */
export function sanitizeCss(text: string, removed: Set<string>, opts: CssOptions = {}): string {
  return cleanCss(text, 'stylesheet', removed, opts) ?? '';
}
