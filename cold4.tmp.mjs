const root = process.argv[2];
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 64 64"><circle cx="32" cy="36" r="22" fill="#d22"/></svg>`;
const sharp = (await import(`${root}/dist/render/sharp.js`)).default;
sharp.concurrency(1);
sharp.cache(false);
const { flattenInPlace } = await import(`${root}/dist/render/pixel-stats.js`);
const ras = await import(`${root}/dist/render/rasterize.js`);
let pe;
try {
  pe = await import(`${root}/dist/render/png-encode.js`);
} catch {}
const lap = (() => {
  let t = process.hrtime.bigint();
  return () => {
    const n = process.hrtime.bigint();
    const d = Number(n - t) / 1e6;
    t = n;
    return d.toFixed(1);
  };
})();
const { data, info } = await sharp(Buffer.from(svg))
  .ensureAlpha()
  .raw()
  .toBuffer({ resolveWithObject: true });
const a = lap();
flattenInPlace(data, info.width, info.height, [255, 255, 255]);
const b = lap();
if (pe) {
  const enc = await pe.pngEncoder();
  const c0 = lap();
  enc(data, info.width, info.height);
  console.log(root, 'raster', a, 'flatten', b, 'zlib load', c0, 'encode', lap());
} else {
  await ras.encodeOpaquePng(data, info.width, info.height);
  console.log(root, 'raster', a, 'flatten', b, 'encode', lap());
}
