// Pictures of an eval run: one inspection (artifact → render → checks) per rollout, shared
// by every reward that scores it so nothing renders twice, and the PNG saved under
// DIR/images/<id>.png for the report and for people to look at.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `<id>.png` when the id is a safe file name, else a sanitised name plus a short hash. */
export function imageFileName(id: string): string {
  if (/^[A-Za-z0-9_#=+-][A-Za-z0-9._#=+-]{0,150}$/.test(id)) return `${id}.png`;
  const safe = id
    .replace(/[^A-Za-z0-9._#=+-]+/g, '_')
    .slice(0, 100)
    .replace(/^\.+/, '_');
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 10);
  return `${safe}-${hash}.png`;
}

/** Saves a rendered PNG; returns its path relative to the run directory. */
export async function saveImage(dir: string, id: string, png: Buffer): Promise<string> {
  const rel = `images/${imageFileName(id)}`;
  await mkdir(join(dir, 'images'), { recursive: true });
  await writeFile(join(dir, rel), png);
  return rel;
}
