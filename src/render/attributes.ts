// Attribute policy of the sanitiser: which attributes survive and in what form.
// - event handlers (on*) and xml:base go;
// - href / xlink:href survive only as a same-document "#id" or an allowed data: image
//   (http, https, file, absolute and relative paths never reach the renderer);
// - CSS in style="" and url(...) in presentation attributes are cleaned (css.ts);
// - filter parameters whose cost grows with their value are clamped (filter bombs).
import { type ErrorValue, type RenderErrorCode, RubricaError } from '../core/errors.ts';
import { cleanCss } from './css.ts';
import {
  decodeDataUri,
  isRasterMime,
  parseDataUri,
  rasterDimensions,
  SVG_MIME,
} from './data-uri.ts';
import { MAX_NESTED_SVG_DEPTH } from './limits.ts';
import { type CustomProperties, resolveVarsInCss, resolveVarsInValue } from './sanitize-vars.ts';
import type { CodeStats, RenderLimits } from './types.ts';

export type NestedSanitizer = (
  svg: Uint8Array,
  depth: number,
) =>
  | { ok: true; svg: string; code: CodeStats }
  | { ok: false; error: ErrorValue<RenderErrorCode>; code?: CodeStats };

export interface AttributePolicyOptions {
  limits: RenderLimits;
  removed: Set<string>;
  extent: number;
  nestedDepth: number;
  declaredPrefixes: Set<string>;
  sanitizeNested: NestedSanitizer;
  /** The document's custom properties, substituted for var() before cleaning. */
  vars?: CustomProperties | null;
}

export interface CleanedAttributes {
  attrs: Record<string, string>;
  /** Elements a nested SVG image stands for (counted into <use> expansion). */
  extraElements: number;
  /** The id a <use> points at, as a one-entry reference map. */
  useRef: Map<string, number> | null;
  /** Code facts of a nested data:image/svg+xml document this element draws. */
  nested: CodeStats | null;
}

/** Thrown for a limit breach; the walker turns it into a too_large result. */
export class AttributeLimitError extends RubricaError<'too_large'> {
  constructor(message: string) {
    super('too_large', message);
  }
}

// Attributes a renderer reads with its CSS parser (SVG 2 presentation attributes, plus
// transform-origin and the few librsvg and browsers also accept): their values are
// cleaned as CSS values (css.ts). Any other attribute holding `url(` is cleaned too.
const PRESENTATION = new Set([
  ...['alignment-baseline', 'baseline-shift', 'clip', 'clip-path', 'clip-rule', 'color'],
  ...['color-interpolation', 'color-interpolation-filters', 'color-profile', 'cursor'],
  ...['color-rendering', 'direction', 'display', 'dominant-baseline', 'enable-background'],
  ...['fill', 'fill-opacity', 'fill-rule', 'filter', 'flood-color', 'flood-opacity', 'font'],
  ...['font-family', 'font-size', 'font-size-adjust', 'font-stretch', 'font-style'],
  ...['font-variant', 'font-weight', 'glyph-orientation-horizontal', 'image-rendering'],
  ...['glyph-orientation-vertical', 'isolation', 'kerning', 'letter-spacing', 'lighting-color'],
  ...['line-height', 'marker', 'marker-end', 'marker-mid', 'marker-start', 'mask', 'mask-type'],
  ...['mix-blend-mode', 'opacity', 'overflow', 'paint-order', 'pointer-events'],
  ...['shape-rendering', 'stop-color', 'stop-opacity', 'stroke', 'stroke-dasharray'],
  ...['stroke-dashoffset', 'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit'],
  ...['stroke-opacity', 'stroke-width', 'text-anchor', 'text-decoration', 'text-rendering'],
  ...['transform-origin', 'unicode-bidi', 'vector-effect', 'visibility', 'white-space'],
  ...['word-spacing', 'writing-mode', 'inline-size', 'shape-inside', 'shape-outside'],
  ...['shape-padding', 'shape-margin', 'text-overflow', 'background', 'background-image'],
  ...['list-style', 'list-style-image', 'content', 'border-image', 'border-image-source'],
]);

