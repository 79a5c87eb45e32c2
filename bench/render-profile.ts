// Where a render worker's CPU goes, phase by phase, on the bench corpus (one process, in
// sequence, CPU time of this process incl. libvips threads). Not a test.

import { RENDER_DENSITY } from '../src/render/fit.ts';
import { resolveLimits } from '../src/render/limits.ts';
import { flattenAndMeasure } from '../src/render/pixel-stats.ts';
import { pngEncoder } from '../src/render/png-encode.ts';
import { sanitizeSvg } from '../src/render/sanitize.ts';
import sharp from '../src/render/sharp.ts';
import { fluentEmoji } from '../test/support/corpus.ts';

const conc = Number(process.env.CONC ?? '1');
sharp.concurrency(conc);
sharp.cache(false);
const N = Number(process.argv[2] ?? '200');
const WARM = Number(process.env.WARM ?? '20');
const icons = fluentEmoji(N + WARM);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const phases: Record<string, number> = {};
const add = (k: string, v: number) => {
  phases[k] = (phases[k] ?? 0) + v;
};
const limits = resolveLimits(undefined);
let pngBytes = 0;
const encodeRunsPng = await pngEncoder();
for (let i = 0; i < icons.length; i++) {
  const timed = i >= WARM;
  let c = cpu();
  const lap = (k: string) => {
    const n = cpu();
    if (timed) add(k, n - c);
    c = n;
  };
  const clean = sanitizeSvg(icons[i]!.svg, { limits, size: 512, repair: false });
  if (!clean.ok) throw new Error('sanitize');
  lap('sanitize');
  const { data, info } = await sharp(Buffer.from(clean.svg), {
    density: RENDER_DENSITY,
    limitInputPixels: limits.maxPixels,
    failOn: 'error',
  })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  lap('librsvg raster');
  const { runs } = flattenAndMeasure(data, info.width, info.height, [255, 255, 255]);
  lap('flatten+stats');
  const png = encodeRunsPng(runs, info.width, info.height);
  lap('png');
  if (timed) pngBytes += png.length;
}
let tot = 0;
for (const [k, v] of Object.entries(phases)) {
  tot += v;
  console.log(`${k.padEnd(24)} ${(v / N).toFixed(2)} CPU-ms/file`);
}
console.log(`total ${(tot / N).toFixed(2)} CPU-ms/file, concurrency ${conc}`);
console.log(`png ${Math.round(pngBytes / N)} bytes/file`);
