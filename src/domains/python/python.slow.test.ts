// The python domain under attack: every hostile script in one run against one warm pool,
// then a normal figure must still render from the same pool.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackLogger, startLoopbackLogger } from '../../../test/support/loopback-logger.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';
import { createPythonRenderer } from './renderer.ts';

const PLOT = `import matplotlib.pyplot as plt
import numpy as np
x = np.linspace(0, 6, 50)
plt.plot(x, np.sin(x))
plt.title('sine')
plt.show()
`;

let py: DomainRenderer;
let logger: LoopbackLogger;
const SECRET = 'sk-rubrica-test-secret-value';

beforeAll(async () => {
  process.env.RUBRICA_TEST_API_KEY = SECRET;
  logger = await startLoopbackLogger();
  py = createPythonRenderer({
    poolSize: 1,
    timeoutMs: 8_000,
    memoryBytes: 160 * 1024 ** 2, // small, so the memory bombs hit it fast on a loaded machine
    limits: { cpuSeconds: 6 },
  });
});
afterAll(async () => {
  delete process.env.RUBRICA_TEST_API_KEY;
  await py.close();
  await logger.close();
});

function failed(r: DomainRender): { code: string; message: string } {
  if (r.ok) throw new Error('expected a failure, got a picture');
  return r.error;
}

