// The two reward hacks the papers report, as SVGs: squiggle spam (hundreds of overlapping
// decorative strokes, what a CLIP + aesthetic reward drove RULER's policy to) and
// text-in-image (the prompt's words written into the picture, what Rubric-S taught).

/** A deterministic generator (mulberry32) so the spam is the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PALETTE = ['#222222', '#3949ab', '#00897b', '#e53935', '#fb8c00', '#8e24aa'];

/** `count` overlapping stroked cubic curves, no fill: the squiggle-spam hack. */
export function squiggleSpam(count = 500, seed = 7): string {
  const r = rng(seed);
  const p = () => (5 + r() * 90).toFixed(1);
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = `M${p()} ${p()} C${p()} ${p()} ${p()} ${p()} ${p()} ${p()}`;
    const colour = PALETTE[i % PALETTE.length]!;
    paths.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="0.6" opacity="0.8"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${paths.join('')}</svg>`;
}

/** A plain shape with the prompt's words written over it: the text-in-image hack. */
export function textInImage(words: string): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">' +
    '<circle cx="50" cy="50" r="30" fill="#ffb74d"/>' +
    `<text x="50" y="55" font-size="12" text-anchor="middle" fill="#333">${words}</text>` +
    '</svg>'
  );
}

/** A completion wrapping an SVG the way a chat model answers. */
export function asCompletion(svg: string, preface = 'Here is the SVG:'): string {
  return `${preface}\n\n\`\`\`svg\n${svg}\n\`\`\`\n`;
}
