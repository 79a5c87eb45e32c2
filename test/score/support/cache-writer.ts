// Child process for the cross-process cache test: writes `count` judge entries (keys
// shared with the other writer, values naming the key) into one SQLite cache file.
import { existsSync, writeFileSync } from 'node:fs';
import { openCache } from '../../../src/store/cache.ts';

const [path, who, countText, barrier] = process.argv.slice(2);
const cache = openCache(path!);
const count = Number(countText);
// Say "ready", then start when the parent says "go" (both are ready by then), so the two
// writers really overlap however slowly each process started on a loaded machine.
writeFileSync(`${barrier}.ready-${who}`, '');
while (!existsSync(`${barrier}.go`)) await new Promise((r) => setTimeout(r, 2));
const first = Date.now();
for (let i = 0; i < count; i++) {
  // Both writers insert the same keys in opposite orders so they collide constantly.
  const k = who === 'a' ? i : count - 1 - i;
  cache.set('judge', `key-${k}`, { k, by: who });
  if (cache.get<{ k: number }>('judge', `key-${k}`)?.k !== k) process.exit(3);
}
cache.close();
process.stdout.write(JSON.stringify([first, Date.now()]));
