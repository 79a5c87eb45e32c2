// serve's deadline counts from the request's arrival: a body that takes most of the deadline
// to arrive (a slow client, or a loop busy with other requests) leaves the scoring only what
// is left, so the answer still comes by arrival + deadline (issue 38). Before, the clock
// started once the body was read and parsed, and the answer came a whole deadline after that.
import { describe, expect, it } from 'vitest';
import { createFakeScorer } from '../../test/server/fake-scorer.ts';
import { createServer } from './app.ts';

describe('the deadline clock', () => {
  it('starts when the request arrives, not when its body has been read', async () => {
    const scorer = createFakeScorer();
    const release = scorer.hold(); // the scorer never answers by itself
    const app = createServer({ scorer, deadlineMs: 2000 });
    const body = JSON.stringify({
      items: [{ id: 'a', prompt_id: 'p', completion: 'reward=0.5' }],
    });
    const half = Math.floor(body.length / 2);
    const enc = new TextEncoder();
    let bodyDone = 0;
    // The second half of the body comes 2 s after the first: the whole deadline.
    const stream = new ReadableStream<Uint8Array>({
      async start(ctl) {
        ctl.enqueue(enc.encode(body.slice(0, half)));
        await new Promise((r) => setTimeout(r, 2000));
        ctl.enqueue(enc.encode(body.slice(half)));
        bodyDone = performance.now();
        ctl.close();
      },
    });
    const res = await app.request('/v1/rewards', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const answered = performance.now();
    release();
    expect(res.status).toBe(200);
    const out = (await res.json()) as { results: Array<{ status: string; reason?: string }> };
    expect(out.results[0]).toMatchObject({ status: 'grader_error', reason: 'deadline' });
    // Past its deadline already when the body was in: answered at once, not 2 s later.
    expect(bodyDone).toBeGreaterThan(0);
    expect(answered - bodyDone).toBeLessThan(1200);
  });
});
