// Issue 22 item 5, attacked from outside: a job is bounded in memory over all its processes,
// every writable mount is small, and nothing a job writes reaches the next job on the same
// warm worker. Real bubblewrap, a real warm Python zygote (one slot, so every job lands on
// the same worker) and a real one-shot sandbox.
import { statfsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPythonRenderer } from '../python/renderer.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';
import { DEFAULT_SANDBOX_LIMITS } from './bwrap.ts';
import { memoryCgroupSupport } from './memory-cgroup.ts';
import { createOneShotRenderer } from './one-shot.ts';

let py: DomainRenderer;
beforeAll(() => {
  py = createPythonRenderer({ poolSize: 1, timeoutMs: 20_000, maxJobsPerWorker: 1000 });
});
afterAll(async () => {
  await py.close();
});

function failed(r: DomainRender): { code: string; message: string } {
  if (r.ok) throw new Error('expected a failure, got a picture');
  return r.error;
}

// Every path a job can write to, $HOME included (HOME=/work) and the sandbox's root and /dev.
const PATHS = ['/dev/shm', '/tmp', '/work', '/dev', '/', '$HOME'];

describe('bounded and clean per job (real bwrap)', () => {
  it('a memory cgroup is available here (the cap below is the cgroup, not an rlimit)', () => {
    expect(memoryCgroupSupport()).not.toBeNull();
  });

  it('nothing a job writes anywhere is visible to the next job on the same worker', async () => {
    const write = `import os
home = os.environ['HOME']
made = []
for d in ${JSON.stringify(PATHS)}:
    d = home if d == '$HOME' else d
    p = os.path.join(d, 'left-behind')
    try:
        with open(p, 'w') as f:
            f.write('secret')
        made.append(p)
    except OSError:
        pass
# A directory its owner cannot list any more, so a naive wipe leaves it.
os.makedirs('/tmp/locked/inner', exist_ok=True)
open('/tmp/locked/inner/f', 'w').write('secret')
os.chmod('/tmp/locked/inner', 0)
os.chmod('/tmp/locked', 0)
# A System V shared-memory segment outlives its creator in the worker's IPC namespace.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmget(0x5eed, 4096, 0o1600)
# And a POSIX message queue, named, in the same namespace.
libc.mq_open(b'/left-behind', os.O_CREAT | os.O_RDWR, 0o600, None)
raise RuntimeError('made=' + ','.join(made))`;
    const first = failed(await py.render(write));
    expect(first.message).toContain('made=');
    const look = `import os
home = os.environ['HOME']
seen = []
for d in ${JSON.stringify(PATHS)}:
    d = home if d == '$HOME' else d
    if os.path.lexists(os.path.join(d, 'left-behind')):
        seen.append(d)
if os.path.lexists('/tmp/locked'):
    seen.append('/tmp/locked')
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
if libc.shmget(0x5eed, 0, 0) != -1:
    seen.append('sysv-shm')
if libc.mq_open(b'/left-behind', os.O_RDWR) != -1:
    seen.append('mqueue')
raise RuntimeError('seen=[' + ','.join(seen) + ']')`;
    const next = failed(await py.render(look));
    expect(next.message).toContain('seen=[]');
  }, 90_000);

  it('a job writing 1 GiB to /dev/shm stops early, without filling memory', async () => {
    const started = performance.now();
    const r = failed(
      await py.render(`n = 0
try:
    for i in range(128):  # 8 MiB files: each under the file-size limit
        with open(f'/dev/shm/fill{i}', 'wb') as f:
            for _ in range(8):
                f.write(b'x' * 1024**2)
                f.flush()
                n += 1
except OSError as e:
    raise RuntimeError(f'stopped at {n} MiB: {e}')
raise RuntimeError(f'wrote {n} MiB')`),
    );
    const mib = Number(/(?:stopped at|wrote) (\d+) MiB/.exec(r.message)?.[1]);
    expect(mib).toBeLessThanOrEqual(DEFAULT_SANDBOX_LIMITS.shmBytes / 1024 ** 2);
    expect(r.message).toMatch(/No space left/);
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it('a job forking 6 children of 400 MB each is stopped at the cap (too_large)', async () => {
    const r = failed(
      await py.render(`import os, time
kids = []
for i in range(6):
    pid = os.fork()
    if pid == 0:
        b = bytearray(400 * 1000**2)
        for j in range(0, len(b), 4096):
            b[j] = 1
        time.sleep(5)
        os._exit(0)
    kids.append(pid)
for k in kids:
    os.waitpid(k, 0)
import matplotlib.pyplot as plt
plt.plot([1, 2])`),
    );
    expect(r.code).toBe('too_large');
    // The same worker still renders a normal figure afterwards.
    const ok = await py.render('import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])');
    expect(ok.ok).toBe(true);
  }, 90_000);

  it('a one-shot sandbox whose processes together exceed the cap is too_large', async () => {
    const sh = createOneShotRenderer({
      name: 'sh',
      spec: { argv: ['/usr/bin/python3', '-c', 'import sys; exec(sys.stdin.read())'] },
      timeoutMs: 30_000,
      maxCodeBytes: 10_000,
    });
    const hog = `import os, time
for i in range(6):
    if os.fork() == 0:
        b = bytearray(400 * 1000**2)
        for j in range(0, len(b), 4096):
            b[j] = 1
        time.sleep(5)
        os._exit(0)
for i in range(6):
    os.wait()
import sys
sys.exit(4)`;
    const before = statfsSync('/dev/shm');
    expect(failed(await sh.render(hog)).code).toBe('too_large');
    // A 1 GiB write into the one-shot sandbox's /dev/shm stops at its size too.
    const fill = failed(
      await sh.render(
        "import sys\ntry:\n    open('/dev/shm/f','wb').write(b'x' * 1024**3)\nexcept OSError as e:\n    sys.stderr.write(str(e)); sys.exit(3)\nsys.exit(4)",
      ),
    );
    expect(fill.code).toMatch(/exec_error|too_large/);
    expect(fill.message).toMatch(/No space left|MemoryError|too_large|memory/i);
    expect(statfsSync('/dev/shm').bfree).toBeGreaterThanOrEqual(before.bfree - 1024);
  }, 90_000);
});
