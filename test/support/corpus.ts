// Real SVGs nobody here wrote: Microsoft's Fluent Emoji (flat), MIT-licensed, installed
// from npm as @iconify-json/fluent-emoji-flat. Each icon becomes a standalone SVG file
// text. The selection is deterministic (sorted names, even stride) so runs are repeatable.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface IconifySet {
  prefix: string;
  width?: number;
  height?: number;
  icons: Record<string, { body: string; width?: number; height?: number }>;
}

let cached: IconifySet | undefined;
function loadSet(): IconifySet {
  if (!cached) {
    const require = createRequire(import.meta.url);
    const file = require.resolve('@iconify-json/fluent-emoji-flat/icons.json');
    cached = JSON.parse(readFileSync(file, 'utf8')) as IconifySet;
  }
  return cached;
}

export interface CorpusSvg {
  name: string;
  svg: string;
}

/** `count` icons spread evenly over the whole set (all of them when count is omitted). */
export function fluentEmoji(count?: number): CorpusSvg[] {
  const set = loadSet();
  const names = Object.keys(set.icons).sort();
  const n = count === undefined ? names.length : Math.min(count, names.length);
  const stride = names.length / n;
  const out: CorpusSvg[] = [];
  for (let i = 0; i < n; i++) {
    const name = names[Math.floor(i * stride)]!;
    const icon = set.icons[name]!;
    const w = icon.width ?? set.width ?? 16;
    const h = icon.height ?? set.height ?? 16;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${icon.body}</svg>`;
    out.push({ name, svg });
  }
  return out;
}
