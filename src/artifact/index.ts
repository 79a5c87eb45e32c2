// Public surface of the artifact room: completion text → SVG code, reasoning, DwT, tokens.
export { dwtReport, findDwtStages, type StageHit } from './dwt.ts';
export { type ArtifactLocation, extractArtifact, locateArtifact } from './extract.ts';
export {
  countTokens,
  countTokensDetailed,
  EXACT_TOKEN_CHARS,
  type TokenCount,
  warmTokenizer,
} from './tokens.ts';
export * from './types.ts';
