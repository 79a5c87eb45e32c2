// Bytes of the PNG written from colour runs (png-encode.ts) against the PNG the worker wrote
// before (the same rows built byte by byte, Node's zlib at level 1), on the bench's Fluent
// Emoji and on the checks' labelled set, each rendered as a render worker does (sanitise,
// librsvg at 512², flattened on white). Also checks that both streams inflate to the same
// rows. Not a test: the size is a figure to keep, the equality is tested in
// src/render/deflate-runs.test.ts.
//   node --import tsx bench/png-size.ts [emoji files, default 1000]
import { deflateSync, inflateSync } from 'node:zlib';
import { RENDER_DENSITY } from '../src/render/fit.ts';
import { resolveLimits } from '../src/render/limits.ts';
import { flattenAndMeasure } from '../src/render/pixel-stats.ts';
import { pngEncoder } from '../src/render/png-encode.ts';
import { sanitizeSvg } from '../src/render/sanitize.ts';
import sharp from '../src/render/sharp.ts';
import { labelledSet } from '../test/checks/labelled-set.ts';
import { fluentEmoji } from '../test/support/corpus.ts';
import { idatOf, referenceRows } from '../test/support/png-rows.ts';

const encode = await pngEncoder();
const limits = resolveLimits(undefined);

async function measure(name: string, svgs: string[]): Promise<void> {
  const ratios: number[] = [];
  let ours = 0;
  let zlib1 = 0;
  let skipped = 0;
  for (const svg of svgs) {
    const clean = sanitizeSvg(svg, { limits, size: 512, repair: false });
    if (!clean.ok) {
      skipped++;
      continue;
    }
    const { data, info } = await sharp(Buffer.from(clean.svg), {
      density: RENDER_DENSITY,
      limitInputPixels: limits.maxPixels,
    })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { runs } = flattenAndMeasure(data, info.width, info.height, [255, 255, 255]);
    const rows = referenceRows(runs, info.width, info.height);
    const png = encode(runs, info.width, info.height);
    if (!inflateSync(idatOf(png)).equals(rows)) throw new Error(`${name}: rows differ`);
    // The old PNG: the same three chunks (57 bytes) around zlib's level-1 stream.
    const before = 57 + deflateSync(rows, { level: 1 }).length;
    ours += png.length;
    zlib1 += before;
    ratios.push(png.length / before);
  }
  ratios.sort((a, b) => a - b);
  const n = ratios.length;
  const q = (f: number) => ratios[Math.min(n - 1, Math.floor(f * n))]!.toFixed(3);
  console.log(
    `${name}: ${n} pictures (${skipped} refused by the sanitiser), bytes a picture ` +
      `${Math.round(ours / n)} (runs) vs ${Math.round(zlib1 / n)} (zlib level 1): ` +
      `${(ours / zlib1).toFixed(3)}× in total; per picture median ${q(0.5)}×, ` +
      `p90 ${q(0.9)}×, max ${ratios[n - 1]!.toFixed(3)}×, min ${ratios[0]!.toFixed(3)}×; rows identical`,
  );
}

const files = Number(process.argv[2] ?? '1000');
await measure(
  'Fluent Emoji',
  fluentEmoji(files).map((i) => i.svg),
);
await measure(
  'labelled set',
  labelledSet().map((i) => i.svg),
);
