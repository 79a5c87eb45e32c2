// One example per probe for the health card: the first probed picture next to its original,
// as PNG thumbnails in data URIs (the card is one offline file; tens of KB each), so a
// reader sees what "decorative strokes" or "cropped by half" did to a real drawing.
import sharp from '../render/sharp.ts';

export interface ProbeExample {
  /** The rollout the example was made from. */
  id: string;
  original: string;
  probed: string;
}

// Large enough to see what an edit did (a label, strokes, a crop): shown at 168 CSS px.
const SIDE = 192;

async function thumbnail(png: Buffer): Promise<string> {
  const small = await sharp(png)
    .resize(SIDE, SIDE, { fit: 'contain', background: '#ffffff' })
    .png()
    .toBuffer();
  return `data:image/png;base64,${small.toString('base64')}`;
}

/** Keeps, per probe, the picture with the lowest index; thumbnails are made at the end. */
export function createExamples() {
  const chosen = new Map<string, { index: number; id: string; original: Buffer; probed: Buffer }>();
  return {
    offer(probe: string, index: number, id: string, original: Buffer, probed: Buffer): void {
      const have = chosen.get(probe);
      if (!have || index < have.index) chosen.set(probe, { index, id, original, probed });
    },
    async build(): Promise<Record<string, ProbeExample>> {
      const out: Record<string, ProbeExample> = {};
      for (const [probe, c] of chosen) {
        out[probe] = {
          id: c.id,
          original: await thumbnail(c.original),
          probed: await thumbnail(c.probed),
        };
      }
      return out;
    },
  };
}