// A presentation value made only of hex colours, plain names and numbers with units, apart
// by spaces or commas (`#d22`, `none`, `1.5`, `5, 3`, `12px`): no function, url(), escape or
// quote can hide in it, so it is kept as written without a CSS parse. Most attributes real
// drawings carry look like this; parsing each one cost a cold worker the load of css-tree.
const SIMPLE_TOKEN =
  '(?:#[0-9a-fA-F]+|-?[a-zA-Z_][a-zA-Z0-9_-]*|[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?(?:[a-zA-Z]+|%)?)';
const SIMPLE_CSS_VALUE = new RegExp(
  `^\\s*${SIMPLE_TOKEN}(?:(?:\\s*,\\s*|\\s+)${SIMPLE_TOKEN})*\\s*$`,
);
// Longer values take the parser: the test then stays linear whatever the input.
const SIMPLE_MAX_LENGTH = 200;

const NUMBER = /[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/g;
// Largest morphology radius kept, as a share of the drawing's extent: the cost of
// feMorphology in librsvg grows with radius² per pixel.
const MORPHOLOGY_SHARE = 0.02;
const MAX_OCTAVES = 10;
// Largest filter region kept, in drawing extents (or element boxes): 4 is far more than a
// shadow or glow needs, and keeps the surfaces a filter allocates near the canvas size.
const REGION_SHARE = 4;
const FILTER_REGION = new Set(['x', 'y', 'width', 'height']);
const MAX_KERNEL_CELLS = 49;

function hrefKind(v: string): string {
  if (/^https?:/i.test(v)) return 'href:http';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v);
  if (scheme) return `href:${scheme[1]!.toLowerCase()}`;
  if (v.startsWith('/') || v.startsWith('\\')) return 'href:absolute';
  return 'href:relative';
}

/** A kept href: its value, the elements it stands for, a nested document's facts. */
interface HrefValue {
  value: string;
  extra: number;
  code?: CodeStats;
}

export class AttributePolicy {
  private dataBytes = 0;

  constructor(private readonly o: AttributePolicyOptions) {}

  escape(v: string): string {
    return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  }

  /** Clean attributes of one element; null means the element itself must go. */
  clean(local: string, raw: Record<string, string>): CleanedAttributes | null {
    const { removed } = this.o;
    const attrs: Record<string, string> = {};
    let extraElements = 0;
    let useRef: Map<string, number> | null = null;
    let nested: CodeStats | null = null;
    if (local === 'feConvolveMatrix' && this.kernelTooBig(raw.order)) {
      removed.add('feConvolveMatrix:order');
      return null;
    }
    for (const [name, value] of Object.entries(raw)) {
      if (typeof value !== 'string') continue;
      const lower = name.toLowerCase();
      const colon = name.indexOf(':');
      const attrLocal = colon >= 0 ? name.slice(colon + 1) : name;
      const prefix = colon >= 0 ? name.slice(0, colon) : '';
      if (lower.startsWith('on')) {
        removed.add('event-handler');
        continue;
      }
      if (lower === 'xml:base') {
        removed.add('xml:base');
        continue;
      }
      // Only reached in repair mode (otherwise an undeclared prefix is a parse_error):
      // an undeclared prefix would make the XML namespace-invalid for librsvg.
      if (prefix && !this.o.declaredPrefixes.has(prefix)) continue;
      if (attrLocal === 'href') {
        const kept = this.href(value.trim(), local);
        if (kept === null) continue;
        attrs[name] = kept.value;
        extraElements += kept.extra;
        nested = kept.code ?? nested;
        if (local === 'use' && kept.value.startsWith('#')) {
          useRef = new Map([[kept.value.slice(1), 1]]);
        }
        continue;
      }
      if (lower === 'filterres') {
        removed.add('filterRes');
        continue;
      }
      const v = this.css(name, value);
      if (v === null) continue; // refused as CSS: the attribute goes, the element stays
      attrs[name] = this.clamp(local, name, v, raw.filterUnits);
    }
    return { attrs, extraElements, useRef, nested };
  }

