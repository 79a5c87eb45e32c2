// One font set for every renderer, so text draws the same on every machine and in every
// renderer: DejaVu (Debian fonts-dejavu-core, installed by scripts/setup-debian.sh), then
// the pinned fallback chain for the scripts DejaVu lacks (font-chain.ts). A fontconfig file
// that knows only the DejaVu directory and the chain's files, maps every generic family
// (and any unknown one) onto DejaVu and then the chain in its order, is written once per
// process; librsvg (in the render
// workers) and Chromium read it through FONTCONFIG_FILE, resvg gets the same files and
// family mapping through its own options. Without this, librsvg and Chromium pick
// whatever the machine has installed (Liberation, Noto, …) and glyphs differ. The same
// file turns hinting off for every font, so librsvg rasterises glyphs as Chromium does.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readEnv } from './env.ts';
import { chainFiles, chainRoot, FALLBACK_CHAIN } from './font-chain.ts';

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
/** The fallback chain's files on this machine, in the order fallback tries them. */
export const CHAIN_FILES = chainFiles(FONT_DIR);

export interface ChainStatus {
  family: string;
  package: string;
  scripts: string[];
  /** True when every file of the family is present. */
  installed: boolean;
  files: string[];
}

/** The whole pinned chain (DejaVu first) and which families this machine has (for doctor). */
export function fontChainStatus(): ChainStatus[] {
  const dejavu = Object.values(FONT_FAMILIES).map((family) => {
    const stem = family.replaceAll(' ', '');
    const files = [`${stem}.ttf`, `${stem}-Bold.ttf`].map((f) => join(FONT_DIR, f));
    return { family, package: 'fonts-dejavu-core', scripts: ['Latin', 'Greek', 'Cyrillic'], files };
  });
  const root = chainRoot(FONT_DIR);
  const chain = FALLBACK_CHAIN.map((f) => ({ ...f, files: f.files.map((p) => join(root, p)) }));
  return [...dejavu, ...chain].map((f) => ({
    family: f.family,
    package: f.package,
    scripts: [...f.scripts],
    installed: f.files.every((p) => existsSync(p)),
    files: f.files,
  }));
}

// Generic and common named families → the DejaVu family a browser on a bare Debian picks.
const ALIASES: [string, string][] = [
  ['sans-serif', FONT_FAMILIES.sansSerif],
  ['serif', FONT_FAMILIES.serif],
  ['monospace', FONT_FAMILIES.monospace],
  ['cursive', FONT_FAMILIES.sansSerif],
  ['fantasy', FONT_FAMILIES.sansSerif],
  ['system-ui', FONT_FAMILIES.sansSerif],
];

// fontconfig reads directories, not files: the chain's files are linked into a directory
// of their own, so fontconfig sees exactly them and not the other 500 Noto fonts.
function chainDir(dir: string): string {
  const hash = createHash('sha256').update(CHAIN_FILES.join('\n')).digest('hex').slice(0, 12);
  const final = join(dir, `chain-${hash}`);
  if (existsSync(final)) return final;
  const tmp = `${final}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [i, f] of CHAIN_FILES.entries()) symlinkSync(f, join(tmp, `${i}-${basename(f)}`));
  try {
    renameSync(tmp, final); // atomic; another process may have won the race
  } catch {
    rmSync(tmp, { recursive: true, force: true });
  }
  return final;
}

function configText(cacheDir: string, chain: string): string {
  const alias = ALIASES.map(
    ([from, to]) =>
      `  <alias binding="same"><family>${from}</family><prefer><family>${to}</family></prefer></alias>`,
  ).join('\n');
  // The last match appends DejaVu Sans and then the chain to every pattern: an unknown
  // family (Arial, Helvetica, "Comic Sans MS") falls back to DejaVu Sans instead of to
  // whatever scores best, and a character DejaVu lacks to the chain in its order.
  const fallback = [FONT_FAMILIES.sansSerif, ...FALLBACK_CHAIN.map((f) => f.family)]
    .map((f) => `<string>${f}</string>`)
    .join('');
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${FONT_DIR}</dir>
  <dir>${chain}</dir>
  <cachedir>${cacheDir}</cachedir>
${alias}
  <match target="pattern">
    <edit name="family" mode="append_last">${fallback}</edit>
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
  const text = configText(cache, chainDir(dir));
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
