// The frame reading's own CPU (src/render/frame-structure.ts `measureFrame`), in isolation,
// on the drawings it reads in practice: Fluent Emoji (the render bench's corpus) and the
// scene sets (real, held out, composed seed 40, the labelled set). Not a test.
//   node --import tsx bench/frame-loop.ts dump [N]      one JSON line per drawing: the reading
//     (and the overdraw measure, which shares the sampled shapes)
//   node --import tsx bench/frame-loop.ts time [N] [R]  CPU-ms per drawing, R rounds
//   node --import tsx bench/frame-loop.ts ab DIR [N] [R] alternates DIR's measureFrame (a
//     checkout of another commit's src/, e.g. `git archive REF src | tar -x -C DIR`) with
//     this tree's, round by round, and prints each side's CPU-ms per drawing and the ratio.
//     WHAT=sanitize times the whole sanitiser instead (sanitizeSvg at 512, as a worker calls it).
// Each drawing is parsed once, by the sanitiser's parser, and the overdraw walk fills the
// shape memo first, as in sanitize.ts; only measureFrame is timed.
import { XMLParser } from '../src/core/xml-parser.ts';
import { measureFrame } from '../src/render/frame-structure.ts';
import { measureOverdraw, OVERDRAW_MIN_ELEMENTS, type ShapeMemo } from '../src/render/overdraw.ts';
import { sanitizeSvg } from '../src/render/sanitize.ts';
import type { XNode } from '../src/render/walker.ts';
import { holdoutScenes } from '../test/checks/holdout-scenes.ts';
import { labelledSet } from '../test/checks/labelled-set.ts';
import { realScenes } from '../test/checks/real-scenes.ts';
import { sceneCorpus } from '../test/checks/scene-corpus.ts';
import { fluentEmoji } from '../test/support/corpus.ts';

type Measure = typeof measureFrame;
type Sanitize = typeof sanitizeSvg;
/** What is timed: WHAT=sanitize times the whole sanitiser (parse, walk, overdraw, frame). */
const WHAT = process.env.WHAT === 'sanitize' ? 'sanitize' : 'frame';
const mode = process.argv[2] ?? 'time';
const args = process.argv.slice(mode === 'ab' ? 4 : 3).map(Number);
const N = args[0] || 300;
const ROUNDS = args[1] || 8;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  htmlEntities: true,
});

interface Doc {
  id: string;
  svg: string;
  root: XNode;
  overdraw: boolean;
}
const docs: Doc[] = [];
const add = (id: string, svg: string) => {
  try {
    const parsed = parser.parse(svg) as XNode[];
    const root = parsed.find((n) => 'svg' in n);
    if (!root) return;
    const count = (n: XNode): number => {
      const kids = n[Object.keys(n).find((k) => k !== ':@')!];
      return 1 + (Array.isArray(kids) ? (kids as XNode[]).reduce((a, k) => a + count(k), 0) : 0);
    };
    docs.push({ id, svg, root, overdraw: count(root) >= OVERDRAW_MIN_ELEMENTS });
  } catch {
    // not well-formed: the sanitiser refuses it before the frame is read
  }
};
// SETS=emoji,real,holdout,scene40,labelled (the default: all of them).
const sets = new Set((process.env.SETS ?? 'emoji,real,holdout,scene40,labelled').split(','));
if (sets.has('emoji')) for (const e of fluentEmoji(N)) add(`emoji:${e.name}`, e.svg);
if (sets.has('real')) for (const s of realScenes()) add(s.id, s.svg);
if (sets.has('holdout')) for (const s of holdoutScenes()) add(s.id, s.svg);
if (sets.has('scene40')) for (const s of sceneCorpus(40)) add(`scene40:${s.id}`, s.svg);
if (sets.has('labelled')) for (const s of labelledSet()) add(`labelled:${s.id}`, s.svg);

/**
 * One pass over every drawing: CPU-ms per drawing spent in `measure` alone. `best`, if
 * given, keeps each drawing's least wall time over the passes (ms): on a loaded machine the
 * sum of those minima is steadier than any one pass's CPU.
 */
function pass(
  measure: Measure,
  out?: (id: string, frame: unknown) => void,
  best?: Float64Array,
  sanitize: Sanitize = sanitizeSvg,
): number {
  let spent = 0;
  for (const [i, d] of docs.entries()) {
    const memo: ShapeMemo = new Map();
    const overdraw = WHAT === 'frame' && d.overdraw ? measureOverdraw(d.root, memo) : undefined;
    const t0 = process.cpuUsage();
    const w0 = performance.now();
    let frame: unknown;
    try {
      frame = WHAT === 'frame' ? measure(d.root, memo) : sanitize(d.svg, { size: 512 });
    } catch (err) {
      frame = { threw: String(err) };
    }
    const w = performance.now() - w0;
    const t = process.cpuUsage(t0);
    spent += (t.user + t.system) / 1000;
    if (best && w < best[i]!) best[i] = w;
    out?.(d.id, { frame, overdraw });
  }
  return spent / docs.length;
}
const minima = () => new Float64Array(docs.length).fill(Infinity);
const perDrawing = (best: Float64Array) => best.reduce((a, b) => a + b, 0) / best.length;

if (mode === 'dump') {
  pass(measureFrame, (id, frame) => console.log(JSON.stringify({ id, frame })));
} else if (mode === 'time') {
  console.log(`${docs.length} drawings`);
  for (let r = 0; r < ROUNDS; r++)
    console.log(`round ${r}: ${pass(measureFrame).toFixed(4)} CPU-ms`);
} else if (mode === 'ab') {
  const dir = process.argv[3]!;
  const other = (await import(`${dir}/src/render/frame-structure.ts`)) as {
    measureFrame: Measure;
  };
  const otherSanitize = (
    (await import(`${dir}/src/render/sanitize.ts`)) as { sanitizeSvg: Sanitize }
  ).sanitizeSvg;
  console.log(`${docs.length} drawings, timing ${WHAT}; A = ${dir}, B = this tree`);
  const ratios: number[] = [];
  const [bestA, bestB] = [minima(), minima()];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which side goes first, so neither always runs on a warmer cache.
    let a: number;
    let b: number;
    if (r % 2 === 0) {
      a = pass(other.measureFrame, undefined, bestA, otherSanitize);
      b = pass(measureFrame, undefined, bestB);
    } else {
      b = pass(measureFrame, undefined, bestB);
      a = pass(other.measureFrame, undefined, bestA, otherSanitize);
    }
    ratios.push(b / a);
    console.log(`round ${r}: A ${a.toFixed(4)}  B ${b.toFixed(4)}  B/A ${(b / a).toFixed(3)}`);
  }
  const sorted = [...ratios.slice(1)].sort((x, y) => x - y);
  console.log(
    `B/A median of rounds 1..${ROUNDS - 1}: ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)} [${sorted[0]!.toFixed(3)}, ${sorted.at(-1)!.toFixed(3)}]`,
  );
  const [ma, mb] = [perDrawing(bestA), perDrawing(bestB)];
  console.log(
    `per-drawing least wall time over ${ROUNDS} rounds: A ${ma.toFixed(4)}  B ${mb.toFixed(4)} ms  B/A ${(mb / ma).toFixed(3)}`,
  );
}
