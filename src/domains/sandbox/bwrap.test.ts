// The sandbox command line: the isolation promised in docs/domains.md is in the argv.
import { describe, expect, it } from 'vitest';
import { sandboxArgv } from './bwrap.ts';

describe('sandboxArgv', () => {
  const argv = sandboxArgv({
    argv: ['/usr/bin/python3', 'x.py'],
    env: { A: '1' },
    limits: { cpuSeconds: 7, processes: 9 },
  });
  const after = (flag: string) => argv[argv.indexOf(flag) + 1];

  it('unshares everything, clears the environment and dies with its parent', () => {
    for (const f of ['--unshare-all', '--clearenv', '--die-with-parent', '--new-session']) {
      expect(argv).toContain(f);
    }
    expect(after('--cap-drop')).toBe('ALL');
    expect(argv).not.toContain('--share-net');
    expect(argv).not.toContain('--as-pid-1');
  });

  it('binds only read-only system paths, never /etc as a whole or the project', () => {
    const binds = argv.flatMap((a, i) =>
      a === '--bind' || a === '--ro-bind' ? [argv[i + 1]] : [],
    );
    expect(argv).not.toContain('--bind');
    expect(binds).toContain('/usr');
    expect(binds).not.toContain('/etc');
    expect(binds).not.toContain('/');
    expect(binds.some((b) => b !== undefined && process.cwd().startsWith(b) && b !== '/usr')).toBe(
      false,
    );
  });

  it("binds fontconfig's cache read-only, so no process rescans every font (issue 23)", () => {
    const i = argv.indexOf('/var/cache/fontconfig');
    expect(i).toBeGreaterThan(0);
    expect(argv[i - 1]).toBe('--ro-bind');
    expect(argv.filter((a) => a.startsWith('/var')).sort()).toEqual(
      ['/var/cache/fontconfig', '/var/cache/fontconfig', '/var/lib/texmf', '/var/lib/texmf'].sort(),
    );
  });

  it('shows nothing of /sys but the huge-page mode glibc reads', () => {
    const sys = argv.filter((a) => a.startsWith('/sys'));
    for (const p of sys) expect(p).toBe('/sys/kernel/mm/transparent_hugepage');
    expect(argv[argv.indexOf('/sys/kernel/mm/transparent_hugepage') - 1]).toBe('--ro-bind');
  });

  it('puts the limits on the command and only the given environment', () => {
    const i = argv.indexOf('prlimit');
    expect(argv.slice(i, i + 8)).toEqual([
      'prlimit',
      '--cpu=7',
      '--as=2147483648',
      '--nproc=9',
      '--fsize=67108864',
      '--nofile=256',
      '--core=0',
      '--',
    ]);
    expect(argv.slice(-2)).toEqual(['/usr/bin/python3', 'x.py']);
    const env = argv.flatMap((a, j) => (a === '--setenv' ? [argv[j + 1]] : []));
    expect(env.sort()).toEqual(['A', 'HOME', 'LANG', 'PATH', 'TMPDIR']);
  });

  it('drops to nobody first when running as root', () => {
    if (process.getuid?.() === 0)
      expect(argv.slice(0, 3)).toEqual(['setpriv', '--reuid=65534', '--regid=65534']);
    else expect(argv[0]).toBe('bwrap');
  });

  it('makes / and /dev read-only once mounted; /dev/shm is its own small tmpfs', () => {
    const shm = argv.indexOf('/dev/shm');
    expect(argv.slice(shm - 3, shm)).toEqual(['--size', String(16 * 1024 ** 2), '--tmpfs']);
    const ro = argv.flatMap((a, i) => (a === '--remount-ro' ? [argv[i + 1]] : []));
    expect(ro).toEqual(['/dev', '/']);
    // After every mount point exists (the last bind), before the command.
    expect(argv.indexOf('--remount-ro')).toBeGreaterThan(argv.lastIndexOf('--ro-bind'));
    expect(argv.indexOf('--remount-ro')).toBeGreaterThan(shm);
  });

  it('runs one-shot pipelines as pid 1', () => {
    expect(sandboxArgv({ argv: ['true'], asPid1: true })).toContain('--as-pid-1');
  });
});
