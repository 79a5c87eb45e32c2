// `rubrica judge-proxy` as a real process: a missing --upstream is a usage error (exit 2),
// --help lists the flags, an exposed host without a token is refused, and a running proxy
// sent SIGTERM answers the call it has in flight, then exits 0.
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startModelDouble } from '../../../test/support/model-double.ts';

const bin = ['bin/rubrica.js', 'judge-proxy'];

describe('rubrica judge-proxy', () => {
  it('without --upstream: a usage error, exit 2', () => {
    const r = spawnSync('node', [...bin, '--port', '0'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--upstream');
  });

  it('--help lists the flags', () => {
    const r = spawnSync('node', [...bin, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const flag of [
      '--upstream',
      '--host',
      '--port',
      '--cache',
      '--concurrency',
      '--judge-rpm',
      '--judge-tpm',
      '--ttl-s',
      '--timeout-s',
      '--token',
      '--max-body-total-mb',
      '--body-timeout',
      '--max-answer-mb',
      '--cache-mb',
      '--max-queue',
      '--queue-timeout-s',
      '--drain-s',
    ])
      expect(r.stdout).toContain(flag);
  });

  it('a non-loopback --host without a token is refused (exit 2)', () => {
    const r = spawnSync(
      'node',
      [...bin, '--upstream', 'http://127.0.0.1:1/v1', '--host', '0.0.0.0'],
      {
        encoding: 'utf8',
        env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'RUBRICA_TOKEN')),
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('without a token');
  });

  it('SIGTERM: the call in flight is answered, then exit 0', async () => {
    const double = await startModelDouble({
      handler: () => ({ content: 'late answer', delayMs: 800 }),
    });
    const child = spawn('node', [...bin, '--upstream', double.url, '--port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /"msg":"ready"/.test(err) ? /"url":"(http:[^"]+)"/.exec(err) : null;
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      const call = fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'judge', messages: [{ role: 'user', content: 'hi' }] }),
      });
      while (double.requests.length < 1) await new Promise((r) => setTimeout(r, 10));
      child.kill('SIGTERM');
      const res = await call;
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('late answer');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await double.close();
    }
  });
});
