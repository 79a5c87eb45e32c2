// Contracts of the render room: SVG code in, a PNG plus the facts checks need out.
// Heavy or hostile work (parsing, sanitising, rasterising, pixel statistics) happens in
// a killable worker process, so everything crossing this boundary is plain data.
import type { ErrorValue, RenderErrorCode } from '../core/errors.ts';
import type { PictureStats } from './picture-stats.ts';

/** The bounds a render refuses to pass, each measured on the SVG before it is drawn. */
export interface RenderLimits {
  maxBytes: number;
  maxElements: number;
  maxDepth: number;
  maxPathSegments: number;
  /** Upper bound on elements after expanding <use> references and markers (fan-out, cycles). */
  maxUseExpansion: number;
  /** Output pixels (size × size). */
  maxPixels: number;
  /** Bytes of embedded data: images, in total. */
  maxDataUriBytes: number;
  /** Elements drawn through a filter (each filter pass costs time over its whole region). */
  maxFilteredElements: number;
  /**
   * Filter primitive passes once every reference is expanded: primitives of each filter ×
   * the elements drawn through it, also via masks, clip paths, patterns, markers, <use> and
   * <style> rules (feTurbulence counts once per octave).
   */
  maxFilterPasses: number;
  /** Characters of text once every reference is expanded (text layout is slow per glyph). */
  maxGlyphs: number;
  /** Characters in one run of text (one line lays out in superlinear time). */
  maxTextRun: number;
}

/**
 * Who draws the picture: librsvg (sharp, in the worker), resvg (@resvg/resvg-js, in the
 * worker), Chromium (the browser room, src/browser), or auto (librsvg, Chromium for the
 * features librsvg draws differently: auto.ts). See docs/rendering.md.
 */
export type RendererName = 'librsvg' | 'resvg' | 'chromium' | 'auto';
/** Every renderer name a render option or flag accepts. */
export const RENDERER_NAMES: readonly RendererName[] = ['librsvg', 'resvg', 'chromium', 'auto'];

/** How to draw one SVG: renderer, size, background, time limit, limits, namespace repair. */
export interface RenderOptions {
  /** Default: DEFAULT_RENDERER (defaults.ts). */
  renderer?: RendererName;
  /** Square output side in px; default 512 (the papers' setting). */
  size?: number;
  /** CSS colour painted under the drawing; default white. */
  background?: string;
  /** Wall-clock limit for one render, ms; default 10 000. */
  timeoutMs?: number;
  limits?: Partial<RenderLimits>;
  /**
   * Repair what an XML parser with namespaces refuses and CairoSVG therefore cannot render:
   * declare a used-but-undeclared `xlink:` prefix, drop other undeclared-prefix names.
   * Default false: "renders" means what it means for the papers' renderer.
   */
  repair?: boolean;
}

/** Facts about the SVG code, measured while sanitising (no pixels needed). */
export interface CodeStats {
  bytes: number;
  elements: number;
  maxDepth: number;
  pathSegments: number;
  /** Elements after <use> expansion. */
  expandedElements: number;
  /** Text content of <text>/<tspan>/<textPath>, in document order. */
  texts: string[];
  /** Count of stroked shapes / paths without fill (decorative strokes). */
  strokedShapes: number;
  /** Things the sanitiser removed, e.g. "script", "href:http", "foreignObject", "css:@import". */
  removed: string[];
  viewBox: [number, number, number, number] | null;
  /**
   * Layers painted per pixel, from the drawing's geometry (overdraw.ts), measured on the
   * sanitiser's parse of the document as written. Absent for a drawing with fewer than 20
   * elements after <use> (OVERDRAW_MIN_ELEMENTS: nothing can pile up), a nested data: SVG
   * document, a root written with a prefix (`<svg:svg>`), and pictures that are not SVG.
   */
  overdraw?: CodeOverdraw;
  /** Ink that never reaches the picture, and scribble (waste.ts); measured where overdraw is. */
  waste?: CodeWaste;
  /**
   * Who owns the frame, from the structure (frame-structure.ts): the `clipped` check's
   * reading of what reaches the edge. Absent where overdraw is (nested and prefixed roots).
   */
  frame?: CodeFrame;
}

