// A loopback test double for model services: a real HTTP server on 127.0.0.1 speaking the
// OpenAI-compatible chat protocol (JSON and SSE), Anthropic's Messages API, Gemini's
// generateContent and GET /v1/models.
// Each test scripts its answers and faults; every request is recorded for assertions.
// It lives with the tests and is never a default anywhere in shipped code.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ContentReply,
  DoubleHandler,
  DoubleReply,
  DoubleUsage,
} from './model-double-answers.ts';
import { gridToDigit } from './model-double-grid.ts';
import { type DoubleApi, type DoubleRequest, readRequest } from './model-double-request.ts';
// A seeded generator (mulberry32) so fault injection is reproducible.
import { seededRng as seeded } from './schema-random.ts';

export * from './model-double-answers.ts';
export { asksDigits, gridLaw, gridToDigit } from './model-double-grid.ts';
export * from './model-double-logprobs.ts';
export type { DoubleApi, DoubleMessage, DoubleRequest } from './model-double-request.ts';
export * from './schema-answerer.ts';

export type FaultKind = '429' | '500' | 'malformed' | 'hang';

export interface ModelDoubleOptions {
  /** Answers requests once the queue is empty. Default: a 400 saying nothing was scripted. */
  handler?: DoubleHandler;
  /** Probability in [0,1] that a request gets a random fault instead of its scripted reply. */
  faultRate?: number;
  /** Seed of the fault injector, so a failing run can be replayed. Default 1. */
  seed?: number;
  /** Faults to draw from. Default 429 (retry-after 0), 500 and malformed body. */
  faults?: FaultKind[];
  /** Model ids listed by GET /v1/models. */
  models?: string[];
  /** Listen on this port (a judge coming back where it was). Default: any free port. */
  port?: number;
}

export interface ModelDouble {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:43121/v1 (OpenAI-compatible, Anthropic). */
  readonly url: string;
  /** Base URL for the Gemini API (`google:` specs), ending in /v1beta. */
  readonly googleUrl: string;
  /** Every chat request received, in arrival order. */
  readonly requests: DoubleRequest[];
  /** Faults the injector chose, by request index. */
  readonly injected: { index: number; fault: FaultKind }[];
  /** Requests currently being answered, and the most seen at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Replace the handler used when the queue is empty. */
  script(handler: DoubleHandler): void;
  /** Replies used first, one per request, in order. */
  enqueue(...replies: (DoubleReply | DoubleHandler)[]): void;
  /** Forget requests, queue and in-flight maximum (the handler stays). */
  reset(): void;
  close(): Promise<void>;
}

const noScript: DoubleHandler = () => ({
  status: 400,
  body: '{"error":{"message":"model double: nothing scripted for this request"}}',
});

function faultReply(kind: FaultKind): DoubleReply {
  if (kind === '429') return { status: 429, headers: { 'retry-after': '0' } };
  if (kind === '500') return { status: 500 };
  if (kind === 'hang') return { hang: true };
  return { raw: '{"choices": [ {"message": oops' };
}

function defaultUsage(req: DoubleRequest, content: string): DoubleUsage {
  // Roughly four characters a token; a fixed cost per image like real VLM tokenizers.
  return {
    inputTokens: Math.ceil(req.text.length / 4) + 256 * req.images.length,
    outputTokens: Math.max(1, Math.ceil(content.length / 4)),
  };
}

function errorBody(api: DoubleApi, status: number): string {
  const message = `model double: scripted status ${status}`;
  if (api === 'anthropic')
    return JSON.stringify({ type: 'error', error: { type: 'api_error', message } });
  if (api === 'google')
    return JSON.stringify({ error: { code: status, message, status: 'UNAVAILABLE' } });
  return JSON.stringify({ error: { message, type: 'server_error', code: status } });
}