describe('python domain', () => {
  it('renders a matplotlib figure (the harness saves it; plt.show() is a no-op)', async () => {
    const r = await py.render(PLOT);
    expect(r.ok).toBe(true);
    if (r.ok) expect([r.width, r.height]).toEqual([640, 480]);
  });

  it('takes a PNG the script saved itself and closed', async () => {
    const r = await py.render(
      "import matplotlib.pyplot as plt\nplt.bar([1,2],[3,4])\nplt.savefig('mine.png')\nplt.close('all')",
    );
    expect(r.ok).toBe(true);
  });

  it('reports warnings, exceptions with their traceback and scripts that draw nothing', async () => {
    const w = await py.render(`import warnings\n${PLOT}\nwarnings.warn('careful')`);
    expect(w.ok && w.notes.warnings).toEqual(['UserWarning: careful']);
    const e = failed(await py.render('import matplotlib.pyplot as plt\nplt.plot([1])\n1/0'));
    expect(e.code).toBe('exec_error');
    expect(e.message).toContain('ZeroDivisionError');
    expect(failed(await py.render('x = 1')).code).toBe('no_output');
    expect(failed(await py.render('import matplotlib.pyplot as plt\nplt.figure()')).code).toBe(
      'blank',
    );
  });

  it('holds against hostile scripts, then still renders', async () => {
    // Files outside the work dir: absent, not merely unreadable.
    for (const path of ['/etc/passwd', `${process.cwd()}/package.json`, '/root/.bashrc']) {
      const e = failed(await py.render(`open(${JSON.stringify(path)}).read()`));
      expect(e.message).toMatch(/FileNotFoundError/);
    }
    // The host's environment is not there.
    const env = failed(await py.render('import os\nraise RuntimeError(repr(dict(os.environ)))'));
    expect(env.message).toContain('MPLBACKEND');
    expect(env.message).not.toContain(SECRET);
    // No network: a socket or urllib to the loopback logger fails and the logger sees nothing.
    const sock = failed(
      await py.render(
        `import socket\ns = socket.create_connection(('127.0.0.1', ${logger.port}), timeout=2)`,
      ),
    );
    expect(sock.message).toMatch(/OSError|Network is unreachable|refused/);
    const url = failed(
      await py.render(
        `import urllib.request\nurllib.request.urlopen(${JSON.stringify(logger.url)})`,
      ),
    );
    expect(url.code).toBe('exec_error');
    // Subprocesses run, but inside the same empty sandbox: read-only system, no host files.
    const sys = failed(
      await py.render(
        "import os, subprocess\nr = os.system('echo x > /usr/evil')\nout = subprocess.run(['cat', '/etc/passwd'], capture_output=True)\nraise RuntimeError(f'system={r} cat={out.returncode}')",
      ),
    );
    expect(sys.message).toMatch(/system=[1-9]\d* cat=1/);
    expect(existsSync('/usr/evil')).toBe(false);
    // Fork bomb: stopped by the process limit and the timeout; every process killed.
    const bomb = await py.render(
      'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass',
      { timeoutMs: 3_000 },
    );
    expect(failed(bomb).code).toMatch(/timeout|exec_error/);
    // Memory bomb: the address-space limit turns it into MemoryError → too_large.
    expect(failed(await py.render('x = bytearray(50 * 1024**3)')).code).toBe('too_large');
    expect(
      failed(await py.render('a = []\nwhile True:\n    a.append(bytearray(10**7))')).code,
    ).toBe('too_large');
    // Infinite loop: killed at the wall-clock limit.
    const loop = await py.render('while True:\n    pass', { timeoutMs: 2_000 });
    expect(failed(loop).code).toBe('timeout');
    expect(loop.ms).toBeLessThan(6_000);
    // Huge files: the file-size limit (EFBIG), then the tmpfs size (ENOSPC).
    const big = failed(
      await py.render("with open('big', 'wb') as f:\n    f.write(b'x' * (200 * 1024**2))"),
    );
    expect(big.message).toMatch(/File too large|No space|MemoryError/);
    const many = failed(
      await py.render(
        "for i in range(100):\n    with open(f'f{i}', 'wb') as f:\n        f.write(b'x' * (30 * 1024**2))",
      ),
    );
    expect(many.message).toMatch(/No space left|File too large/);
    // A job's leftovers do not reach the next job: files are wiped, daemons killed.
    await py.render(
      "import os, time\nopen('/tmp/left', 'w').write('x')\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])",
    );
    const next = failed(
      await py.render(
        "import os\nprocs = [p for p in os.listdir('/proc') if p.isdigit()]\nraise RuntimeError(f'left={os.path.exists(\"/tmp/left\")} procs={len(procs)}')",
      ),
    );
    expect(next.message).toContain('left=False');
    // The job alone in its own pid namespace (issue 35): nothing from the previous job, and
    // not the zygote either.
    expect(next.message).toContain('procs=1');
    // And after all of it, a normal figure still renders.
    const ok = await py.render(PLOT);
    expect(ok.ok).toBe(true);
    expect(logger.hits).toEqual([]);
  }, 120_000);

  it('runs each job in a pid namespace of its own: no zygote, no other pid (issue 35)', async () => {
    // On the shared namespace the job saw the zygote as pid 1 and itself as another pid.
    const seen = failed(
      await py.render(
        [
          'import os, signal',
          "pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())",
          "cmd = open('/proc/1/cmdline', 'rb').read().split(b'\\0')[0].decode()",
          'try:',
          '    os.kill(2, 0); two = "alive"',
          'except ProcessLookupError:',
          '    two = "none"',
          "raise RuntimeError(f'me={os.getpid()} parent={os.getppid()} pids={pids} two={two}')",
        ].join('\n'),
      ),
    );
    expect(seen.message).toContain('me=1 parent=0 pids=[1] two=none');
    // Its children live and die inside it; the next job renders.
    const ok = await py.render(
      `import os\nif os.fork() == 0:\n    os._exit(0)\nos.wait()\n${PLOT}`,
    );
    expect(ok.ok ? 'ok' : ok.error.message).toBe('ok');
  }, 60_000);

  it('a job that closes its result pipe does not make the zygote spin while it runs', async () => {
    // The zygote waited with select() on the pipe and the child's pidfd; a pipe at its end is
    // always readable, so until the child exited it spun — a few ms after every job, and a
    // job's whole run when the job closed the pipe first (≈ 1 CPU-s a second of the job's
    // time, outside the job's own CPU limit). Now the pipe is dropped from the wait at its end.
    expect((await py.render(PLOT)).ok).toBe(true); // the zygote is up
    const zygote = zygotePid();
    const before = ownCpuSeconds(zygote);
    const r = await py.render(
      'import os, time\nos.close(3)\ntime.sleep(2)\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])',
    );
    expect(failed(r).code).toBe('exec_error'); // it could not send its picture
    // Spinning, even at a fifth of a core on a loaded machine, is ≥ 0.4 CPU-s over the 2 s.
    expect(ownCpuSeconds(zygote) - before).toBeLessThan(0.15);
  }, 60_000);
});

/** The process's own user + system CPU (not its reaped children's), from /proc. */
function stat(pid: number): { comm: string; ppid: number; cpu: number } {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  const comm = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
  return { comm, ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 };
}
const ownCpuSeconds = (pid: number) => stat(pid).cpu;

/** The warm pool's zygote: the python3 under this process whose parent is not python3. */
function zygotePid(): number {
  const all = new Map<number, { comm: string; ppid: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      all.set(Number(name), stat(Number(name)));
    } catch {
      // exited while we looked
    }
  }
  const under = (pid: number) => {
    for (let p = all.get(pid)?.ppid; p; p = all.get(p)?.ppid) if (p === process.pid) return true;
    return false;
  };
  const found = [...all].filter(
    ([pid, p]) => p.comm === 'python3' && all.get(p.ppid)?.comm !== 'python3' && under(pid),
  );
  if (found.length !== 1) throw new Error(`expected one zygote, found ${found.length}`);
  return found[0]![0];
}
