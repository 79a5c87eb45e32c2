// An image scorer that obeys the text drawn in a picture, for the hybrid reward's semantic
// term (issue 41): CLIP-like scorers read text in an image ("typographic attacks"), so a
// drawn "10/10" or "full marks" is scored as the best match. It speaks rubrica's HTTP
// image-scorer protocol (src/scorers/http-scorer.ts: POST {images, prompts} → {scores}) over
// loopback. It cannot read pixels: the test registers what is drawn in the picture a PNG
// shows (`seePicture`, keyed by the PNG's hash, as test/support/obeying-judge.ts does).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const VERDICT = /full marks|\b10\/10\b|\b5\/5\b|rubric satisfied|ignore the rubric/i;
/** What every picture without an obeyed verdict scores. */
export const PLAIN_SCORE = 0.3;

export interface ObeyingScorer {
  url: string;
  seePicture(png: Buffer, text: string): void;
  /** Images scored so far. */
  readonly scored: number;
  close(): Promise<void>;
}

const hash = (png: Buffer) => createHash('sha256').update(png).digest('hex');

export async function startObeyingScorer(): Promise<ObeyingScorer> {
  const pictures = new Map<string, string>();
  let scored = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { images: string[] };
        const scores = body.images.map((b64) => {
          scored++;
          const drawn = pictures.get(hash(Buffer.from(b64, 'base64')));
          return drawn && VERDICT.test(drawn) ? 1 : PLAIN_SCORE;
        });
        res.end(JSON.stringify({ scores }));
      } catch (err) {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: String(err) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/score`,
    seePicture: (png, text) => pictures.set(hash(png), text),
    get scored() {
      return scored;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
