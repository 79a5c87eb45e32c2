// One font set for every renderer, so text draws the same on every machine and in every
// renderer: DejaVu (Debian fonts-dejavu-core, installed by scripts/setup-debian.sh). A
// fontconfig file that knows only the DejaVu directory and maps every generic family
// (and any unknown one) onto it is written once per process; librsvg (in the render
// workers) and Chromium read it through FONTCONFIG_FILE, resvg gets the same files and
// family mapping through its own options. Without this, librsvg and Chromium pick
// whatever the machine has installed (Liberation, Noto, …) and glyphs differ. The same
// file turns hinting off for every font, so librsvg rasterises glyphs as Chromium does.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEnv } from './env.ts';

/** Debian's fonts-dejavu; RUBRICA_FONT_DIR points elsewhere on systems that keep it there. */
export const FONT_DIR = readEnv('RUBRICA_FONT_DIR') ?? '/usr/share/fonts/truetype/dejavu';
export const FONT_FAMILIES = {
  sansSerif: 'DejaVu Sans',
  serif: 'DejaVu Serif',
  monospace: 'DejaVu Sans Mono',
} as const;
/** The files resvg loads (regular, bold, oblique of each family). */
export const FONT_FILES = [
  'DejaVuSans.ttf',
  'DejaVuSans-Bold.ttf',
  'DejaVuSans-Oblique.ttf',
  'DejaVuSans-BoldOblique.ttf',
  'DejaVuSerif.ttf',
  'DejaVuSerif-Bold.ttf',
  'DejaVuSerif-Italic.ttf',
  'DejaVuSerif-BoldItalic.ttf',
  'DejaVuSansMono.ttf',
  'DejaVuSansMono-Bold.ttf',
  'DejaVuSansMono-Oblique.ttf',
  'DejaVuSansMono-BoldOblique.ttf',
]
  .map((f) => join(FONT_DIR, f))
  .filter((f) => existsSync(f));

// Generic and common named families → the DejaVu family a browser on a bare Debian picks.
const ALIASES: [string, string][] = [
  ['sans-serif', FONT_FAMILIES.sansSerif],
  ['serif', FONT_FAMILIES.serif],
  ['monospace', FONT_FAMILIES.monospace],
  ['cursive', FONT_FAMILIES.sansSerif],
  ['fantasy', FONT_FAMILIES.sansSerif],
  ['system-ui', FONT_FAMILIES.sansSerif],
];

function configText(cacheDir: string): string {
  const alias = ALIASES.map(
    ([from, to]) =>
      `  <alias binding="same"><family>${from}</family><prefer><family>${to}</family></prefer></alias>`,
  ).join('\n');
  // The last match appends DejaVu Sans to every pattern: an unknown family (Arial,
  // Helvetica, "Comic Sans MS") falls back to it instead of to whatever scores best.
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${FONT_DIR}</dir>
  <cachedir>${cacheDir}</cachedir>
${alias}
  <match target="pattern">
    <edit name="family" mode="append_last"><string>${FONT_FAMILIES.sansSerif}</string></edit>
  </match>
  <!-- Rasterise glyphs as Chromium does with font-render-hinting=none: unhinted outlines,
       grey antialiasing, no subpixel order or LCD filter. With fontconfig's defaults librsvg
       hinted the outlines and its text differed 1.8-4.2/255 from Chromium's; now 0.6. -->
  <match target="font">
    <edit name="hinting" mode="assign"><bool>false</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="rgba" mode="assign"><const>none</const></edit>
    <edit name="lcdfilter" mode="assign"><const>lcdnone</const></edit>
    <edit name="autohint" mode="assign"><bool>false</bool></edit>
  </match>
  <config><rescan><int>0</int></rescan></config>
</fontconfig>
`;
}

let written: string | null = null;

/**
 * Path of the pinned fontconfig file (written on first call, shared by all processes of
 * this user through a content-addressed name).
 */
export function pinnedFontConfig(): string {
  if (written) return written;
  const dir = join(tmpdir(), 'rubrica-fonts');
  const cache = join(dir, 'cache');
  mkdirSync(cache, { recursive: true });
  const text = configText(cache);
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  const file = join(dir, `fonts-${hash}.conf`);
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    // rename is atomic: a concurrent process never reads half a file.
    renameSync(tmp, file);
  }
  written = file;
  return file;
}

/** The environment a renderer process needs to see only the pinned fonts. */
export function fontEnv(): Record<string, string> {
  return { FONTCONFIG_FILE: pinnedFontConfig() };
}
