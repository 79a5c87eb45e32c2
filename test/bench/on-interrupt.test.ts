// Ctrl-C on a long `--against` bench (bench/on-interrupt.ts): the temporary trees registered
// are removed, one forgotten (already cleaned up) is left alone, and the process still ends by
// the signal. A real child process and a real SIGINT; no bench is run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('../../bench/on-interrupt.ts', import.meta.url));
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('onInterrupt', () => {
  it('removes what was registered on SIGINT, leaves what was forgotten, and dies of the signal', async () => {
    const root = mkdtempSync(join(tmpdir(), 'on-interrupt-test-'));
    made.push(root);
    const kept = join(root, 'kept');
    const removed = join(root, 'removed');
    const child = join(root, 'child.mts');
    writeFileSync(
      child,
      `import { mkdirSync, rmSync } from 'node:fs';
import { onInterrupt } from ${JSON.stringify(module)};
mkdirSync(${JSON.stringify(removed)});
mkdirSync(${JSON.stringify(kept)});
onInterrupt(() => rmSync(${JSON.stringify(removed)}, { recursive: true }));
const forget = onInterrupt(() => rmSync(${JSON.stringify(kept)}, { recursive: true }));
forget();
setInterval(() => {}, 1000);
process.stdout.write('ready\\n');
`,
    );
    const p = spawn(process.execPath, ['--import', 'tsx', child], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('child not ready in 30 s')), 30_000);
      p.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const exit = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      p.on('exit', (code, signal) => resolve([code, signal])),
    );
    p.kill('SIGINT');
    const [code, signal] = await exit;
    expect(signal ?? code).toBe('SIGINT');
    expect(existsSync(removed)).toBe(false);
    expect(existsSync(kept)).toBe(true);
  }, 60_000);
});
