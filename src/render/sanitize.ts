// The sanitiser: SVG text in, a clean SVG text out (or an error value), plus CodeStats.
// It runs before any renderer sees the file. The document is parsed with fast-xml-parser
// (no DTD, no external entities, bounded internal entities) and re-serialised from an
// allowlist of SVG elements: nothing that could reach the network or the file system, run
// code, or cost unbounded time survives. Every removal is recorded in `code.removed`.
// This is the one parse of an SVG: the walk measures the code statistics on it, and the
// overdraw geometry (overdraw.ts) reads the same tree, so nothing downstream parses again.

import { type ErrorValue, makeError, type RenderErrorCode } from '../core/errors.ts';
import { XMLParser, XMLValidator } from '../core/xml-parser.ts';
import { expandParameterEntities, findForbiddenChar } from './dtd.ts';
import { fitRoot } from './fit.ts';
import { measureFrame } from './frame-structure.ts';
import { resolveLimits } from './limits.ts';
import {
  measureOverdraw,
  OVERDRAW_MIN_ELEMENTS,
  type SeenShape,
  type ShapeMemo,
} from './overdraw.ts';
import { countPathSegments } from './path-segments.ts';
import { customProperties } from './sanitize-vars.ts';
import type { CodeStats, RenderLimits } from './types.ts';
import { ElementWalker, type XNode } from './walker.ts';
import { measureWaste } from './waste.ts';

/** Limits, the canvas to fit the root to, and whether namespace slips are repaired. */
export interface SanitizeOptions {
  limits?: Partial<RenderLimits>;
  /** When set, the root is fitted to a size×size canvas (see fit.ts). */
  size?: number;
  /** Depth of nested data:image/svg+xml documents; 0 for the outer document. */
  nestedDepth?: number;
  /** Repair namespace slips instead of refusing them (see RenderOptions.repair). */
  repair?: boolean;
}

/** The sanitised SVG and its code statistics, or the error that refused it. */
export type SanitizeResult =
  | { ok: true; svg: string; code: CodeStats }
  | { ok: false; error: ErrorValue<RenderErrorCode>; code?: CodeStats };

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const parsers = new Map<number, XMLParser>();
function parserFor(maxDepth: number): XMLParser {
  let p = parsers.get(maxDepth);
  if (!p) {
    p = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: false,
      ignoreDeclaration: true,
      ignorePiTags: true, // drops <?xml-stylesheet href=...?> too
      htmlEntities: true, // numeric character references and &nbsp; decode to text
      maxNestedTags: Math.min(maxDepth, 5000),
      processEntities: {
        enabled: true,
        maxEntityCount: 64,
        maxEntitySize: 4096,
        maxExpansionDepth: 4,
        maxTotalExpansions: 1000,
        maxExpandedLength: 65_536,
      },
    });
    parsers.set(maxDepth, p);
  }
  return p;
}

const XML_ENTITIES = new Set(['lt', 'gt', 'amp', 'quot', 'apos']);

/** The first named entity reference that neither XML nor the document's DTD defines. */
function findUndefinedEntity(text: string): string | null {
  if (!text.includes('&')) return null;
  let declared: Set<string> | null = null;
  for (const m of text.matchAll(/&([A-Za-z_:][\w.:-]*);/g)) {
    const name = m[1]!;
    if (XML_ENTITIES.has(name)) continue;
    declared ??= new Set([...text.matchAll(/<!ENTITY\s+([^\s%]+)/g)].map((d) => d[1]!));
    if (!declared.has(name)) return name;
  }
  return null;
}

// Above this size, path data is counted before the XML validator runs: the validator
// takes ~3 s on an 8 MB `d` attribute, counting its segments ~0.25 s. Real answers are
// ~16 KB and never get here.
const ROUGH_COUNT_FROM = 1_000_000;

/** A too_large message when the raw `d` attributes already pass the segment limit. */
function roughPathSegments(text: string, max: number): string | null {
  if (text.length < ROUGH_COUNT_FROM) return null;
  let n = 0;
  for (const m of text.matchAll(/\sd\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    n += countPathSegments(m[1] ?? m[2] ?? '');
    if (n > max) return `more than ${max} path segments`;
  }
  return null;
}

const prefixOf = (name: string) => {
  const i = name.indexOf(':');
  return i > 0 ? name.slice(0, i) : '';
};

/** A namespace prefix used by an element or attribute but declared nowhere in the file. */
function findUnboundPrefix(root: XNode, declared: Set<string>): string | null {
  const stack: XNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const key of Object.keys(node)) {
      if (key === '#text') continue;
      if (key === ':@') {
        for (const attr of Object.keys(node[key] as object)) {
          const p = prefixOf(attr);
          if (p && !declared.has(p)) return p;
        }
        continue;
      }
      const p = prefixOf(key);
      if (p && !declared.has(p)) return p;
      const children = node[key];
      if (Array.isArray(children)) stack.push(...(children as XNode[]));
    }
  }
  return null;
}

