// The latex domain: a TikZ picture and a pgfplots plot render (cropped); shell escape,
// reads and writes outside the work dir, macro loops and huge pages all end as values, and
// a normal picture renders right after.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { DomainRender } from '../types.ts';
import { buildLatexFormat, createLatexRenderer, latexDocument } from './renderer.ts';

const TIKZ = String.raw`\begin{tikzpicture}\draw[red,thick] (0,0) circle (1); \node at (0,0) {Hi};\end{tikzpicture}`;
const PLOT = String.raw`\begin{tikzpicture}\begin{axis}[xlabel=$x$]\addplot[blue,domain=0:6]{sin(deg(x))};\end{axis}\end{tikzpicture}`;

function error(r: DomainRender) {
  if (r.ok) throw new Error('expected a failure');
  return r.error;
}

describe('latex domain', () => {
  const tex = createLatexRenderer({ timeoutMs: 15_000 });

  it('wraps bare pictures in a standalone page and leaves documents alone', () => {
    expect(latexDocument(TIKZ)).toContain('\\documentclass[border=6pt]{standalone}');
    const doc = '\\documentclass{article}\\begin{document}x\\end{document}';
    expect(latexDocument(doc)).toBe(doc);
  });

  it('keeps its preloaded format unzipped, and draws from it what the stock format draws', async () => {
    const dir = await buildLatexFormat(undefined);
    expect(dir).not.toBeNull();
    const head = readFileSync(join(dir!, 'rubrica.fmt')).subarray(0, 2);
    rmSync(dir!, { recursive: true, force: true });
    expect([head[0], head[1]]).not.toEqual([0x1f, 0x8b]); // not gzip: pdftex reads it as is
    const stock = createLatexRenderer({ format: false });
    const [a, b] = [await tex.render(PLOT), await stock.render(PLOT)];
    await stock.close();
    if (!a.ok || !b.ok) throw new Error('not drawn');
    const raw = (png: Buffer) => sharp(png).raw().toBuffer();
    expect((await raw(a.png)).equals(await raw(b.png))).toBe(true);
  });

  it('renders TikZ and pgfplots, cropped to the drawing', async () => {
    const a = await tex.render(TIKZ);
    expect(a.ok).toBe(true);
    if (a.ok) expect(a.width).toBeLessThan(200); // a 2 cm circle at 150 dpi plus margins
    const p = await tex.render(PLOT);
    expect(p.ok).toBe(true);
  }, 60_000);

  it('holds against hostile documents, then still renders', async () => {
    // \write18 never runs (the file it would make does not appear).
    const shell = await tex.render(
      String.raw`\immediate\write18{echo PWNED > pwned.tex}\IfFileExists{pwned.tex}{\errmessage{shell escape ran}}{}${TIKZ}`,
    );
    expect(shell.ok).toBe(true);
    // Absent host files and absolute paths to visible system files are both refused.
    expect(error(await tex.render(String.raw`\input{/etc/passwd}`)).message).toContain('not found');
    const abs = error(
      await tex.render(String.raw`\input{/usr/share/texlive/texmf-dist/tex/latex/base/size10.clo}`),
    );
    expect(abs.code).toBe('exec_error');
    const write = error(
      await tex.render(String.raw`\immediate\openout1=/tmp/evil.tex \immediate\write1{x}${TIKZ}`),
    );
    expect(write.message).toContain("I can't write on file");
    // An endless macro is killed at the limit.
    const loop = await tex.render(String.raw`\def\a{\a}\a`, { timeoutMs: 4_000 });
    expect(error(loop).code).toBe('timeout');
    expect(loop.ms).toBeLessThan(10_000);
    // A 5 m page is rasterised only within a bounded square.
    const huge = await tex.render(
      String.raw`\documentclass{article}\usepackage[paperwidth=500cm,paperheight=500cm]{geometry}\begin{document}\rule{400cm}{400cm}\end{document}`,
    );
    if (huge.ok) expect(huge.width * huge.height).toBeLessThanOrEqual(4016 * 4016);
    expect(error(await tex.render('\\begin{document')).code).toBe('exec_error');
    // A TeX error never yields a page, whatever interaction mode the document switches to
    // (issue 22, item 6): each is exec_error carrying TeX's error line.
    for (const [mode, line] of [
      ['\\scrollmode', '! Undefined control sequence.'],
      ['\\batchmode', '! Undefined control sequence.'],
      ['\\nonstopmode', '! Package p Error: refused.'],
    ] as const) {
      const body = line.includes('Package') ? '\\PackageError{p}{refused}{}' : '\\undefinedcs';
      const r = error(
        await tex.render(
          String.raw`\documentclass{article}\begin{document}x${mode}${body} y\end{document}`,
        ),
      );
      expect([r.code, r.message.includes(line)]).toEqual(['exec_error', true]);
    }
    expect((await tex.render(TIKZ)).ok).toBe(true);
  }, 120_000);
});

// Issue 35, item 6: a page is judged by what it draws, and the error-line guard is live.
describe('latex pages judged by what they draw', () => {
  const tex = createLatexRenderer({ timeoutMs: 15_000, format: false });

  it('a broken \\pdfliteral draws what it draws (poppler complaints stay out of the picture)', async () => {
    // poppler says "Syntax Error" about the garbage; the line before it is still drawn.
    const line = await tex.render(
      String.raw`\begin{tikzpicture}\pdfliteral{0 0 m 10 10 l S garbage q Q Q Q BT}\end{tikzpicture}`,
    );
    expect(line.ok ? 'ok' : line.error.message).toBe('ok');
    // Garbage alone draws nothing: blank, not ok and not an unreadable picture.
    const none = await tex.render(
      String.raw`\begin{tikzpicture}\pdfliteral{garbage q Q Q Q BT}\end{tikzpicture}`,
    );
    expect(none.ok ? 'ok' : none.error.code).toBe('blank');
    expect(error(await tex.render(String.raw`\begin{tikzpicture}\end{tikzpicture}`)).code).toBe(
      'blank',
    );
  }, 120_000);

  it('a log holding an error line fails the job even when pdflatex exits 0 (the guard)', async () => {
    // -halt-on-error makes every real TeX error exit non-zero, so the only way found to reach
    // the guard is a document writing the error line into its own log: with the guard that is
    // exec_error carrying the line; without it this page would be drawn.
    const r = await tex.render(
      String.raw`\documentclass{standalone}\usepackage{tikz}\begin{document}\newlinechar=10 \immediate\write-1{^^J! Forged error.}\tikz\draw (0,0)--(1,1);\end{document}`,
    );
    const e = error(r);
    expect([e.code, e.message.includes('! Forged error.')]).toEqual(['exec_error', true]);
  }, 120_000);
});
