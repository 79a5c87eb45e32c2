import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assetNameProblem, assetsHash } from '../core/assets.ts';
import { resolveAssets } from './assets.ts';

const base = mkdtempSync(join(tmpdir(), 'rubrica-assets-'));
const root = join(base, 'root');
mkdirSync(join(root, 'data'), { recursive: true });
writeFileSync(join(root, 'data', 'cars.csv'), 'name,mpg\nvw,30\n');
writeFileSync(join(base, 'secret.txt'), 'not yours');
symlinkSync(join(base, 'secret.txt'), join(root, 'leak.csv'));
symlinkSync(join(root, 'data', 'cars.csv'), join(root, 'alias.csv'));

describe('resolveAssets', () => {
  it('reads inline content and paths under the data root', async () => {
    const r = await resolveAssets(
      {
        'cars.csv': { path: 'data/cars.csv' },
        'data/x.json': '[1,2]',
        'a.csv': { path: 'alias.csv' },
      },
      { dataRoot: root },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.assets['cars.csv']!.toString()).toBe('name,mpg\nvw,30\n');
    expect(r.assets['data/x.json']!.toString()).toBe('[1,2]');
    // A symlink that stays inside the root is followed.
    expect(r.assets['a.csv']!.toString()).toBe('name,mpg\nvw,30\n');
  });

  it('refuses a path escaping the root, a symlink out of it, a missing file, each with its code', async () => {
    const code = async (v: unknown) => {
      const r = await resolveAssets({ 'x.csv': v as { path: string } }, { dataRoot: root });
      return r.ok ? 'ok' : r.error.code;
    };
    expect(await code({ path: '../secret.txt' })).toBe('asset_outside_root');
    expect(await code({ path: join(base, 'secret.txt') })).toBe('asset_outside_root');
    expect(await code({ path: 'data/../../secret.txt' })).toBe('asset_outside_root');
    expect(await code({ path: 'leak.csv' })).toBe('asset_outside_root');
    expect(await code({ path: 'nope.csv' })).toBe('asset_missing');
    expect(await code({ path: 'data' })).toBe('asset_invalid'); // a directory is not a file
  });

  it('needs a data root for paths, and plain relative names', async () => {
    const noRoot = await resolveAssets({ 'x.csv': { path: 'data/cars.csv' } });
    expect(!noRoot.ok && noRoot.error.code).toBe('asset_invalid');
    for (const bad of [
      '/etc/passwd',
      '../x',
      'a/../b',
      '.hidden',
      'a//b',
      '',
      'a\\b',
      'a/b/c/d/e',
    ]) {
      expect(assetNameProblem(bad), bad).not.toBeNull();
      const r = await resolveAssets({ [bad]: 'x' });
      expect(!r.ok && r.error.code, bad).toBe('asset_invalid');
    }
    expect(assetNameProblem('data/cars.json')).toBeNull();
    const clash = await resolveAssets({ data: 'x', 'data/a.csv': 'y' });
    expect(!clash.ok && clash.error.code).toBe('asset_invalid');
  });

  it('bounds the count and the total bytes (assets_too_large)', async () => {
    const many = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}.csv`, 'x']));
    const r1 = await resolveAssets(many, { limits: { maxCount: 3 } });
    expect(!r1.ok && r1.error.code).toBe('assets_too_large');
    const r2 = await resolveAssets(
      { 'a.csv': '12345', 'b.csv': '67890' },
      { limits: { maxTotalBytes: 8 } },
    );
    expect(!r2.ok && r2.error.code).toBe('assets_too_large');
    const r3 = await resolveAssets(
      { 'a.csv': { path: 'data/cars.csv' } },
      { dataRoot: root, limits: { maxTotalBytes: 4 } },
    );
    expect(!r3.ok && r3.error.code).toBe('assets_too_large');
    expect((await resolveAssets({ 'a.csv': '1234' }, { limits: { maxTotalBytes: 4 } })).ok).toBe(
      true,
    );
  });

  it('hashes names and bytes, in any order; no assets, no hash', () => {
    const a = { 'x.csv': Buffer.from('1'), 'y.csv': Buffer.from('2') };
    const b = { 'y.csv': Buffer.from('2'), 'x.csv': Buffer.from('1') };
    expect(assetsHash(a)).toBe(assetsHash(b));
    expect(assetsHash({ 'x.csv': Buffer.from('1'), 'y.csv': Buffer.from('3') })).not.toBe(
      assetsHash(a),
    );
    expect(assetsHash({ 'z.csv': Buffer.from('1'), 'y.csv': Buffer.from('2') })).not.toBe(
      assetsHash(a),
    );
    expect(assetsHash({})).toBeNull();
    expect(assetsHash(undefined)).toBeNull();
  });
});