  /** The value as the renderer's CSS parser may read it, cleaned; null to drop it. */
  private css(name: string, value: string): string | null {
    const opts = { maxBlur: this.o.extent };
    const vars = this.o.vars ?? null;
    if (name === 'style') {
      return cleanCss(
        resolveVarsInCss(value, 'declarations', vars),
        'declarations',
        this.o.removed,
        opts,
      );
    }
    if (PRESENTATION.has(name) && vars) {
      const resolved = resolveVarsInValue(value, vars);
      if (resolved === null) return null; // invalid at computed-value time: as if absent
      value = resolved;
    }
    if (PRESENTATION.has(name) || /url\s*\(|\\/i.test(value)) {
      if (value.length <= SIMPLE_MAX_LENGTH && SIMPLE_CSS_VALUE.test(value)) return value;
      return cleanCss(value, 'value', this.o.removed, opts);
    }
    return value;
  }

  private kernelTooBig(order: string | undefined): boolean {
    if (!order) return false;
    const n = (order.match(NUMBER) ?? []).map(Number);
    const x = n[0] ?? 3;
    const y = n[1] ?? x;
    return !(Math.abs(x * y) <= MAX_KERNEL_CELLS);
  }

  private clampList(v: string, max: number): string {
    let changed = false;
    const out = v.replace(NUMBER, (m) => {
      const n = Number(m);
      if (Number.isFinite(n) && Math.abs(n) <= max) return m;
      changed = true;
      return String(Math.sign(n) * max || 0);
    });
    if (changed) this.o.removed.add('filter:clamped');
    return out;
  }

  private clamp(local: string, name: string, v: string, filterUnits?: string): string {
    const { extent } = this.o;
    if (local === 'filter' && FILTER_REGION.has(name)) {
      // The filter region is the surface every primitive fills: bounded to a few times
      // the drawing (user space) or of the element's box (objectBoundingBox, the default).
      if (filterUnits?.trim() === 'userSpaceOnUse') return this.clampList(v, REGION_SHARE * extent);
      return this.clampList(v, v.includes('%') ? REGION_SHARE * 100 : REGION_SHARE);
    }
    if (name === 'stdDeviation' && (local === 'feGaussianBlur' || local === 'feDropShadow')) {
      return this.clampList(v, extent);
    }
    if (name === 'radius' && local === 'feMorphology') {
      return this.clampList(v, Math.max(extent * MORPHOLOGY_SHARE, 1));
    }
    if (name === 'numOctaves' && local === 'feTurbulence') return this.clampList(v, MAX_OCTAVES);
    return v;
  }

  private href(v: string, local: string): HrefValue | null {
    const { removed, limits } = this.o;
    if (v.startsWith('#')) return { value: v, extra: 0 };
    if (!/^data:/i.test(v)) {
      removed.add(hrefKind(v));
      return null;
    }
    this.dataBytes += v.length;
    if (this.dataBytes > limits.maxDataUriBytes) {
      throw new AttributeLimitError(`data: URIs over ${limits.maxDataUriBytes} bytes`);
    }
    const d = parseDataUri(v);
    if (!d || (local !== 'image' && local !== 'feImage')) {
      removed.add('href:data');
      return null;
    }
    if (d.mime === SVG_MIME) return this.nestedSvg(decodeDataUri(d));
    if (!isRasterMime(d.mime)) {
      removed.add(`data:${d.mime}`);
      return null;
    }
    const head = d.base64 ? Buffer.from(d.payload.slice(0, 65_536), 'base64') : decodeDataUri(d);
    const dims = rasterDimensions(head);
    if (!dims) {
      removed.add('data:unreadable-image');
      return null;
    }
    if (dims.width * dims.height > limits.maxPixels) {
      removed.add('data:image-too-large');
      return null;
    }
    return { value: v, extra: 0 };
  }

  private nestedSvg(bytes: Buffer): HrefValue | null {
    const { removed } = this.o;
    if (this.o.nestedDepth + 1 > MAX_NESTED_SVG_DEPTH) {
      removed.add('data:svg-too-deep');
      return null;
    }
    const inner = this.o.sanitizeNested(bytes, this.o.nestedDepth + 1);
    if (!inner.ok) {
      if (inner.error.code === 'too_large') {
        throw new AttributeLimitError(`nested SVG image: ${inner.error.message}`);
      }
      removed.add('data:svg-invalid');
      return null;
    }
    for (const r of inner.code.removed) removed.add(`nested:${r}`);
    const value = `data:image/svg+xml;base64,${Buffer.from(inner.svg).toString('base64')}`;
    return { value, extra: inner.code.expandedElements, code: inner.code };
  }
}
