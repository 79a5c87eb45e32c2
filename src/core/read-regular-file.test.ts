import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile } from './read-regular-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'rubrica-regular-'));
const fifo = join(dir, 'pipe.csv');
// A real FIFO with no writer: a blocking open of it waits forever.
execFileSync('mkfifo', [fifo]);
const sock = join(dir, 'sock.csv');
const server = createServer();
await new Promise<void>((res) => server.listen(sock, res));
afterAll(() => server.close());

const LIMIT = { maxBytes: 1024, timeoutMs: 5_000 };

describe('readRegularFile', () => {
  it('reads a regular file within the bound', async () => {
    writeFileSync(join(dir, 'a.csv'), 'x,y\n1,2\n');
    const r = await readRegularFile(join(dir, 'a.csv'), LIMIT);
    expect(r.ok && r.bytes.toString()).toBe('x,y\n1,2\n');
  });

  it('answers at once for a FIFO without a writer, a socket, a device and a directory', async () => {
    for (const p of [fifo, sock, '/dev/zero', '/dev/null', dir]) {
      const r = await readRegularFile(p, LIMIT);
      expect(r.ok ? 'ok' : r.problem, p).toBe('not_file');
    }
    const r = await readRegularFile(fifo, LIMIT);
    expect(!r.ok && r.message).toMatch(/FIFO/);
  });

  it('refuses a file over the bound before reading it, and a missing one', async () => {
    writeFileSync(join(dir, 'big.csv'), Buffer.alloc(2048, 1));
    const big = await readRegularFile(join(dir, 'big.csv'), LIMIT);
    expect(!big.ok && big.problem).toBe('too_large');
    const none = await readRegularFile(join(dir, 'none.csv'), LIMIT);
    expect(!none.ok && none.problem).toBe('missing');
  });

  it('refuses a file whose size is not what it reads (a file that changes while read)', async () => {
    // /proc files say size 0 and then give bytes: the same shape as a file that grows
    // between fstat and read, made deterministic.
    const r = await readRegularFile('/proc/self/status', { maxBytes: 1 << 20 });
    expect(r.ok ? 'ok' : r.problem).toBe('changed');
  });
});