const fail = (code: RenderErrorCode, message: string): SanitizeResult => ({
  ok: false,
  error: makeError(code, message),
});

function decodeInput(input: string | Uint8Array, maxBytes: number): string | SanitizeResult {
  if (typeof input !== 'string') {
    if (input.byteLength > maxBytes) {
      return fail('too_large', `SVG is ${input.byteLength} bytes; limit ${maxBytes}`);
    }
    try {
      return utf8.decode(input);
    } catch {
      return fail('parse_error', 'SVG is not valid UTF-8');
    }
  }
  // Cheap bound first: a UTF-8 byte is at most 3 per UTF-16 unit.
  if (input.length > maxBytes || Buffer.byteLength(input) > maxBytes) {
    return fail('too_large', `SVG is over the ${maxBytes}-byte limit`);
  }
  if (LONE_SURROGATE.test(input)) return fail('parse_error', 'SVG text holds invalid Unicode');
  return input;
}

// Long because it is the one ordered pass every SVG goes through (limits, parse, walk, CSS,
// serialise); each step is a call into its own module, kept here so the order is visible.
/**
 * Makes an SVG safe to render: enforces the size limits, parses it (no DTD, no external
 * entities) and re-serialises it from an allowlist, so nothing that could reach the network
 * or the file system, run code or cost unbounded time survives; every removal is counted in
 * `code.removed`. With `size`, the root is fitted to the canvas. Refusals are error values
 * (`parse_error`, `too_large`, …), never throws.
 * @example
 * ```ts
 * const s = sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><script/><circle r="4"/></svg>');
 * if (s.ok) console.log(s.svg, s.code);
 * ```
 */
