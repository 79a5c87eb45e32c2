// Renders a batch of SVGs with CairoSVG (the papers' renderer, Debian python3-cairosvg)
// in ONE Python process, for fidelity tests and the benchmark. Debian's /usr/bin/python3
// is used on purpose: a pyenv python3 earlier on PATH does not have cairosvg.
import { spawnSync } from 'node:child_process';
import { fontEnv } from '../../src/core/fonts.ts';

export const SYSTEM_PYTHON = '/usr/bin/python3';

const SCRIPT = `
import sys, json, cairosvg
req = json.load(sys.stdin)
out = []
for item in req['items']:
    try:
        cairosvg.svg2png(bytestring=item['svg'].encode('utf-8'), write_to=item['out'],
                         output_width=req['size'], output_height=req['size'],
                         background_color=req['background'])
        out.append(None)
    except Exception as e:
        out.append(type(e).__name__ + ': ' + str(e))
json.dump(out, sys.stdout)
`;

export interface CairoItem {
  svg: string;
  /** PNG path to write. */
  out: string;
}

/** Renders every item; returns one error string (or null) per item, in order. */
export function renderWithCairoSvg(
  items: CairoItem[],
  size = 512,
  background = 'white',
): (string | null)[] {
  const r = spawnSync(SYSTEM_PYTHON, ['-c', SCRIPT], {
    // The fonts rubrica's renderers read (DejaVu, then the pinned fallback chain), not the
    // system's defaults: a machine with Noto installed resolves "serif" to Noto Serif, and
    // the comparison would measure the font, not the renderer's conventions.
    env: { ...process.env, ...fontEnv() },
    input: JSON.stringify({ items, size, background }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    throw new Error(
      `CairoSVG batch failed (is Debian python3-cairosvg installed?): ${r.stderr || r.error}`,
    );
  }
  return JSON.parse(r.stdout) as (string | null)[];
}
