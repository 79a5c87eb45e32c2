// The sandbox under attack: every hostile case runs through ONE render pool in this one
// test process. Each must end within its time limit with an error code or a safe picture,
// nothing may reach the network (a loopback server counts requests) or the file system
// (planted magenta files must never colour a picture, a planted secret never appear), and
// a normal SVG must render right after.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRenderPool,
  type RenderPool,
  type RenderResult,
  sanitizeSvg,
} from '../../src/render/index.ts';
import { fluentEmoji } from '../support/corpus.ts';
import {
  cssEscapeCases,
  doc,
  type HostileCase,
  hostileCases,
  PLANT_RGB,
  type Planted,
  renderSlotCases,
} from './hostile-svgs.ts';

const TIMEOUT_MS = 8_000;

/** Pixels within 60 (per channel) of the planted magenta. */
async function plantedPixels(png: Buffer): Promise<number> {
  const raw = await sharp(png).removeAlpha().raw().toBuffer();
  let n = 0;
  for (let i = 0; i < raw.length; i += 3) {
    if (
      Math.abs(raw[i]! - PLANT_RGB[0]) < 60 &&
      Math.abs(raw[i + 1]! - PLANT_RGB[1]) < 60 &&
      Math.abs(raw[i + 2]! - PLANT_RGB[2]) < 60
    ) {
      n++;
    }
  }
  return n;
}

describe('hostile SVGs', () => {
  let dir: string;
  let server: Server;
  let requests: string[];
  let planted: Planted;
  let pool: RenderPool;
  let cwd: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rubrica-hostile-'));
    mkdirSync(join(dir, 'sub'));
    const magenta = { r: PLANT_RGB[0], g: PLANT_RGB[1], b: PLANT_RGB[2] };
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: magenta } })
      .png()
      .toBuffer();
    writeFileSync(join(dir, 'planted.png'), png);
    writeFileSync(
      join(dir, 'planted.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect id="p" width="10" height="10" fill="#f0f"/></svg>',
    );
    writeFileSync(join(dir, 'planted.css'), 'rect { fill: #f0f !important }');
    const secretText = 'PLANTED-SECRET-7f3a';
    writeFileSync(join(dir, 'secret.txt'), secretText);
    requests = [];
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.setHeader('content-type', req.url?.endsWith('.png') ? 'image/png' : 'text/css');
      res.end(req.url?.endsWith('.png') ? png : 'rect { fill: #f0f }');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    planted = {
      dir,
      png: join(dir, 'planted.png'),
      svg: join(dir, 'planted.svg'),
      secret: join(dir, 'secret.txt'),
      secretText,
      httpBase: `http://127.0.0.1:${port}`,
    };
    // Workers inherit this cwd, so a relative href would resolve next to the planted files.
    cwd = process.cwd();
    process.chdir(dir);
    pool = createRenderPool({ workers: 2, timeoutMs: TIMEOUT_MS });
  });

  afterAll(async () => {
    await pool?.close();
    process.chdir(cwd);
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs cases in parallel through the pool and checks every outcome. */
  async function runCases(cases: HostileCase[]): Promise<void> {
    const outcomes: { name: string; result: RenderResult; wall: number }[] = [];
    // Run in parallel as a trainer would: a hostile file must not hurt its neighbours.
    await Promise.all(
      cases.map(async (c) => {
        const t0 = performance.now();
        const result = await pool.render(c.svg, c.opts);
        outcomes.push({ name: c.name, result, wall: performance.now() - t0 });
      }),
    );
    const summary = outcomes.map(
      (o) => `${o.name}: ${o.result.ok ? 'ok' : o.result.error.code} ${o.result.ms}ms`,
    );
    console.log(summary.join('\n'));

    for (const c of cases) {
      const o = outcomes.find((x) => x.name === c.name)!;
      const r = o.result;
      const outcome = r.ok ? 'ok' : r.error.code;
      expect(c.expect, `${c.name} → ${outcome} ${r.ok ? '' : r.error.message}`).toContain(outcome);
      if (!r.ok && c.because) expect(r.error.message, c.name).toContain(c.because);
      if (r.ok) {
        for (const what of c.removed ?? []) expect(r.code.removed, c.name).toContain(what);
        expect(await plantedPixels(r.png), `${c.name}: planted colour in picture`).toBe(0);
        expect(r.code.texts.join(' '), c.name).not.toContain(planted.secretText);
        expect(r.pixels.inkCoverage, `${c.name}: the clean part still draws`).toBeGreaterThan(0);
      }
    }
    expect(requests, 'an SVG reached the network').toEqual([]);
  }

  it('every case ends in time with an allowed outcome, no fetch, no planted content', async () => {
    await runCases(hostileCases(planted));
  });

  // Issue 10 items 1 and 16, in the same pool after the cases above (run apart so their
  // load does not push the older size cases past the wall clock on a busy machine).
  it('CSS escape attacks: no fetch, no planted colour; render-slot cases refused', async () => {
    const cases = [...cssEscapeCases(planted), ...renderSlotCases(planted)];
    expect(cases.length).toBeGreaterThanOrEqual(30);
    await runCases(cases);
  });

  it('leaves no external reference in the sanitised text, nested documents included', () => {
    // librsvg fed from memory and CairoSVG without unsafe=True do not load these today
    // (measured); this checks the sanitiser itself, so a renderer change cannot open a hole.
    const strip = (svg: string): string => {
      const nested = [...svg.matchAll(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/g)];
      return svg + nested.map((m) => strip(Buffer.from(m[1]!, 'base64').toString('utf8'))).join('');
    };
    for (const c of [...hostileCases(planted), ...cssEscapeCases(planted)]) {
      const r = sanitizeSvg(c.svg, { size: 512, ...c.opts });
      if (!r.ok) continue;
      const all = strip(r.svg);
      for (const bad of [
        'planted',
        '127.0.0.1',
        'file:',
        'secret',
        '@import',
        '<script',
        'onload',
      ]) {
        expect(all, `${c.name} keeps ${bad}`).not.toContain(bad);
      }
      expect(all.match(/url\(\s*['"]?[^#'"\s)]/g), c.name).toBeNull();
    }
  });

  it('refuses the size limits quickly, in the sanitiser, not by timeout', async () => {
    const all = [...hostileCases(planted), ...renderSlotCases(planted)];
    const cases = all.filter((c) => c.expect.join() === 'too_large');
    for (const c of cases) {
      const r = await pool.render(c.svg, c.opts);
      expect(r.ok, c.name).toBe(false);
      // Refused by the sanitiser's limits, not by the wall clock.
      if (!r.ok) expect(r.error.code, c.name).toBe('too_large');
      if (!r.ok) expect(r.ms, c.name).toBeLessThan(TIMEOUT_MS);
    }
  });

  it('renders normal SVGs right after, in the same pool', async () => {
    const icons = fluentEmoji(6);
    const results = await Promise.all(icons.map((i) => pool.render(i.svg)));
    for (const r of results) {
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.pixels.inkCoverage).toBeGreaterThan(0.05);
    }
    const own = await pool.render(doc(''));
    expect(own.ok && own.code.removed).toEqual([]);
    // Nothing crashed a worker (a timeout kill is allowed: see hostile-svgs.ts).
    expect(pool.stats().crashed).toBe(0);
  });
});
