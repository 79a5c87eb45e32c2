// Runs the CLI's main() in this process, capturing what it prints: the same code path as
// the `rubrica` binary without paying tsx start-up per case. Tests that must kill or
// signal a real process spawn bin/rubrica.js themselves.
import { vi } from 'vitest';
import { main } from '../../src/cli/main.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliInProcess(args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(['node', 'rubrica', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
