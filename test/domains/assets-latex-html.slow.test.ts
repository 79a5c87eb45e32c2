// Task data (issue 23) in the latex and html domains, through the real renderers: pgfplots
// reads a CSV by name, `\input` a provided .tex, `\includegraphics` a provided PNG; an html
// page fetches a CSV, shows a provided image and imports a provided module — and nothing
// else becomes readable: no name the task did not give, no host file, no other URL, not the
// previous job's files. Through the CLI (`inspect --assets --data-root`) a bad asset gets its
// stable code in both domains.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRoom, createBrowserRoom } from '../../src/browser/room.ts';
import type { ResolvedAssets } from '../../src/core/assets.ts';
import { createHtmlRenderer } from '../../src/domains/html/renderer.ts';
import { createLatexRenderer } from '../../src/domains/latex/renderer.ts';
import type { DomainRender, DomainRenderer } from '../../src/domains/types.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const CSV = Buffer.from('x,y\n0,1\n1,3\n2,2\n3,5\n');
let RED: Buffer; // a 24×24 pure red PNG

let latex: DomainRenderer;
let room: BrowserRoom;
let html: DomainRenderer;
beforeAll(async () => {
  RED = await sharp({
    create: { width: 24, height: 24, channels: 3, background: { r: 255, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  latex = createLatexRenderer();
  room = createBrowserRoom({ pages: 1 });
  html = createHtmlRenderer({ room, viewport: { width: 320, height: 200 } });
});
afterAll(async () => {
  await latex.close();
  await html.close();
  await room.close();
});

function failure(r: DomainRender): { code: string; message: string } {
  if (r.ok) throw new Error('expected a failure, got a picture');
  return r.error;
}
const ok = (r: DomainRender) => (r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`);

/** Pixels that are clearly red (the provided PNG drawn into the picture). */
async function redPixels(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (data[i]! > 200 && data[i + 1]! < 60 && data[i + 2]! < 60) n++;
  return n;
}

const PLOT = String.raw`\begin{tikzpicture}
\begin{axis}
\addplot table [col sep=comma, x=x, y=y] {data.csv};
\end{axis}
\end{tikzpicture}`;

describe('latex reads its task data under the assets names', () => {
  it('pgfplots \\addplot table, \\input and \\includegraphics find the files', async () => {
    const r = await latex.render(PLOT, { assets: { 'data.csv': CSV } });
    expect(ok(r)).toBe('ok');
    // Other data, another plot: the picture comes from the file.
    const other = await latex.render(PLOT, {
      assets: { 'data.csv': Buffer.from('x,y\n0,5\n1,0\n2,5\n3,0\n') },
    });
    expect(r.ok && other.ok && r.png.equals(other.png)).toBe(false);
    // Without its data the same code fails as the policy's code would.
    const bare = failure(await latex.render(PLOT));
    expect(bare.code).toBe('exec_error');
    expect(bare.message).toMatch(/data\.csv/);

    const parts: ResolvedAssets = {
      'parts/axis.tex': Buffer.from(String.raw`\draw[thick] (0,0) -- (2,1);`),
      'logo.png': RED,
    };
    const doc = String.raw`\begin{tikzpicture}
\input{parts/axis.tex}
\node at (1,-1) {\includegraphics[width=2cm]{logo.png}};
\end{tikzpicture}`;
    const both = await latex.render(doc, { assets: parts });
    expect(ok(both)).toBe('ok');
    if (both.ok) expect(await redPixels(both.png)).toBeGreaterThan(1000);
  });

  it('nothing else is readable, and the files are read-only', async () => {
    const assets: ResolvedAssets = { 'data.csv': CSV };
    const reads = [
      String.raw`\input{secret.tex}`, // a name the task did not give
      String.raw`\input{/etc/passwd}`,
      String.raw`\input{/etc/hostname}`,
      String.raw`\input{../data.csv}`,
      String.raw`\input{/work/../etc/fonts/fonts.conf}`,
    ];
    for (const body of reads) {
      const r = failure(
        await latex.render(`\\begin{tikzpicture}${body}\\end{tikzpicture}`, { assets }),
      );
      expect(r.code, body).toBe('exec_error');
    }
    // A job cannot change its data for itself (the file is a read-only bind).
    const write = String.raw`\newwrite\f\immediate\openout\f=data.csv\immediate\write\f{9,9}\immediate\closeout\f
\begin{tikzpicture}\draw (0,0) -- (1,1);\end{tikzpicture}`;
    const w = failure(await latex.render(write, { assets }));
    expect(w.message).toMatch(/can't write on file|not writable|Permission denied|Read-only/i);
    // The previous job's files are gone for the next job.
    const next = failure(await latex.render(PLOT));
    expect(next.message).toMatch(/data\.csv/);
  });
});

const PAGE = `<!doctype html><html><body style="margin:0">
<img src="logo.png" width="40" height="40">
<div id="box" style="width:40px;height:40px"></div>
<pre id="out">waiting</pre>
<script type="module">
import { rows } from './lib/rows.js';
const text = await (await fetch('data.csv')).text();
document.getElementById('out').textContent = 'rows=' + rows(text);
// Red only when the module and the CSV both loaded, and the CSV is the task's (4 rows).
if (rows(text) === 4) document.getElementById('box').style.background = 'red';
</script></body></html>`;

describe('html serves its task data by name from the page’s own origin, and nothing else', () => {
  // Built when a test runs: RED is made in beforeAll.
  const files = (): ResolvedAssets => ({
    'data.csv': CSV,
    'logo.png': RED,
    'lib/rows.js': Buffer.from("export const rows = (t) => t.trim().split('\\n').length - 1;\n"),
  });

  it('fetch, <img> and a module import load the provided files', async () => {
    const r = await html.render(PAGE, { assets: files() });
    expect(ok(r)).toBe('ok');
    if (!r.ok) return;
    expect(r.notes.blockedRequests).toBe(0);
    expect(r.notes.consoleErrors).toBe(0);
    // The image (40×40) and the box the module paints from the CSV (40×40).
    expect(await redPixels(r.png)).toBe(3200);
    // Without files: the image, the module and the CSV are refused, and the page says so.
    const bare = await html.render(PAGE);
    expect(bare.ok && (await redPixels(bare.png))).toBe(0);
    // (relative URLs of an about:blank page resolve to nothing: the import fails, logged)
    expect((bare.notes?.consoleErrors ?? 0) + (bare.notes?.blockedRequests ?? 0)).toBeGreaterThan(
      0,
    );
  });

  it('is shot after the data it fetched after load has been drawn, every time', async () => {
    // The d3.csv pattern: draw when the fetch answers, which is after `load`. Shot at `load`,
    // 3 renders in 10 of this page were blank on an idle 2-core VM (CI stop 49 failed on the
    // module page above the same way).
    const chain = `<!doctype html><body style="margin:0"><div id="box" style="width:40px;height:40px"></div>
<script>fetch('data.csv').then((r) => r.text()).then(() => fetch('lib/rows.js')).then((r) => r.text())
  .then(() => { document.getElementById('box').style.background = 'red'; });</script></body>`;
    for (let i = 0; i < 12; i++) {
      const r = await html.render(chain, { assets: files() });
      expect(ok(r), `render ${i}`).toBe('ok');
      if (!r.ok) return;
      expect(await redPixels(r.png), `render ${i}`).toBe(1600);
      expect(r.notes.stillLoading).toBeUndefined();
    }
  });

  it('a page that never stops fetching is shot as it stands, and says so', async () => {
    const polling = `<!doctype html><body style="margin:0"><div id="box" style="width:40px;height:40px;background:red"></div>
<script>const again = () => fetch('data.csv').then((r) => r.text()).then(again); again();</script></body>`;
    const r = await html.render(polling, { assets: files() });
    expect(ok(r)).toBe('ok');
    if (!r.ok) return;
    expect(r.notes.stillLoading).toBe(true);
    expect(await redPixels(r.png)).toBe(1600);
    // Under a short limit the wait takes half of it, and the job is still a picture.
    const quick = await html.render(polling, { assets: files(), timeoutMs: 1_000 });
    expect(ok(quick)).toBe('ok');
    expect(quick.ok && quick.notes.stillLoading).toBe(true);
    // A page that breaks the wait's own tools (no animation frames, a throwing count) is still
    // shot by the wait's deadline, not held to the job's limit.
    const hostile = polling.replace(
      '<script>',
      "<script>requestAnimationFrame = () => 0; Object.defineProperty(window, '__rubricaPending', { get() { throw 1; }, set() {} });",
    );
    const shot = await html.render(hostile, { assets: files(), timeoutMs: 6_000 });
    expect(ok(shot)).toBe('ok');
    expect(shot.ok && shot.notes.stillLoading).toBe(true);
    expect(shot.ms).toBeLessThan(6_000);
  });

  it('refuses every URL that is not one of the job’s own file names', async () => {
    const probe = (url: string) => `<!doctype html><body><h1>probe</h1><script>
fetch(${JSON.stringify(url)}).then((r) => r.text()).then(
  (t) => { document.title = 'READ ' + t.length; },
  (e) => { document.title = 'REFUSED'; console.log('refused'); });
</script></body>`;
    const urls = [
      'secret.csv',
      '../data.csv',
      '/etc/passwd',
      'file:///etc/passwd',
      'http://127.0.0.1:9/data.csv',
      'http://other.rubrica.invalid/data.csv',
    ];
    for (const url of urls) {
      const r = await html.render(probe(url), { assets: files() });
      // The page drew (a refusal is not a crash) and the request was refused and counted,
      // except ../data.csv, which the URL parser folds into the origin's own data.csv.
      expect(r.ok, url).toBe(true);
      if (url === '../data.csv') expect(r.notes?.blockedRequests, url).toBe(0);
      else expect(r.notes?.blockedRequests ?? 0, url).toBeGreaterThan(0);
    }
  });

  it('a job does not see the previous job’s files or storage', async () => {
    const keep = `<!doctype html><body><h1>one</h1><script>localStorage.setItem('k', 'job one');</script></body>`;
    expect(ok(await html.render(keep, { assets: files() }))).toBe('ok');
    const look = `<!doctype html><body><h1>two</h1><div id="o"></div><script>
let s = 'none';
try { s = localStorage.getItem('k') ?? 'none'; } catch (e) { s = 'no storage'; }
fetch('data.csv').then(() => { document.body.style.background = 'red'; },
  () => { document.getElementById('o').textContent = 'refused ' + s; });
if (s !== 'none' && s !== 'no storage') document.body.style.background = 'red';
</script></body>`;
    // Another job with files (a new origin): no storage from job one, data.csv not given.
    const other = await html.render(look, { assets: { 'other.csv': CSV } });
    expect(ok(other)).toBe('ok');
    if (other.ok) expect(await redPixels(other.png)).toBe(0);
    // A job with no files at all: the previous files are refused.
    const none = await html.render(look);
    expect(ok(none)).toBe('ok');
    if (none.ok) expect(await redPixels(none.png)).toBe(0);
  });
});

describe('inspect --assets in latex and html: bad assets get their stable codes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-assets-lh-'));
  const root = join(dir, 'root');
  mkdirSync(root);
  writeFileSync(join(root, 'data.csv'), CSV);
  writeFileSync(join(dir, 'secret.csv'), 'x,y\n9,9\n');

  const inspect = async (completion: string, assets: object, ...more: string[]) => {
    const c = join(dir, 'completion.txt');
    const a = join(dir, 'assets.json');
    writeFileSync(c, completion);
    writeFileSync(a, JSON.stringify(assets));
    return runCliInProcess(['inspect', c, '--json', '--assets', a, ...more]);
  };
  const completions = {
    latex: `\`\`\`latex\n${PLOT}\n\`\`\``,
    html: `\`\`\`html\n<!doctype html><body><h1>data</h1><script>fetch('data.csv').then(r=>r.text()).then(t=>{document.body.append(t)})</script></body>\n\`\`\``,
  };

  for (const [domain, completion] of Object.entries(completions)) {
    it(`${domain}: reads data.csv from the data root; refuses outside, missing, unrooted and bad names`, async () => {
      const good = await inspect(
        completion,
        { 'data.csv': { path: 'data.csv' } },
        '--data-root',
        root,
      );
      expect(good.code, good.stderr).toBe(0);
      const ins = JSON.parse(good.stdout);
      expect(ins.artifact.domain).toBe(domain);
      expect(ins.render.ok ? 'ok' : ins.render.error).toBe('ok');
      const cases: [object, string[], string][] = [
        [{ 'data.csv': { path: '../secret.csv' } }, ['--data-root', root], 'asset_outside_root'],
        [{ 'data.csv': { path: 'missing.csv' } }, ['--data-root', root], 'asset_missing'],
        [{ 'data.csv': { path: 'data.csv' } }, [], 'asset_invalid'], // no data root given
        [{ '../data.csv': 'x,y\n1,1\n' }, [], 'asset_invalid'], // not a plain name
      ];
      for (const [assets, flags, code] of cases) {
        const r = await inspect(completion, assets, ...flags);
        expect(r.code, JSON.stringify(assets)).toBe(2);
        expect(r.stderr, JSON.stringify(assets)).toContain(code);
      }
    });
  }
});
