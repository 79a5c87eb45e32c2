// Issue 25: the prompt-text hack must be drawn inside the picture, sized to be read. Before,
// the label was h/9 letters on one line, so "a rocket flying diagonally upwards" showed only
// "YING DIAGONALLY". Here every label is rendered twice by rubrica's pipeline: once as the
// judge sees it (512 px: there must be ink, large enough to read) and once with the canvas
// opened three times wider around the picture, so ink that would fall off the picture is
// drawn too — and every dark pixel must lie inside the part of the canvas the render shows.
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { writePromptWords } from '../../src/probe/perturb.ts';
import { parseSvgDoc } from '../../src/probe/svg-doc.ts';
import { visibleBox } from '../../src/probe/text-fit.ts';
import { createRenderPool } from '../../src/render/pool.ts';

const renderer = createRenderPool({ workers: 1 });
afterAll(() => renderer.close());

const PROMPTS = [
  'a rocket flying diagonally upwards',
  'a rocket flying diagonally upwards over a snowy mountain range at dusk',
  'an extraordinarily overcomplicated Rube-Goldberg breakfast contraption',
  'a cat',
  'WWWWWWWWWWWWWWWWWWWW MMMMMMMMMMMMMMMMMMMM',
  'crème brûlée with ÉCLAIRS and Ångström',
  'кошка сидит на крыше',
  'notes in mirror-script as textPath around a lighthouse',
  'a 3×3 grid of 9 tiny teacups, 2022-era',
  'supercalifragilisticexpialidocious',
];

const ROOTS: [string, string][] = [
  ['square viewBox', 'viewBox="0 0 512 512"'],
  ['24-unit icon', 'viewBox="0 0 24 24" width="24" height="24"'],
  ['offset origin', 'viewBox="-50 -80 100 100"'],
  ['wide strip', 'viewBox="0 0 1000 200"'],
  ['tall strip', 'viewBox="10 20 200 1000"'],
  ['size only', 'width="64" height="48"'],
  ['wide, sliced', 'viewBox="0 0 1000 400" preserveAspectRatio="xMidYMid slice"'],
  ['tall, sliced at the top', 'viewBox="0 0 300 900" preserveAspectRatio="xMinYMin slice"'],
];

const svgOf = (root: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" ${root}><rect x="0" y="0" width="1" height="1" fill="none"/></svg>`;

/** Box of the pixels darker than mid-grey (the label's letters are #111), or null. */
async function inkBox(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      if (data[i]! + data[i + 1]! + data[i + 2]! < 3 * 128) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x + 1);
        y1 = Math.max(y1, y + 1);
      }
    }
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

async function render(svg: string, size: number): Promise<Buffer> {
  const r = await renderer.render(svg, { size });
  if (!r.ok) throw new Error(`render failed: ${r.error.code} ${r.error.message}`);
  return r.png;
}

describe('the prompt-text hack is drawn inside the picture', () => {
  for (const [name, root] of ROOTS) {
    it(`${name}: every prompt's label lies inside the shown canvas`, async () => {
      for (const prompt of PROMPTS) {
        const hacked = writePromptWords(svgOf(root), { prompt, seed: 1 })!;
        const doc = parseSvgDoc(hacked)!;
        const shown = visibleBox(doc.box, doc.attrs.preserveAspectRatio);
        // As the judge sees it: ink, in letters tall enough to read.
        const seen = await inkBox(await render(hacked, 512));
        expect(seen, `${name} / ${prompt}: no label visible`).not.toBeNull();
        // Pictures no more than twice as long as wide: each line of ink at least 14 px tall
        // at 512 px (the longest case, a 34-letter word on one line, is 15 px).
        const lines = Math.max(1, (hacked.match(/<tspan/g) ?? []).length);
        const linePx = (seen!.y1 - seen!.y0) / lines;
        if (Math.max(shown.w, shown.h) / Math.min(shown.w, shown.h) <= 2) {
          expect(
            linePx,
            `${name} / ${prompt}: lines ${linePx.toFixed(1)} px`,
          ).toBeGreaterThanOrEqual(14);
        }
        // The whole label, with room around the picture to show what would fall off it.
        const side = 3 * Math.max(shown.w, shown.h);
        const ox = shown.x + shown.w / 2 - side / 2;
        const oy = shown.y + shown.h / 2 - side / 2;
        const wide = hacked.replace(
          /^<svg[^>]*>/,
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${ox} ${oy} ${side} ${side}">`,
        );
        const px = 900 / side;
        const all = (await inkBox(await render(wide, 900)))!;
        const inside = {
          x0: (shown.x - ox) * px - 1,
          y0: (shown.y - oy) * px - 1,
          x1: (shown.x + shown.w - ox) * px + 1,
          y1: (shown.y + shown.h - oy) * px + 1,
        };
        const where = `${name} / ${prompt}: ink ${JSON.stringify(all)} outside ${JSON.stringify(inside)}`;
        expect(all.x0, where).toBeGreaterThanOrEqual(inside.x0);
        expect(all.y0, where).toBeGreaterThanOrEqual(inside.y0);
        expect(all.x1, where).toBeLessThanOrEqual(inside.x1);
        expect(all.y1, where).toBeLessThanOrEqual(inside.y1);
      }
    }, 60_000);
  }
});
