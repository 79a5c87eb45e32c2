// A stub judge on loopback for the judge-proxy red-team tests (issue 42), driven by the
// request itself: the body names a `mode:<name>` (and optionally `ms:<n>`, `mb:<n>`), so one
// stub answers, fails and cuts off on command. It reads `stream` the way vLLM/SGLang do
// (BOM and UTF-16 decoded, pydantic's lax truthiness), counts calls per mode and the calls
// at it at once (streams until their last byte).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface StubJudge {
  url: string;
  /** Calls received, by mode (`models` for GET …/models). */
  calls: Map<string, number>;
  readonly inFlight: number;
  readonly maxInFlight: number;
  reset(): void;
  close(): Promise<void>;
}

const TRUE = new Set(['1', 'true', 'yes', 'on', 't', 'y']);

/** The body as the judge server reads it: UTF-16 (BOM or NULs) or UTF-8 with or without BOM. */
export function decodeLikePython(b: Buffer): string {
  if (b[0] === 0xff && b[1] === 0xfe) return b.subarray(2).toString('utf16le');
  if (b.length > 1 && b[1] === 0 && b[0] !== 0) return b.toString('utf16le');
  const s = b.toString('utf8');
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

function streams(v: unknown): boolean {
  if (v === true || v === 1) return true;
  return typeof v === 'string' && TRUE.has(v.toLowerCase());
}

const completion = (content: string) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startStubJudge(): Promise<StubJudge> {
  const calls = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const sockets = new Set<Socket>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const text = decodeLikePython(raw);
    const mode = req.method === 'GET' ? 'models' : (/mode:(\w+)/.exec(text)?.[1] ?? 'ok');
    const ms = Number(/ms:(\d+)/.exec(text)?.[1] ?? 0);
    calls.set(mode, (calls.get(mode) ?? 0) + 1);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (ms) await sleep(ms);
      if (mode === 'models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ object: 'list', data: [{ id: 'judge' }] }));
      }
      let stream = false;
      try {
        stream = streams((JSON.parse(text) as { stream?: unknown }).stream);
      } catch {
        // not JSON: answered as a plain completion
      }
      if (mode === 'eofcut') {
        // A 200 with no Content-Length, cut by the connection closing mid-JSON.
        req.socket.end(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"id":"c1","choices":[{"index":0,"message":{"role":"assis',
        );
        return;
      }
      if (mode === 'error200') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: { message: 'overloaded', code: 503 } }));
      }
      if (mode === 'big') {
        // `mb` MB of answer, chunked (no Content-Length): the proxy must cap it as it reads.
        const mb = Number(/mb:(\d+)/.exec(text)?.[1] ?? 1);
        const head = '{"id":"c1","choices":[{"index":0,"message":{"role":"assistant","content":"';
        const tail = '"},"finish_reason":"stop"}]}';
        const block = Buffer.alloc(1024 * 1024, 'a');
        res.writeHead(200, { 'content-type': 'application/json' });
        if (mb === 1) {
          // One write: small answers go out whole (still chunked, no Content-Length).
          return void res.end(
            Buffer.concat([Buffer.from(head), block.subarray(200), Buffer.from(tail)]),
          );
        }
        res.write(head);
        for (let i = 0; i < mb; i++) {
          if (!res.write(i === mb - 1 ? block.subarray(0, block.length - 200) : block))
            await new Promise((r) => res.once('drain', r));
          if (res.destroyed) return;
        }
        return void res.end(tail);
      }
      if (stream || mode === 'streamerr') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let i = 0; i < 5; i++) {
          if (mode === 'streamerr' && i === 2) {
            res.write(`data: ${JSON.stringify({ error: { message: 'engine died' } })}\n\n`);
            return void res.end();
          }
          res.write(
            `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: `w${i} ` } }] })}\n\n`,
          );
          await sleep(Number(/streamms:(\d+)/.exec(text)?.[1] ?? 20));
        }
        return void res.end('data: [DONE]\n\n');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completion(`answer to ${mode}`));
    } finally {
      if (res.closed) inFlight -= 1;
      else res.once('close', () => (inFlight -= 1));
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    reset() {
      calls.clear();
      maxInFlight = inFlight;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