/** The frame read from the SVG's structure (src/render/frame-structure.ts). */
export interface CodeFrame {
  /** Points sampled round the edge of the viewBox. */
  points: number;
  /** Longest run of points owned by subjects (closed shapes with their own fill), share. */
  subjectRun: number;
  /** Many subject shapes own the frame, none much of it: a tiling drawn past the edge. */
  tiling: boolean;
  /** …of them, owned by subjects whose part runs past the frame (sliced, not drawn up to it). */
  cutRun: number;
  /** Longest run owned by a shape filling the frame from a side it runs past (a close-up). */
  closeUpRun: number;
  /**
   * The close-up reading (close-up.ts): `bust` where one dominant subject stands on the
   * bottom edge, widening to it (a bust, a portrait crop, a plant grown into the frame);
   * `round` where what stands there is widest inside (a plate, a sitting animal); else null.
   */
  closeUpShape: 'bust' | 'round' | null;
  /** Share of the points per owner class (subject, background, band, scenery, light, …). */
  owners: Record<string, number>;
  /** Lines of text laid out in the pinned fonts running off the frame (first 80 characters each). */
  textsOff: string[];
  /** The largest share of one of those lines' width (or height) outside the frame. */
  textHidden?: number;
  /**
   * Line-art subjects cut by the frame (frame-strokes.ts): a part of stroke-only shapes whose
   * closed outline runs past the frame — the chord's share of the perimeter, the sides cut,
   * how many outlines and stroke shapes. Absent when none.
   */
  lineArt?: { run: number; sides: string[]; outlines: number; shapes: number };
}

/** Overdraw from the geometry: what the clutter check reads (src/checks/overdraw.ts). */
export interface CodeOverdraw {
  /** Σ painted area of filled shapes and strokes, clipped to the canvas / canvas area. */
  layers: number;
  /** Shapes that painted something. */
  shapes: number;
  /** True when the walk stopped at its budget (`layers` is then a lower bound). */
  capped: boolean;
}

/** Elements and vertices spent on nothing visible, or on noise (src/render/waste.ts). */
export interface CodeWaste {
  /** Elements that put no ink in the picture: hidden, zero-area, off the canvas, no paint. */
  noInk: number;
  /** Shapes repeating an earlier shape's geometry, place and paint exactly. */
  duplicates: number;
  /** Shapes lying entirely under a later opaque filled shape. */
  covered: number;
  /** Unfilled strokes whose bounds overlap at least three other strokes' (piled strokes). */
  tangledStrokes: number;
  /** Unfilled strokes as written (not <use> copies) that are not tangled: outlines apart. */
  strokesApart: number;
  /** Vertices where a line turns back by more than 120° (noise scribbled as a random walk). */
  jaggedTurns: number;
  /**
   * Path segments of the elements this walk saw (written, not copies). The code's count can
   * be larger: nested data: documents are counted there and not walked here.
   */
  segmentsSeen: number;
  /** Path segments of the covered shapes (a long path hidden under a rect is padding). */
  coveredSegments: number;
}

/** Facts about the picture, computed on raw pixels inside the worker. */
export interface PixelStats {
  /** Mean squared error against the background colour, channels in [0,1]. */
  mseVsBackground: number;
  /** Share of pixels that differ visibly from the background. */
  inkCoverage: number;
  /** Share of the border ring (outer 1 px) covered by ink: a drawing cut by the canvas. */
  borderInk: number;
  /** Mean over pixels of how many drawn layers cover it, estimated; 0 if not measured. */
  overdraw: number;
  /**
   * The picture against its own dominant colour (ink, edge contact cut vs. band), for the
   * ink_coverage and clipped checks. Optional: a renderer that does not measure it leaves
   * it out and those checks fall back to the fields above.
   */
  picture?: PictureStats;
}

/** A render's outcome: the PNG with its code and pixel statistics, or an error value. */
export type RenderResult =
  | {
      ok: true;
      png: Buffer;
      width: number;
      height: number;
      ms: number;
      code: CodeStats;
      pixels: PixelStats;
    }
  | {
      ok: false;
      error: ErrorValue<RenderErrorCode>;
      ms: number;
      /** Present when sanitising got far enough to measure the code. */
      code?: CodeStats;
    };

/** A sanitised, fitted SVG ready for a renderer outside the worker (Chromium). */
export type SanitizedJob =
  | { ok: true; svg: string; ms: number; code: CodeStats }
  | Extract<RenderResult, { ok: false }>;

/** A renderer that isolates every render; bad input costs one result, never the process. */
export interface Renderer {
  /** Bytes are checked as UTF-8 (invalid → parse_error); a string must be well-formed Unicode. */
  render(svg: string | Uint8Array, opts?: RenderOptions): Promise<RenderResult>;
  close(): Promise<void>;
}
