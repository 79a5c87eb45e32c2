// Walks fast-xml-parser's ordered tree and re-serialises it from an allowlist, measuring
// the code (elements, depth, segments, texts, strokes) and enforcing the input limits on
// the way. Attribute-level policy (hrefs, CSS, filter clamps) lives in attributes.ts.
import { type ErrorValue, makeError, type RenderErrorCode } from '../core/errors.ts';
import {
  AttributePolicy,
  AttributeLimitError as LimitError,
  type NestedSanitizer,
} from './attributes.ts';
import { sanitizeCss } from './css.ts';
import { countPathSegments, countPointSegments } from './path-segments.ts';
import { type CustomProperties, resolveVarsInCss } from './sanitize-vars.ts';
import { REF_PROPERTIES, type SheetRefRule, sheetRefRules, sheetRefsFor } from './sheet-refs.ts';
import type { CodeStats, RenderLimits } from './types.ts';
import { expandedCount, type Measure, mergeRefs, type RefNode } from './use-expansion.ts';

/** A node of fast-xml-parser's preserveOrder output. */
export type XNode = Record<string, unknown>;

// SVG elements that draw or define something drawable. Everything else (script,
// foreignObject, animation, SVG fonts, editor metadata, HTML) is dropped with its subtree.
const ALLOWED = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'switch', 'a', 'title', 'desc', 'view', 'style',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'image',
  'text', 'tspan', 'textPath', 'tref',
  'clipPath', 'mask', 'pattern', 'marker', 'linearGradient', 'radialGradient', 'stop',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite',
  'feConvolveMatrix', 'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight',
  'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur',
  'feImage', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight',
  'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
]); // biome-ignore format: a list reads better in rows

const TEXT_ELEMENTS = new Set(['text', 'tspan', 'textPath', 'tref']);
const SHAPES = new Set(['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon']);

export interface WalkerOptions {
  limits: RenderLimits;
  removed: Set<string>;
  /** Largest side of the drawing in user units: the scale for clamping filter sizes. */
  extent: number;
  nestedDepth: number;
  declaredPrefixes: Set<string>;
  sanitizeNested: NestedSanitizer;
  /** The document's custom properties, substituted for var() before cleaning. */
  vars?: CustomProperties | null;
}

interface Paint {
  fill: string | undefined;
  stroke: string | undefined;
}

export type WalkResult =
  | { ok: true; svg: string; expanded: number }
  | { ok: false; error: ErrorValue<RenderErrorCode> };

export function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function styleProp(style: string | undefined, prop: string): string | undefined {
  if (!style) return undefined;
  const m = new RegExp(`(?:^|;)\\s*${prop}\\s*:\\s*([^;!]+)`, 'i').exec(style);
  return m ? m[1]!.trim() : undefined;
}

const MARKER_PROPS = ['marker-start', 'marker-mid', 'marker-end', 'marker'];

/**
 * Markers a shape draws, as references for the <use> expansion count: a marker's content
 * is drawn once per vertex, so a 100,000-vertex path with a marker-mid is 100,000 copies.
 */
