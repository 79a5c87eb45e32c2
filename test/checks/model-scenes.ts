// The model-written scenes (issue 40): 60 SVG answers to 30 prompts like the outside
// test (10 short prompts, 20 long scene specs), written for test/fixtures/scenes-model by an
// LLM acting as the policy and labelled by eye on their renders before any check ran on them.
// Unlike the openclipart sets (real-scenes.ts, holdout-scenes.ts) these look like what a policy
// writes: gradient skies, glows, rays, bokeh, turbulence textures, titles and labels in <text>.
// Tuned on (issue 40). Read by scene-bench.ts (`model`), model-manifest.test.ts and
// model-scenes.slow.test.ts. The same loader reads the second model-written set,
// test/fixtures/scenes-model-b (MODEL_B_DIR, ids `model-b:<file>`): 60 answers to 30 other
// prompts, the blind measure until 7 Dec 2026 and tuned on since (h38tune; scene-bench.ts
// `model-b`, model-b-manifest.test.ts, model-b-scenes.slow.test.ts), and the third,
// test/fixtures/scenes-model-c (MODEL_C_DIR, ids `model-c:<file>`): 60 answers to 30 prompts
// new to both, blind, to measure how the rule generalises once model-b is tuned on
// (scene-bench.ts `model-c`, model-c-manifest.test.ts, model-c-scenes.slow.test.ts), and the
// fourth, test/fixtures/scenes-model-d (MODEL_D_DIR, ids `model-d:<file>`): 40 answers to 20
// prompts new to all three (8 short, 12 long), about a quarter in line art, blind, to measure
// how the rule generalises once model-c is tuned on (scene-bench.ts `model-d`,
// model-d-manifest.test.ts), and the fifth, test/fixtures/scenes-model-e (MODEL_E_DIR, ids
// `model-e:<file>`): 40 answers to 20 prompts new to all four (8 short, 12 long), about a
// quarter in line art, blind, to measure how the rule generalises once model-d is tuned on
// (scene-bench.ts `model-e`, model-e-manifest.test.ts), and the sixth,
// test/fixtures/scenes-model-f (MODEL_F_DIR, ids `model-f:<file>`): 40 answers to 20 prompts
// new to all five (8 short, 12 long), about a quarter in line art, blind, to measure how the
// rule generalises once model-e is tuned on (scene-bench.ts `model-f`,
// model-f-manifest.test.ts), and the seventh, test/fixtures/scenes-model-g (MODEL_G_DIR, ids
// `model-g:<file>`): 40 answers to 20 prompts new to all six (8 short, 12 long), half in line
// art, blind, to measure how the rule generalises once model-f is tuned on (scene-bench.ts
// `model-g`, model-g-manifest.test.ts), and the eighth, test/fixtures/scenes-model-h
// (MODEL_H_DIR, ids `model-h:<file>`): 40 answers to 20 prompts new to all seven (8 short, 12
// long), a third in line art and several filled bodies with stroked limbs, blind, to measure how
// the rule generalises once model-g is tuned on (scene-bench.ts `model-h`,
// model-h-manifest.test.ts), and the ninth, test/fixtures/scenes-model-i (MODEL_I_DIR, ids
// `model-i:<file>`): 40 answers to 20 prompts new to all eight (8 short, 12 long), a quarter
// in line art, blind, to measure how the rule generalises once model-h is tuned on
// (scene-bench.ts `model-i`, model-i-manifest.test.ts), and the tenth,
// test/fixtures/scenes-model-j (MODEL_J_DIR, ids `model-j:<file>`): 40 answers to 20 prompts
// new to all nine (8 short, 12 long), a third in line art, many subjects standing in scenery,
// blind, to measure how the rule generalises once model-i is tuned on (scene-bench.ts
// `model-j`, model-j-manifest.test.ts), and the eleventh,
// test/fixtures/scenes-model-k (MODEL_K_DIR, ids `model-k:<file>`), written beside it the same
// way, blind too (scene-bench.ts `model-k`, model-k-manifest.test.ts); then the twelfth and
// thirteenth, test/fixtures/scenes-model-l and -model-m (MODEL_L_DIR, MODEL_M_DIR, ids
// `model-l:<file>`, `model-m:<file>`), written at the same time by two writers given disjoint
// themes (city life, sport, music, transport, architecture, diagrams; nature, animals, food,
// crafts, weather, myth), blind, to measure the rule after model-j and model-k were tuned on.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchScene } from './scene-bench.ts';

