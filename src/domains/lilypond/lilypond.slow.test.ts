// The lilypond domain: a score engraves and is cropped to its systems; LilyPond has no safe
// mode any more (embedded Guile Scheme can do anything Guile can), so these attacks are held by
// the sandbox alone: host files, the host environment, sockets to a loopback logger, endless
// loops and huge files all end as values, and a normal score renders right after.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackLogger, startLoopbackLogger } from '../../../test/support/loopback-logger.ts';
import { inspectCompletion } from '../../inspect/inspect.ts';
import { createRenderPool } from '../../render/pool.ts';
import { pngResult } from '../png.ts';
import { createDomainRenderers } from '../renderers.ts';
import type { DomainRender } from '../types.ts';
import { lilypondCompiledScheme } from './compiled-scheme.ts';
import { createLilypondRenderer, lilypondDocument } from './renderer.ts';

const TUNE = `\\relative c' { \\clef treble \\time 4/4 c4 d e f | g2 g | a4 a a a | g1 \\bar "|." }`;
const SECRET = 'sk-rubrica-lilypond-test-secret';

function error(r: DomainRender) {
  if (r.ok) throw new Error('expected a failure');
  return r.error;
}

let logger: LoopbackLogger;
beforeAll(async () => {
  logger = await startLoopbackLogger();
  process.env.RUBRICA_LY_SECRET = SECRET;
});
afterAll(async () => {
  delete process.env.RUBRICA_LY_SECRET;
  await logger.close();
});

describe('lilypond domain', () => {
  const ly = createLilypondRenderer({ pool: false, timeoutMs: 30_000 });
  // The warm zygote (warm.ts) holds against the same attacks, job after job in one sandbox.
  const warm = createLilypondRenderer({ timeoutMs: 30_000, pool: true });
  afterAll(() => warm.close());

  it('wraps a bare music expression and leaves whole files alone', () => {
    expect(lilypondDocument("c'4 d'")).toBe('\\version "2.24.0"\n{\nc\'4 d\'\n}\n');
    const file = '\\version "2.24.0"\n\\score { c\'1 }';
    expect(lilypondDocument(file)).toBe(file);
  });

  it('engraves a score, cropped to its one system', async () => {
    const r = await ly.render(TUNE);
    expect(r.ok).toBe(true);
    // One system at 200 dpi: wide and short, not an A4 page.
    if (r.ok) {
      expect(r.width).toBeGreaterThan(3 * r.height);
      expect(r.height).toBeLessThan(200);
    }
    expect(
      error(await ly.render('\\version "2.24.0"\n\\score { \\new Staff { c\'4 ( }')).code,
    ).toBe('exec_error');
  }, 120_000);

  it('draws what a bare lilypond draws, from compiled Scheme (issue 23)', async () => {
    // Inside, Guile's compiled path holds LilyPond's .go files (else it interprets its sources).
    const compiled = lilypondCompiledScheme();
    expect(compiled).not.toBeNull();
    const seen = error(
      await ly.render(
        `#(ly:error (if (member "${compiled}" %load-compiled-path) "compiled" "interpreted"))\n{ c'1 }`,
      ),
    );
    expect(seen.message).toContain('fatal error: compiled');
    // The same picture as an unsandboxed `lilypond` as installed, after the same trim.
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-ly-bare-'));
    try {
      writeFileSync(join(dir, 'score.ly'), lilypondDocument(TUNE));
      const args = ['--png', '-dcrop', '-dresolution=200', '-dno-point-and-click', '-o', 'out'];
      const run = spawnSync('lilypond', [...args, 'score.ly'], { cwd: dir, timeout: 60_000 });
      expect(run.status).toBe(0);
      const bare = await pngResult(
        readFileSync(join(dir, 'out.cropped.png')),
        0,
        {},
        { trim: true },
      );
      const ours = await ly.render(TUNE);
      if (!bare.ok || !ours.ok) throw new Error('expected two pictures');
      const raw = (png: Buffer) => sharp(png).raw().toBuffer({ resolveWithObject: true });
      const [a, b] = await Promise.all([raw(bare.png), raw(ours.png)]);
      expect([b.info.width, b.info.height]).toEqual([a.info.width, a.info.height]);
      expect(b.data.equals(a.data)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it.each([
    ['one-shot', ly],
    ['warm zygote', warm],
  ] as const)(
    'holds against hostile scores, then still renders (%s)',
    async (_, ly) => {
      // Host files are absent: /etc/passwd, the project and $HOME do not exist inside, and an
      // \include of a host file fails.
      for (const path of ['/etc/passwd', join(process.cwd(), 'package.json'), homedir()]) {
        const seen = error(
          await ly.render(`#(ly:error (if (file-exists? "${path}") "PRESENT" "absent"))\n{ c'1 }`),
        );
        expect(seen.message, path).toContain('fatal error: absent');
      }
      expect(error(await ly.render('\\include "/etc/passwd"\n{ c\'1 }')).code).toBe('exec_error');
      // The host environment is invisible: the variable is unset inside.
      const env = error(
        await ly.render('#(ly:error (or (getenv "RUBRICA_LY_SECRET") "no-secret-here"))\n{ c\'1 }'),
      );
      expect(env.message).toContain('no-secret-here');
      expect(env.message).not.toContain(SECRET);
      // No network: a socket to the loopback logger cannot connect (Guile's error is caught
      // and reported, so the outcome is deterministic; LilyPond itself goes on after errors).
      const net = error(
        await ly.render(
          `#(ly:error (catch #t (lambda () (let ((s (socket PF_INET SOCK_STREAM 0))) (connect s AF_INET (inet-pton AF_INET "127.0.0.1") ${logger.port}) (display "PWNED" s) "CONNECTED")) (lambda _ "refused")))\n{ c'1 }`,
        ),
      );
      expect(net.message).toContain('fatal error: refused');
      // An endless Scheme loop is killed at the limit.
      const loop = await ly.render("#(let loop () (loop))\n{ c'1 }", { timeoutMs: 5_000 });
      expect(error(loop).code).toBe('timeout');
      expect(loop.ms).toBeLessThan(15_000);
      // A huge file stops at the file-size limit (64 MiB): the write fails or the job is killed.
      const big = await ly.render(
        '#(ly:error (catch #t (lambda () (with-output-to-file "big.txt" (lambda () (let loop () (display (make-string 65536 #\\x)) (loop))))) (lambda _ "stopped")))\n{ c\'1 }',
        { timeoutMs: 20_000 },
      );
      expect(big.ok).toBe(false);
      if (!big.ok && big.error.code === 'exec_error')
        expect(big.error.message).toMatch(/stopped|File size limit exceeded/);
      expect((await ly.render(TUNE)).ok).toBe(true);
      expect(logger.hits).toEqual([]);
    },
    240_000,
  );

  it('is a domain like the others: a ```lilypond answer is found, rendered and checked', async () => {
    const svg = createRenderPool({ workers: 1 });
    const domains = createDomainRenderers({ svgRenderer: svg });
    try {
      const ins = await inspectCompletion(`A scale:\n\`\`\`lilypond\n${TUNE}\n\`\`\`\n`, {
        renderer: svg,
        domains,
      });
      expect(ins.artifact).toMatchObject({ found: true, domain: 'lilypond', source: 'fence' });
      expect(ins.render?.ok).toBe(true);
      expect(ins.summary.blank).toBe(false);
    } finally {
      await domains.close();
      await svg.close();
    }
  }, 120_000);
});