function openaiBody(req: DoubleRequest, r: ContentReply, u: DoubleUsage) {
  const message: Record<string, unknown> = { role: 'assistant', content: r.content };
  if (r.reasoning !== undefined) message.reasoning_content = r.reasoning;
  const choice: Record<string, unknown> = {
    index: 0,
    message,
    finish_reason: r.finishReason ?? 'stop',
  };
  if (r.logprobs !== undefined) choice.logprobs = r.logprobs;
  return {
    id: `chatcmpl-double-${req.index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: req.model,
    ...(r.systemFingerprint ? { system_fingerprint: r.systemFingerprint } : {}),
    choices: [choice],
    usage: {
      prompt_tokens: u.inputTokens,
      completion_tokens: u.outputTokens,
      total_tokens: u.inputTokens + u.outputTokens,
    },
  };
}

function anthropicBody(req: DoubleRequest, r: ContentReply, u: DoubleUsage) {
  let block: Record<string, unknown> = { type: 'text', text: r.content };
  let stop = r.finishReason === 'length' ? 'max_tokens' : 'end_turn';
  if (req.forcedTool) {
    // The AI SDK's json-tool mode expects the answer as the forced tool's input.
    try {
      const input: unknown = JSON.parse(r.content);
      block = { type: 'tool_use', id: `toolu_double_${req.index}`, name: req.forcedTool, input };
      stop = 'tool_use';
    } catch {
      // Not JSON: send it as text, like a model ignoring the tool would.
    }
  }
  return {
    id: `msg_double_${req.index}`,
    type: 'message',
    role: 'assistant',
    model: req.model,
    content: [block],
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: u.inputTokens, output_tokens: u.outputTokens },
  };
}

function googleBody(r: ContentReply, u: DoubleUsage) {
  return {
    candidates: [
      {
        index: 0,
        content: { role: 'model', parts: [{ text: r.content }] },
        finishReason: r.finishReason === 'length' ? 'MAX_TOKENS' : 'STOP',
      },
    ],
    usageMetadata: {
      promptTokenCount: u.inputTokens,
      candidatesTokenCount: u.outputTokens,
      totalTokenCount: u.inputTokens + u.outputTokens,
    },
  };
}

function sendOpenAiStream(
  res: ServerResponse,
  req: DoubleRequest,
  r: ContentReply,
  u: DoubleUsage,
) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = {
    id: `chatcmpl-double-${req.index}`,
    object: 'chat.completion.chunk',
    model: req.model,
  };
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, created, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.write(chunk({ role: 'assistant', content: '' }, null));
  // Split the answer into a few pieces so clients really reassemble a stream.
  const step = Math.max(1, Math.ceil(r.content.length / 4));
  for (let i = 0; i < r.content.length; i += step) {
    res.write(chunk({ content: r.content.slice(i, i + step) }, null));
  }
  res.write(chunk({}, r.finishReason ?? 'stop'));
  const opts = req.body.stream_options as { include_usage?: boolean } | undefined;
  if (opts?.include_usage) {
    const usage = {
      prompt_tokens: u.inputTokens,
      completion_tokens: u.outputTokens,
      total_tokens: u.inputTokens + u.outputTokens,
    };
    res.write(`data: ${JSON.stringify({ ...base, created, choices: [], usage })}\n\n`);
  }
  res.end('data: [DONE]\n\n');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startModelDouble(options: ModelDoubleOptions = {}): Promise<ModelDouble> {
  let handler = options.handler ?? noScript;
  const queue: (DoubleReply | DoubleHandler)[] = [];
  const requests: DoubleRequest[] = [];
  const injected: { index: number; fault: FaultKind }[] = [];
  const random = seeded(options.seed ?? 1);
  const faults = options.faults ?? ['429', '500', 'malformed'];
  let inFlight = 0;
  let maxInFlight = 0;

  const answer = async (api: DoubleApi, http: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(http);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"model double: request body is not JSON"}}');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(http.headers)) if (typeof v === 'string') headers[k] = v;
    const req = readRequest(
      requests.length,
      api,
      http.url ?? '',
      headers,
      body as Record<string, unknown>,
    );
    requests.push(req);

    let reply: DoubleReply;
    if (options.faultRate && random() < options.faultRate) {
      const fault = faults[Math.floor(random() * faults.length)] ?? '500';
      injected.push({ index: req.index, fault });
      reply = faultReply(fault);
    } else {
      const next = queue.shift() ?? handler;
      reply = typeof next === 'function' ? await next(req) : next;
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;

    if ('hang' in reply) return; // the socket stays open until the client aborts or we close
    if ('raw' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(reply.raw);
      return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? errorBody(api, reply.status));
      return;
    }
    // A 0.01-grid answer to a judge asked for one digit: rewritten (model-double-grid.ts).
    reply = gridToDigit(req, reply, api === 'openai');
    const usage = reply.usage ?? defaultUsage(req, reply.content);
    if (api === 'openai' && req.stream) return sendOpenAiStream(res, req, reply, usage);
    if (api === 'anthropic' && req.stream) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(errorBody(api, 400));
      return;
    }
    const out =
      api === 'openai'
        ? openaiBody(req, reply, usage)
        : api === 'google'
          ? googleBody(reply, usage)
          : anthropicBody(req, reply, usage);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(out));
  };

  const server = createServer((http, res) => {
    const path = (http.url ?? '').split('?')[0];
    if (http.method === 'GET' && path === '/v1/models') {
      const data = (options.models ?? ['double-model']).map((id) => ({
        id,
        object: 'model',
        created: 0,
        owned_by: 'model-double',
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data }));
      return;
    }
    const api: DoubleApi | undefined =
      http.method !== 'POST'
        ? undefined
        : path === '/v1/chat/completions'
          ? 'openai'
          : path === '/v1/messages'
            ? 'anthropic'
            : /^\/v1beta\/models\/.+:generateContent$/.test(path ?? '')
              ? 'google'
              : undefined;
    if (!api) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"model double: no such route"}}');
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    answer(api, http, res).catch((err: unknown) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `model double handler threw: ${String(err)}` } }));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    googleUrl: `http://127.0.0.1:${port}/v1beta`,
    requests,
    injected,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    script(h) {
      handler = h;
    },
    enqueue(...replies) {
      queue.push(...replies);
    },
    reset() {
      requests.length = 0;
      injected.length = 0;
      queue.length = 0;
      maxInFlight = inFlight;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) =>
        server.close((err) => (err ? reject(err) : resolve())),
      );
    },
  };
}
