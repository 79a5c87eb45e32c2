// Checks on the rendered picture: did it render (Reason-SVG's R_render), is it blank, how
// much was drawn on the picture's own ground, is the drawing cut by the canvas edge. They
// read the PixelStats the render worker measured; nothing here touches pixels again.
import type { PixelStats } from '../render/types.ts';
import type { Check } from './types.ts';

/** 1 when the SVG rendered, else 0 (and flagged, with the render's error code). */
export const renders: Check = ({ artifact, render }) => {
  if (render?.ok) return { name: 'renders', value: 1, flag: false, unit: 'score' };
  const code = render ? render.error.code : (artifact.error?.code ?? 'no_svg');
  return { name: 'renders', value: 0, flag: true, unit: 'score', detail: { error: code } };
};

/** MSE against the background; flagged below `blankMse` (an (almost) uniform picture). */
export const blank: Check = ({ render, options }) => {
  if (!render?.ok) return { name: 'blank', value: 0, unit: 'mse', detail: { rendered: false } };
  const mse = render.pixels.mseVsBackground;
  return {
    name: 'blank',
    value: mse,
    flag: mse < options.blankMse,
    unit: 'mse',
    detail: { threshold: options.blankMse },
  };
};

/**
 * Share of the canvas that differs visibly from the picture's own dominant colour (its
 * ground: white paper, a sky, a full-bleed card). Flagged below `inkMinCoverage`: nothing,
 * or next to nothing, was drawn on the ground — an empty canvas, a lone background rect of
 * any colour, a speck, a shape faded to nearly invisible or placed off the canvas.
 * `detail.againstBackground` is the share against the render background (the old number,
 * ≈ 1 for any full-bleed background).
 */
export const inkCoverage: Check = ({ render, options }) => {
  if (!render?.ok)
    return { name: 'ink_coverage', value: 0, unit: 'ratio', detail: { rendered: false } };
  const pic = render.pixels.picture;
  const value = pic ? pic.ink : render.pixels.inkCoverage;
  return {
    name: 'ink_coverage',
    value,
    flag: value < options.inkMinCoverage,
    unit: 'ratio',
    detail: {
      against: pic ? 'dominant colour' : 'render background',
      againstBackground: render.pixels.inkCoverage,
      ...(pic ? { dominant: pic.dominant, dominantShare: pic.dominantShare } : {}),
      threshold: options.inkMinCoverage,
    },
  };
};

const SIDES = ['top', 'right', 'bottom', 'left'] as const;
/** At least this many pieces cut by the frame… */
export const PATTERN_REGIONS = 12;
/** …with the largest under this share of the cut: a pattern running off the canvas… */
export const PATTERN_DOMINANCE = 0.25;
/**
 * …spread round at least this share of the frame's perimeter. A tiling runs off the frame
 * all round it; a subject of many parts (a temple's tiers, a face's features, a flower's
 * petals) pushed over one edge is cut on one stretch of it, and is a subject (issue 25).
 */
export const PATTERN_SPREAD = 0.5;

function cutSides(pic: NonNullable<PixelStats['picture']>): string[] {
  return SIDES.filter((_, i) => pic.edgeCutBySide[i]! > 0);
}

/**
 * The largest share of the border ring that one shape cut by the frame covers. Ink on the
 * ring (against the picture's dominant colour) is cut unless its region of gradually
 * changing colour reaches the opposite edge or its row/column is a band of its colour
 * across the canvas (picture-stats.ts): grounds, skies, seas, bridges, strips and
 * backgrounds that run edge to edge are not cut, nor is scenery (sceneryCut: broad, a strip,
 * a line, grazed, drawn edge to edge), nor a pattern that the frame cuts into many small
 * pieces all round it. `detail.touchesEdge` still says when anything touches the frame.
 */
