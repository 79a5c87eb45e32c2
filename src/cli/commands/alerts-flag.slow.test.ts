// `--alerts` (serve, eval) and `--flat-epsilon` (serve) are checked before any work starts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../test/support/run-cli.ts';

// The inputs exist, so the flag under test is the only thing wrong (inputs are checked first).
const dir = mkdtempSync(join(tmpdir(), 'alerts-flag-'));
const P = join(dir, 'p.jsonl');
const R = join(dir, 'r.jsonl');
writeFileSync(P, '');
writeFileSync(R, '');

describe('reward-health alert flags', () => {
  it.each([
    [['serve', '--alerts', 'flatness=1'], /--alerts: bad alert threshold "flatness=1"/],
    [['serve', '--alerts', 'clutter_share=lots'], /--alerts: bad alert threshold/],
    [['serve', '--flat-epsilon', '-1'], /--flat-epsilon must be a number ≥ 0/],
    [
      [
        'eval',
        '--prompts',
        P,
        '--rollouts',
        R,
        '--judge',
        'ollama:x',
        '--out',
        'o',
        '--alerts',
        'x=1',
      ],
      /--alerts: bad alert threshold "x=1"/,
    ],
  ])('%j is a usage error', async (args, message) => {
    const run = await runCliInProcess(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