export const MODEL_DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/scenes-model');
export const MODEL_B_DIR = join(dirname(MODEL_DIR), 'scenes-model-b');
export const MODEL_C_DIR = join(dirname(MODEL_DIR), 'scenes-model-c');
export const MODEL_D_DIR = join(dirname(MODEL_DIR), 'scenes-model-d');
export const MODEL_E_DIR = join(dirname(MODEL_DIR), 'scenes-model-e');
export const MODEL_F_DIR = join(dirname(MODEL_DIR), 'scenes-model-f');
export const MODEL_G_DIR = join(dirname(MODEL_DIR), 'scenes-model-g');
export const MODEL_H_DIR = join(dirname(MODEL_DIR), 'scenes-model-h');
export const MODEL_I_DIR = join(dirname(MODEL_DIR), 'scenes-model-i');
export const MODEL_J_DIR = join(dirname(MODEL_DIR), 'scenes-model-j');
export const MODEL_K_DIR = join(dirname(MODEL_DIR), 'scenes-model-k');
export const MODEL_L_DIR = join(dirname(MODEL_DIR), 'scenes-model-l');
export const MODEL_M_DIR = join(dirname(MODEL_DIR), 'scenes-model-m');
/** Every model-written set in the order it was written: a new set repeats none before it. */
export const MODEL_SET_DIRS = [
  MODEL_DIR,
  MODEL_B_DIR,
  MODEL_C_DIR,
  MODEL_D_DIR,
  MODEL_E_DIR,
  MODEL_F_DIR,
  MODEL_G_DIR,
  MODEL_H_DIR,
  MODEL_I_DIR,
  MODEL_J_DIR,
  MODEL_K_DIR,
  MODEL_L_DIR,
  MODEL_M_DIR,
];
/** The model-written sets written before `dir`. */
export const setsBefore = (dir: string): string[] =>
  MODEL_SET_DIRS.slice(0, MODEL_SET_DIRS.indexOf(dir));

/** What MANIFEST.json records for one answer. */
export interface ModelSceneEntry {
  /** Id of its prompt in PROMPTS.json (`sNN` short, `lNN` long scene spec). */
  prompt: string;
  background: string;
  truth: 'whole' | 'cut' | 'close-up';
  /** For a cut: whether a drawn subject or text runs off the frame. */
  what?: 'subject' | 'text';
  /** What is in the rendered picture and why it has this label. */
  seen: string;
}

export interface ModelSceneManifest {
  files: Record<string, ModelSceneEntry>;
}

export function modelSceneManifest(dir = MODEL_DIR): ModelSceneManifest {
  return JSON.parse(readFileSync(join(dir, 'MANIFEST.json'), 'utf8')) as ModelSceneManifest;
}

export function modelPrompts(dir = MODEL_DIR): Record<string, string> {
  return JSON.parse(readFileSync(join(dir, 'PROMPTS.json'), 'utf8')) as Record<string, string>;
}

/** Every answer of the set in `dir` with its prompt's text, ids `<set>:<file>`, sorted. */
export function modelScenes(dir = MODEL_DIR, set = 'model'): BenchScene[] {
  const prompts = modelPrompts(dir);
  return Object.entries(modelSceneManifest(dir).files)
    .map(([file, e]) => {
      const prompt = prompts[e.prompt];
      if (prompt === undefined) throw new Error(`${file}: no prompt ${e.prompt}`);
      return {
        id: `${set}:${file}`,
        kind: e.background,
        prompt,
        svg: readFileSync(join(dir, file), 'utf8'),
        cut: e.truth === 'cut',
        ...(e.truth === 'close-up' ? { closeUp: true } : {}),
      };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The second model-written set (test/fixtures/scenes-model-b), ids `model-b:<file>`. */
export function modelBScenes(): BenchScene[] {
  return modelScenes(MODEL_B_DIR, 'model-b');
}

/** The third model-written set (test/fixtures/scenes-model-c), ids `model-c:<file>`. */
export function modelCScenes(): BenchScene[] {
  return modelScenes(MODEL_C_DIR, 'model-c');
}

/** The fourth model-written set (test/fixtures/scenes-model-d), ids `model-d:<file>`. */
export function modelDScenes(): BenchScene[] {
  return modelScenes(MODEL_D_DIR, 'model-d');
}

/** The fifth model-written set (test/fixtures/scenes-model-e), ids `model-e:<file>`. */
export function modelEScenes(): BenchScene[] {
  return modelScenes(MODEL_E_DIR, 'model-e');
}

/** The sixth model-written set (test/fixtures/scenes-model-f), ids `model-f:<file>`. */
export function modelFScenes(): BenchScene[] {
  return modelScenes(MODEL_F_DIR, 'model-f');
}

/** The seventh model-written set (test/fixtures/scenes-model-g), ids `model-g:<file>`. */
export function modelGScenes(): BenchScene[] {
  return modelScenes(MODEL_G_DIR, 'model-g');
}

/** The eighth model-written set (test/fixtures/scenes-model-h), ids `model-h:<file>`. */
export function modelHScenes(): BenchScene[] {
  return modelScenes(MODEL_H_DIR, 'model-h');
}

/** The ninth model-written set (test/fixtures/scenes-model-i), ids `model-i:<file>`. */
export function modelIScenes(): BenchScene[] {
  return modelScenes(MODEL_I_DIR, 'model-i');
}

/** The tenth model-written set (test/fixtures/scenes-model-j), ids `model-j:<file>`. */
export function modelJScenes(): BenchScene[] {
  return modelScenes(MODEL_J_DIR, 'model-j');
}

/** The eleventh model-written set (test/fixtures/scenes-model-k), ids `model-k:<file>`. */
export function modelKScenes(): BenchScene[] {
  return modelScenes(MODEL_K_DIR, 'model-k');
}

/** The twelfth model-written set (test/fixtures/scenes-model-l), ids `model-l:<file>`. */
export function modelLScenes(): BenchScene[] {
  return modelScenes(MODEL_L_DIR, 'model-l');
}

/** The thirteenth model-written set (test/fixtures/scenes-model-m), ids `model-m:<file>`. */
export function modelMScenes(): BenchScene[] {
  return modelScenes(MODEL_M_DIR, 'model-m');
}