export const clipped: Check = ({ render, options }) => {
  if (!render?.ok) return { name: 'clipped', value: 0, unit: 'ratio', detail: { rendered: false } };
  const pic = render.pixels.picture;
  if (!pic) {
    const ring = render.pixels.borderInk;
    return {
      name: 'clipped',
      value: ring,
      flag: ring >= options.clippedMinBorderInk && ring < options.clippedMaxBorderInk,
      unit: 'ratio',
      detail: {
        rule: 'touches edge',
        min: options.clippedMinBorderInk,
        fullBleedAt: options.clippedMaxBorderInk,
      },
    };
  }
  // A frame cutting many pieces all round it, none of them a large part of the cut, is a
  // pattern or a tiling running off the canvas (tiles, bricks, dots): by design.
  const pattern =
    pic.edgeCutRegions >= PATTERN_REGIONS &&
    pic.edgeCutLargest < PATTERN_DOMINANCE * (pic.edgeCut + (pic.edgeScenery ?? 0)) &&
    (pic.edgeCutSpread ?? 1) >= PATTERN_SPREAD;
  const pixelCut = !pattern && pic.edgeCutLargest >= options.clippedMinBorderInk;
  const frame = render.code?.frame;
  const base = {
    pattern,
    cutTotal: pic.edgeCut,
    cutRegions: pic.edgeCutRegions,
    spread: pic.edgeCutSpread,
    scenery: pic.edgeScenery,
    sides: cutSides(pic),
    touchesEdge: pic.edgeInk > 0,
    edgeInk: pic.edgeInk,
    min: options.clippedMinBorderInk,
  };
  if (!frame)
    return {
      name: 'clipped',
      value: pic.edgeCutLargest,
      flag: pixelCut,
      unit: 'ratio',
      detail: { rule: 'cut by frame', ...base },
    };
  // Issue 40: the pixels say where something is cut; the structure says what it is. A cut
  // counts only where a subject owns a run of the frame as long as the threshold — light,
  // background, bands, scenery and close-ups reaching the frame are not cut — and text
  // running off the frame is cut whatever it is drawn over.
  // Where the pixels cannot see the cut (a subject over rays, bokeh, noise or a pattern joins
  // their regions), a subject whose part runs well past the frame is cut on its own word.
  // The pixels must still show ink on the frame for it (half the run at least: a geometry
  // read against the wrong frame — units, a root transform — shows none), and the frame
  // must not cut a tiling drawn past the edge (many subject shapes, none owning much). The
  // pixels' own pattern rule is not asked: rays and bokeh over a subject cut the frame's
  // pixels into many pieces too.
  const sliced =
    frame.cutRun >= options.clippedMinBorderInk && !frame.tiling && pic.edgeInk >= frame.cutRun / 2;
  // A line-art subject (strokes only) cut through a closed outline (frame-strokes.ts): its
  // strokes cross the border in a few points, under any pixel floor, so its geometry decides;
  // the pixels must show ink on the frame.
  const lineArt =
    frame.lineArt !== undefined &&
    frame.lineArt.run >= options.clippedMinBorderInk &&
    pic.edgeInk > 0;
  const subjectCut =
    (pixelCut && frame.subjectRun >= options.clippedMinBorderInk) || sliced || lineArt;
  const textCut = frame.textsOff.length > 0;
  // A close-up is a part filling the frame from the bottom it runs past, or one dominant
  // subject standing on the bottom edge drawn up to it (close-up.ts): reported, not flagged.
  const closeUp =
    !subjectCut &&
    (frame.closeUpRun >= options.clippedMinBorderInk || frame.closeUpShape === 'bust');
  const value = subjectCut
    ? Math.max(
        Math.min(pic.edgeCutLargest, frame.subjectRun),
        sliced ? frame.cutRun : 0,
        lineArt ? frame.lineArt!.run : 0,
      )
    : 0;
  return {
    name: 'clipped',
    // A cut line reports the share of it the frame hides (at least the threshold): a title
    // missing its last word reads larger than one missing half a letter.
    value: textCut ? Math.max(value, options.clippedMinBorderInk, frame.textHidden ?? 0) : value,
    flag: subjectCut || textCut,
    unit: 'ratio',
    detail: {
      rule: 'subject or text cut by frame',
      cut: subjectCut ? 'subject' : textCut ? 'text' : closeUp ? 'close_up' : 'none',
      closeUp,
      ...(textCut ? { textsOff: frame.textsOff, textHidden: frame.textHidden ?? 0 } : {}),
      pixelCut: pic.edgeCutLargest,
      subjectRun: frame.subjectRun,
      cutRun: frame.cutRun,
      ...(frame.lineArt ? { lineArt: frame.lineArt } : {}),
      tiling: frame.tiling,
      closeUpRun: frame.closeUpRun,
      closeUpShape: frame.closeUpShape,
      owners: frame.owners,
      ...base,
    },
  };
};
