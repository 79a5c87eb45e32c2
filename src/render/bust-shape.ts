// The shape that tells a bust from a subject the bottom edge slices (issue 40), shared by the
// filled close-up reading (close-up.ts) and the line-art one (frame-strokes.ts). Its own
// module because frame-shapes.ts, which close-up.ts reads, imports frame-strokes.ts.

/**
 * Widening toward the cut: the width at the bottom edge is at least this share of the
 * widest row in the lower half of the subject. Below it, the subject is widest inside: a
 * disc or a glass sliced by the edge, a seahorse's tail.
 */
export const WIDENS = 0.85;