function markerRefs(a: Record<string, string>, segments: number): Map<string, number> | null {
  let refs: Map<string, number> | null = null;
  for (const prop of MARKER_PROPS) {
    const v = styleProp(a.style, prop) ?? a[prop];
    const id = v ? /url\(\s*['"]?#([^'")\s]+)/.exec(v)?.[1] : undefined;
    if (!id) continue;
    // Start and end draw once; mid (and the shorthand, which includes mid) per vertex.
    const times = prop === 'marker-start' || prop === 'marker-end' ? 1 : segments + 1;
    refs ??= new Map();
    refs.set(id, (refs.get(id) ?? 0) + times);
  }
  return refs;
}

const FILTER_WORK: Measure = { own: (n) => n.work, refs: (n) => n.drawRefs };
const GLYPHS: Measure = { own: (n) => n.glyphs, refs: (n) => n.drawRefs };

// Filter children that are parameters of a primitive, not passes of their own.
const NOT_PASSES = new Set([
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feMergeNode',
  'feDistantLight',
  'fePointLight',
  'feSpotLight',
]);

// Primitives that read a neighbourhood per pixel (measured ~25× an feOffset at 512²);
// the others are counted as a quarter pass.
const HEAVY = new Set([
  'feGaussianBlur',
  'feDropShadow',
  'feMorphology',
  'feConvolveMatrix',
  'feDiffuseLighting',
  'feSpecularLighting',
  'feDisplacementMap',
]);

/** Passes one filter primitive costs: 1 heavy, 1/4 light, one per octave of feTurbulence. */
function primitiveWork(local: string, a: Record<string, string>): number {
  if (!local.startsWith('fe') || NOT_PASSES.has(local)) return 0;
  if (local !== 'feTurbulence') return HEAVY.has(local) ? 1 : 0.25;
  const octaves = Number.parseFloat(a.numOctaves ?? '1');
  return Number.isFinite(octaves) ? Math.min(Math.max(Math.floor(octaves), 1), 10) : 1;
}

/** url(#id) references of an element's own attributes and style="", plus sheet rules'. */
function paintRefs(a: Record<string, string>, fromSheets: string[]): Map<string, number> | null {
  let refs: Map<string, number> | null = null;
  const add = (id: string) => {
    refs ??= new Map();
    refs.set(id, (refs.get(id) ?? 0) + 1);
  };
  for (const prop of REF_PROPERTIES) {
    if (prop.startsWith('marker')) continue; // counted per vertex by markerRefs
    const v = styleProp(a.style, prop) ?? a[prop];
    const id = v ? /url\(\s*['"]?#([^'")\s]+)/.exec(v)?.[1] : undefined;
    if (id) add(id);
  }
  for (const id of fromSheets) add(id);
  return refs;
}

/** Text of every <style> element in a subtree, in document order. */
function styleTexts(children: XNode[]): string[] {
  const out: string[] = [];
  const stack = [...children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    const tag = Object.keys(node).find((k) => k !== ':@' && k !== '#text');
    if (!tag) continue;
    const kids = (node[tag] as XNode[]) ?? [];
    if (tag.replace(/^.*:/, '') === 'style') {
      out.push(kids.map((c) => (typeof c['#text'] === 'string' ? c['#text'] : '')).join(''));
    } else {
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return out;
}

export class ElementWalker {
  elements = 0;
  maxDepthSeen = 0;
  pathSegments = 0;
  strokedShapes = 0;
  texts: string[] = [];
  private filtered = 0;
  private readonly out: string[] = [];
  private readonly byId = new Map<string, RefNode>();
  /**
   * Document order (pre-order) of the first element with each id. Browsers resolve an id to
   * the first element in document order that has it; byId keeps that element's facts even
   * when a later element repeats the id (a gradient and a <g> both called "a").
   */
  private readonly firstWithId = new Map<string, number>();
  /** Ids of the open elements (ancestors of the one being walked, and itself), innermost last. */
  private readonly openIds: string[] = [];
  private readonly attrs: AttributePolicy;
  private sheetRules: SheetRefRule[] = [];

  constructor(private readonly o: WalkerOptions) {
    this.attrs = new AttributePolicy(o);
  }

  walkRoot(tag: string, children: XNode[], attrs: Record<string, string>): WalkResult {
    // Rules of <style> sheets that apply filters, masks, … by class: read before the walk,
    // since a sheet may come after the elements it styles.
    this.sheetRules = sheetRefRules(
      styleTexts(children).map((css) =>
        sanitizeCss(resolveVarsInCss(css, 'stylesheet', this.o.vars ?? null), new Set<string>(), {
          maxBlur: this.o.extent,
        }),
      ),
    );
    try {
      const root = this.element(
        tag,
        children,
        attrs,
        1,
        { fill: undefined, stroke: undefined },
        false,
      );
      if (!root) throw new LimitError('root removed');
      const exp = expandedCount(root, this.byId, this.o.limits.maxUseExpansion);
      if (!exp.ok) {
        const why = exp.reason === 'cycle' ? 'a <use> reference cycle' : 'too many elements';
        return this.error(
          'too_large',
          `<use> expansion: ${why} (limit ${this.o.limits.maxUseExpansion})`,
        );
      }
      const { maxFilterPasses, maxGlyphs } = this.o.limits;
      const work = expandedCount(root, this.byId, maxFilterPasses, FILTER_WORK);
      if (!work.ok) {
        const why = work.reason === 'cycle' ? 'a reference cycle' : `over ${maxFilterPasses}`;
        return this.error(
          'too_large',
          `filter passes (primitives × elements drawn through them, references expanded): ${why}`,
        );
      }
      const glyphs = expandedCount(root, this.byId, maxGlyphs, GLYPHS);
      if (!glyphs.ok) {
        return this.error('too_large', `text: more than ${maxGlyphs} glyphs (references expanded)`);
      }
      return { ok: true, svg: this.out.join(''), expanded: exp.total };
    } catch (err) {
      if (err instanceof LimitError) return this.error('too_large', err.message);
      throw err;
    }
  }

  private error(code: RenderErrorCode, message: string): WalkResult {
    return { ok: false, error: makeError(code, message) };
  }

  // Long because every element kind's rule (allowed, dropped, rewritten, counted) is decided
  // in one place in document order; the attribute and CSS work is in attributes.ts and css.ts.
  private element(
    tag: string,
    children: XNode[],
    rawAttrs: Record<string, string>,
    depth: number,
    inherited: Paint,
    inText: boolean,
  ): RefNode | null {
    const colon = tag.indexOf(':');
    const local = colon >= 0 ? tag.slice(colon + 1) : tag;
    if (!ALLOWED.has(local) || (colon >= 0 && !this.o.declaredPrefixes.has(tag.slice(0, colon)))) {
      // Bounded: a file of 10,000 distinct made-up tags must not make a 10,000-entry list.
      this.o.removed.add(this.o.removed.size < 64 ? local : 'other-elements');
      return null;
    }
    const { limits } = this.o;
    if (++this.elements > limits.maxElements) {
      throw new LimitError(`more than ${limits.maxElements} elements`);
    }
    if (depth > this.maxDepthSeen) this.maxDepthSeen = depth;
    if (depth > limits.maxDepth) throw new LimitError(`nesting deeper than ${limits.maxDepth}`);

    const order = this.elements;
    const cleaned = this.attrs.clean(local, rawAttrs);
    if (cleaned === null) return null; // the policy dropped the whole element
    const a = cleaned.attrs;
    if (a.id && !this.firstWithId.has(a.id)) this.firstWithId.set(a.id, order);
    if (cleaned.useRef && this.refersToOpen(cleaned.useRef, a.id)) {
      // A <use> of its own ancestor (or of itself) would draw itself forever: browsers do
      // not draw that <use> and draw the rest. Do the same, rather than refuse the file.
      this.o.removed.add('use:ancestor');
      return null;
    }
    if (cleaned.nested) this.addNested(cleaned.nested);
    const segments = this.countGeometry(local, a);
    this.countFilter(a);
    const paint: Paint = {
      fill: styleProp(a.style, 'fill') ?? a.fill ?? inherited.fill,
      stroke: styleProp(a.style, 'stroke') ?? a.stroke ?? inherited.stroke,
    };
    if (SHAPES.has(local) && paint.stroke && paint.stroke !== 'none') {
      if (paint.fill === 'none' || local === 'line') this.strokedShapes++;
    }

    let open = `<${tag}`;
    for (const [k, v] of Object.entries(a)) open += ` ${k}="${this.attrs.escape(v)}"`;
    this.out.push(open);
    const refs = mergeRefs(cleaned.useRef, markerRefs(a, segments));
    const node: RefNode = {
      count: 1 + cleaned.extraElements,
      refs,
      work: primitiveWork(local, a),
      glyphs: cleaned.nested ? cleaned.nested.texts.reduce((n, t) => n + t.length, 0) : 0,
      drawRefs: mergeRefs(
        refs ? new Map(refs) : null,
        paintRefs(a, sheetRefsFor(this.sheetRules, local, rawAttrs)),
      ),
    };
    const textHere = inText || TEXT_ELEMENTS.has(local);
    this.openIds.push(a.id && this.firstWithId.get(a.id) === order ? a.id : '');
    let any = false;
    if (local === 'style') {
      const css = children.map((c) => (typeof c['#text'] === 'string' ? c['#text'] : '')).join('');
      const resolved = resolveVarsInCss(css, 'stylesheet', this.o.vars ?? null);
      const clean = sanitizeCss(resolved, this.o.removed, { maxBlur: this.o.extent });
      if (clean) this.out.push('>', escapeText(clean));
      any = clean.length > 0;
    } else {
      for (const child of children) {
        const t = child['#text'];
        if (t !== undefined) {
          const s = String(t);
          if (!any) this.out.push('>');
          any = true;
          this.out.push(escapeText(s));
          if (textHere && s.trim()) {
            if (s.length > this.o.limits.maxTextRun) {
              throw new LimitError(
                `a text run of ${s.length} characters (limit ${this.o.limits.maxTextRun}; one long line lays out in superlinear time)`,
              );
            }
            this.texts.push(s.trim());
            node.glyphs += s.length;
          }
          continue;
        }
        const childTag = Object.keys(child).find((k) => k !== ':@');
        if (!childTag) continue;
        if (!any) this.out.push('>');
        any = true;
        const sub = this.element(
          childTag,
          (child[childTag] as XNode[]) ?? [],
          (child[':@'] as Record<string, string> | undefined) ?? {},
          depth + 1,
          paint,
          textHere,
        );
        if (sub) {
          node.count += sub.count;
          node.refs = mergeRefs(node.refs, sub.refs);
          node.work += sub.work;
          node.glyphs += sub.glyphs;
          node.drawRefs = mergeRefs(node.drawRefs, sub.drawRefs);
        }
      }
    }
    this.openIds.pop();
    this.out.push(any ? `</${tag}>` : '/>');
    if (a.id && this.firstWithId.get(a.id) === order) this.byId.set(a.id, node);
    return node;
  }

  /** Whether a <use> points at an open element (an ancestor) or at itself (`ownId`). */
  private refersToOpen(useRef: Map<string, number>, ownId: string | undefined): boolean {
    for (const id of useRef.keys()) {
      if (id === ownId && this.firstWithId.get(id) === this.elements) return true;
      if (this.openIds.includes(id)) return true;
    }
    return false;
  }

  /**
   * A nested data:image/svg+xml document is part of the picture: its words, strokes and
   * segments count as the outer document's, so text or scribbles cannot hide in it from
   * text_in_image and clutter (and its segments count against the outer limit).
   */
  private addNested(code: CodeStats): void {
    this.texts.push(...code.texts);
    this.strokedShapes += code.strokedShapes;
    this.pathSegments += code.pathSegments;
    if (this.pathSegments > this.o.limits.maxPathSegments) {
      throw new LimitError(`more than ${this.o.limits.maxPathSegments} path segments`);
    }
  }

  /** Elements drawn through a filter: each costs a pass over its region of the canvas. */
  private countFilter(a: Record<string, string>): void {
    const f = styleProp(a.style, 'filter') ?? a.filter;
    if (!f || !/url\(/i.test(f)) return;
    if (++this.filtered > this.o.limits.maxFilteredElements) {
      throw new LimitError(`more than ${this.o.limits.maxFilteredElements} filtered elements`);
    }
  }

  private countGeometry(local: string, a: Record<string, string>): number {
    let n = 0;
    if (local === 'path' && a.d) n = countPathSegments(a.d);
    else if ((local === 'polyline' || local === 'polygon') && a.points) {
      n = countPointSegments(a.points, local === 'polygon');
    } else if (local === 'line') n = 1;
    if (n === 0) return 0;
    this.pathSegments += n;
    if (this.pathSegments > this.o.limits.maxPathSegments) {
      throw new LimitError(`more than ${this.o.limits.maxPathSegments} path segments`);
    }
    return n;
  }
}
