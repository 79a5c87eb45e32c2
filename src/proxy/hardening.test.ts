// The pieces behind issue 42's bounds, each alone: what may be kept (answer-check.ts), tokens
// counted from a stream, the bounded queue, the byte-bounded LRU, and URL redaction.
import { describe, expect, it } from 'vitest';
import type { CallGate } from '../models/shared-budget.ts';
import { completeAnswer, keepableRequest } from './answer-check.ts';
import { ByteLru } from './byte-lru.ts';
import { redactUrl, scrubUrls } from './forward.ts';
import { createQueuedGate, QUEUE_FULL } from './queue.ts';
import { streamTokens } from './stream-tokens.ts';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('keepableRequest', () => {
  it('keeps plain UTF-8 JSON with stream absent, null or false only', () => {
    expect(keepableRequest(b('{"model":"m"}'))).toBe(true);
    expect(keepableRequest(b('{"stream":false}'))).toBe(true);
    expect(keepableRequest(b('{"stream":null}'))).toBe(true);
    for (const v of ['true', '1', '"true"', '"false"', '0', '"yes"', '[]'])
      expect(keepableRequest(b(`{"stream":${v}}`)), v).toBe(false);
    expect(keepableRequest(b('\ufeff{"model":"m"}'))).toBe(false); // BOM
    expect(keepableRequest(Buffer.from('{"model":"m"}', 'utf16le'))).toBe(false);
    expect(keepableRequest(b('{"stream":false,"stream":true}'))).toBe(false); // last wins, as in Python
    expect(keepableRequest(b('not json'))).toBe(false);
    expect(keepableRequest(b('[1]'))).toBe(false);
  });
});

describe('completeAnswer', () => {
  const chat = '{"choices":[{"message":{"content":"x"}}]}';
  it('a whole answer of its route only', () => {
    expect(completeAnswer('/chat/completions', b(chat))).toBe(true);
    expect(completeAnswer('/chat/completions', b(chat.slice(0, -3)))).toBe(false); // cut
    expect(completeAnswer('/chat/completions', b('{"error":{"message":"overloaded"}}'))).toBe(
      false,
    );
    expect(completeAnswer('/chat/completions', b('{"choices":[{}],"error":"x"}'))).toBe(false);
    expect(completeAnswer('/chat/completions', b('{"object":"error","message":"m"}'))).toBe(false);
    expect(completeAnswer('/chat/completions', b('data: {"choices":[]}\n\ndata: [DONE]\n\n'))).toBe(
      false,
    );
    expect(completeAnswer('/messages', b('{"type":"message","content":[]}'))).toBe(true);
    expect(completeAnswer('/messages', b('{"type":"error","error":{}}'))).toBe(false);
    expect(completeAnswer('/messages?beta=true', b('{"type":"message","content":[]}'))).toBe(true);
  });
});

describe('streamTokens', () => {
  it('reads usage from the stream, split anywhere, else counts the text', () => {
    const t = streamTokens();
    const sse = `data: {"choices":[{"delta":{"content":"hello"}}]}\n\ndata: {"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}}\n\ndata: [DONE]\n\n`;
    const bytes = b(sse);
    for (let i = 0; i < bytes.length; i += 7) t.feed(bytes.subarray(i, i + 7));
    expect(t.total()).toBe(10);
    const a = streamTokens();
    a.feed(
      b(
        'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":12}}}\n\n',
      ),
    );
    a.feed(b('data: {"type":"message_delta","usage":{"output_tokens":5}}\n\n'));
    expect(a.total()).toBe(17);
    const c = streamTokens();
    c.feed(b(`data: {"choices":[{"delta":{"content":"${'x'.repeat(40)}"}}]}\n\n`));
    expect(c.total()).toBe(10);
  });
});

/** A gate of `n` slots (p-limit-like), enough to test the queue in front of it. */
function slots(n: number): CallGate {
  let busy = 0;
  const waiting: Array<() => void> = [];
  const gate = (async <T>(fn: () => Promise<T>): Promise<T> => {
    if (busy >= n) await new Promise<void>((r) => waiting.push(r));
    busy += 1;
    try {
      return await fn();
    } finally {
      busy -= 1;
      waiting.shift()?.();
    }
  }) as CallGate;
  gate.charge = () => {};
  gate.close = async () => {};
  return gate;
}

describe('createQueuedGate', () => {
  it('refuses past --max-queue at once, and a call waiting past the timeout', async () => {
    const q = createQueuedGate(slots(1), { maxQueue: 2, timeoutMs: 200 });
    let release!: () => void;
    const held = q.run(() => new Promise<string>((r) => (release = () => r('first'))));
    await new Promise((r) => setTimeout(r, 10));
    const ran: string[] = [];
    const w1 = q.run(async () => ran.push('w1'));
    const w2 = q.run(async () => ran.push('w2'));
    expect(q.waiting).toBe(2);
    expect(await q.run(async () => 'never')).toBe(QUEUE_FULL);
    expect(await w1).toBe(QUEUE_FULL); // waited 200 ms
    expect(await w2).toBe(QUEUE_FULL);
    expect(q.waiting).toBe(0);
    release();
    expect(await held).toBe('first');
    await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual([]); // the refused calls never ran when their slot came
    expect(await q.run(async () => 'after')).toBe('after');
  });
});

describe('ByteLru', () => {
  it('bounds bytes, drops the least recently used, keeps nothing larger than the bound', () => {
    const c = new ByteLru<{ size: number }>(100, 10);
    c.set('a', { size: 40 });
    c.set('b', { size: 40 });
    c.get('a');
    c.set('c', { size: 40 });
    expect([c.get('a'), c.get('b'), c.get('c')].map(Boolean)).toEqual([true, false, true]);
    expect(c.bytes).toBe(80);
    c.set('huge', { size: 101 });
    expect(c.get('huge')).toBeUndefined();
    expect(c.bytes).toBe(80);
  });
});

describe('redactUrl', () => {
  it('shows scheme, host and port only', () => {
    expect(redactUrl('http://u:p@judge:8000/v1/sk-abc?key=z')).toBe('http://judge:8000/…');
    expect(redactUrl('http://judge:8000')).toBe('http://judge:8000');
    expect(scrubUrls('bad http://u:p@h/x?k=1 here')).toBe('bad http://h/… here');
    // The URL starts at the first letter of its run of scheme characters, as before.
    expect(scrubUrls('at 1.https://h/x and _wss://h:9/y')).toBe(
      'at 1.https://h/… and _wss://h:9/…',
    );
  });

  it('scrubs a long message with no URL in linear time', () => {
    const text = `${'A'.repeat(500_000)}: x`;
    const t = performance.now();
    expect(scrubUrls(text)).toBe(text);
    expect(performance.now() - t).toBeLessThan(1_000);
  });
});