export function sanitizeSvg(
  input: string | Uint8Array,
  opts: SanitizeOptions = {},
): SanitizeResult {
  const limits = resolveLimits(opts.limits);
  const decoded = decodeInput(input, limits.maxBytes);
  if (typeof decoded !== 'string') return decoded;
  const unexpanded = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  if (!/<(?:[A-Za-z_][\w.-]*:)?svg[\s/>]/.test(unexpanded)) {
    const head = unexpanded.trimStart().slice(0, 40).replace(/\s+/g, ' ');
    return fail(
      'parse_error',
      `no <svg> element${head ? ` (the input starts "${head}")` : ' (empty input)'}`,
    );
  }
  const badChar = findForbiddenChar(unexpanded);
  if (badChar) return fail('parse_error', badChar);
  const dtd = expandParameterEntities(unexpanded);
  if (!dtd.ok) return fail('parse_error', dtd.message);
  const text = dtd.text;

  const segments = roughPathSegments(text, limits.maxPathSegments);
  if (segments !== null) return fail('too_large', segments);

  const undefinedEntity = findUndefinedEntity(text);
  if (undefinedEntity) {
    // An XML parser (CairoSVG's, librsvg's) refuses these; the HTML decoder below would not.
    return fail('parse_error', `undefined entity &${undefinedEntity};`);
  }
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) {
    const e = valid.err;
    return fail('parse_error', `XML ${e.code} at line ${e.line}, col ${e.col}: ${e.msg}`);
  }
  let doc: XNode[];
  try {
    doc = parserFor(limits.maxDepth).parse(text) as XNode[];
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/nested/i.test(msg)) return fail('too_large', `nesting deeper than ${limits.maxDepth}`);
    return fail('parse_error', msg);
  }

  const elements = doc.filter((n) => !('#text' in n));
  if (elements.length > 1) return fail('parse_error', 'junk after the root element');
  const rootNode = elements[0];
  const rootTag = rootNode ? Object.keys(rootNode).find((k) => k !== ':@') : undefined;
  if (!rootNode || !rootTag || rootTag.replace(/^.*:/, '') !== 'svg') {
    return fail('parse_error', `root element is <${rootTag ?? 'none'}>, not <svg>`);
  }

  const removed = new Set<string>();
  if (/<!DOCTYPE/i.test(text)) removed.add('doctype');
  if (/<!ENTITY/i.test(text)) removed.add('entity');
  const rootAttrs = { ...((rootNode[':@'] as Record<string, string> | undefined) ?? {}) };
  const fitted = fitRoot(rootAttrs, opts.size ?? 0);
  if (opts.size) {
    rootAttrs.width = fitted.width;
    rootAttrs.height = fitted.height;
    rootAttrs.viewBox = fitted.viewBox;
  }
  // librsvg draws nothing outside the SVG namespace, CairoSVG ignores namespaces: model
  // output often omits xmlns, so the defaults are declared to draw what CairoSVG draws.
  const prefix = rootTag.includes(':') ? rootTag.slice(0, rootTag.indexOf(':')) : '';
  if (prefix === '' && !rootAttrs.xmlns) rootAttrs.xmlns = SVG_NS;
  const ns = prefix === '' ? rootAttrs.xmlns : rootAttrs[`xmlns:${prefix}`];
  if (ns !== undefined && ns.trim() !== SVG_NS) {
    // CairoSVG refuses such a root ("Root node is {ns}svg"), librsvg draws nothing.
    return fail('parse_error', `root <svg> is in namespace "${ns}", not SVG`);
  }
  const declared = new Set(['xml', 'xmlns']);
  for (const m of text.matchAll(/xmlns:([A-Za-z_][\w.-]*)\s*=/g)) declared.add(m[1]!);
  if (opts.repair) {
    if (!declared.has('xlink') && /\bxlink:/.test(text)) {
      rootAttrs['xmlns:xlink'] = XLINK_NS;
      declared.add('xlink');
    }
  } else {
    const unbound = findUnboundPrefix(rootNode, declared);
    // An XML parser with namespaces (CairoSVG's, a browser's) refuses the file.
    if (unbound) return fail('parse_error', `unbound namespace prefix "${unbound}:"`);
  }
  // CairoSVG's text defaults differ from librsvg's (sans-serif 12pt vs serif 12px). Set on
  // the root as presentation attributes, they apply only where the document says nothing:
  // any attribute, style="" or <style> rule of its own wins.
  if (!rootAttrs['font-family'] && !/font-family/i.test(rootAttrs.style ?? '')) {
    rootAttrs['font-family'] = 'sans-serif';
  }
  if (!rootAttrs['font-size'] && !/font-size/i.test(rootAttrs.style ?? '')) {
    rootAttrs['font-size'] = '12pt'; // 16 user units at the 96 dpi we render at
  }

  const extent = fitted.sourceViewBox
    ? Math.max(Math.abs(fitted.sourceViewBox[2]), Math.abs(fitted.sourceViewBox[3]), 1)
    : 1000;
  const walker = new ElementWalker({
    limits,
    removed,
    extent,
    nestedDepth: opts.nestedDepth ?? 0,
    declaredPrefixes: declared,
    vars: customProperties(text),
    sanitizeNested: (svg, depth) =>
      sanitizeSvg(svg, { limits, nestedDepth: depth, repair: opts.repair }),
  });
  const walked = walker.walkRoot(rootTag, (rootNode[rootTag] as XNode[]) ?? [], rootAttrs);
  const code: CodeStats = {
    bytes: Buffer.byteLength(text),
    elements: walker.elements,
    maxDepth: walker.maxDepthSeen,
    pathSegments: walker.pathSegments,
    expandedElements: walked.ok ? walked.expanded : walker.elements,
    texts: walker.texts,
    strokedShapes: walker.strokedShapes,
    removed: [...removed],
    viewBox: fitted.sourceViewBox,
  };
  // The overdraw geometry reads this same parse, as written (the raw root, not the fitted
  // copy): the SVG is parsed once. Only for the outer document, whose root is plain <svg>.
  const outer = (opts.nestedDepth ?? 0) === 0 && rootTag === 'svg';
  // Both readings sample the same shapes: once, shared for this parse only.
  const shapes: ShapeMemo = new Map();
  if (outer && code.expandedElements >= OVERDRAW_MIN_ELEMENTS) {
    const seen: SeenShape[] = [];
    code.overdraw = measureOverdraw(rootNode, shapes, (s) => seen.push(s));
    code.waste = measureWaste(seen);
  }
  // Who owns the frame (for `clipped`): read on every outer document, small ones included.
  // A geometry it cannot read leaves the reading out (the check then uses pixels alone).
  // Not for a document the walk refused (too_large, …): it is not drawn, and a refused
  // document's geometry is exactly what must not be measured at length.
  if (outer && walked.ok) {
    try {
      code.frame = measureFrame(rootNode, shapes);
    } catch {
      code.frame = undefined;
    }
  }
  if (!walked.ok) return { ok: false, error: walked.error, code };
  return { ok: true, svg: walked.svg, code };
}
