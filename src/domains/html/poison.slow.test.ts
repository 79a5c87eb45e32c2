// One page must not decide the next rollout's reward (issue 22, item 4). A WebGL draw with
// an endless fragment shader on a full-viewport quad (in the document and in a worker's
// OffscreenCanvas) used to time out and leave Chromium's shared GPU process busy, so every
// later html and mermaid job in that browser timed out too. Now WebGL is off (launch.ts):
// the page gets no context and renders; and the html and mermaid jobs after it draw in time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRoom, createBrowserRoom } from '../../browser/room.ts';
import { createMermaidRenderer } from '../mermaid/renderer.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';
import { createHtmlRenderer } from './renderer.ts';

/** A fragment shader that loops ~forever per pixel; the loop bound depends on a uniform. */
const SHADER = `precision highp float; uniform float t;
void main() { float a = 0.0;
  for (int i = 0; i < 2000000000; i++) { a += sin(float(i) * t); if (a > 1e30) break; }
  gl_FragColor = vec4(fract(a), 0.0, 0.0, 1.0); }`;

/** Compile SHADER, draw a quad over the whole canvas, read a pixel back (forces the draw). */
const DRAW = `function draw(g) {
  var vs = g.createShader(g.VERTEX_SHADER);
  g.shaderSource(vs, 'attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }');
  g.compileShader(vs);
  var fs = g.createShader(g.FRAGMENT_SHADER); g.shaderSource(fs, ${JSON.stringify(SHADER)}); g.compileShader(fs);
  var pr = g.createProgram(); g.attachShader(pr, vs); g.attachShader(pr, fs); g.linkProgram(pr); g.useProgram(pr);
  g.bindBuffer(g.ARRAY_BUFFER, g.createBuffer());
  g.bufferData(g.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), g.STATIC_DRAW);
  g.enableVertexAttribArray(0); g.vertexAttribPointer(0, 2, g.FLOAT, false, 0, 0);
  g.uniform1f(g.getUniformLocation(pr, 't'), 0.001);
  g.drawArrays(g.TRIANGLE_STRIP, 0, 4);
  g.readPixels(0, 0, 1, 1, g.RGBA, g.UNSIGNED_BYTE, new Uint8Array(4));
}`;

const LONG_SHADER_PAGE = `<!doctype html><html><body style="margin:0"><h1 id=h>shader</h1>
<canvas id=c width=1280 height=720></canvas><script>${DRAW}
var worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(DRAW)} +
  "; var g = new OffscreenCanvas(1280, 720).getContext('webgl'); if (g) draw(g); postMessage(!!g);"])));
var g = document.getElementById('c').getContext('webgl');
document.getElementById('h').textContent = g ? 'webgl' : 'no webgl';
if (g) draw(g);
</script></body></html>`;

let room: BrowserRoom;
let html: DomainRenderer;
let mermaid: DomainRenderer;
beforeAll(() => {
  room = createBrowserRoom({ pages: 1 });
  html = createHtmlRenderer({ room });
  mermaid = createMermaidRenderer({ room, timeoutMs: 60_000 });
});
afterAll(async () => {
  await room.close();
});

const code = (r: DomainRender) => (r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`);

describe('a poisoned browser pool', () => {
  it('after a long-shader WebGL page, html and mermaid jobs still render in time', async () => {
    // Warm: the first job pays for the launch.
    expect(code(await html.render('<!doctype html><p>warm</p>'))).toBe('ok');
    const gl = await html.render(LONG_SHADER_PAGE, { timeoutMs: 8_000 });
    // WebGL is off: the page draws without it, within its limit.
    expect(code(gl)).toBe('ok');
    for (let i = 0; i < 2; i++) {
      const page = await html.render(
        '<!doctype html><html><body><h1>Hello</h1><script>document.body.append("js")</script></body></html>',
        { timeoutMs: 10_000 },
      );
      expect(code(page)).toBe('ok');
      expect(page.ms).toBeLessThan(10_000);
    }
    const diagram = await mermaid.render(
      'flowchart TD\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]',
    );
    expect(code(diagram)).toBe('ok');
  }, 300_000);
});
