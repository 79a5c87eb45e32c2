// The papers' picture: 512×512 on white. Kept apart from the renderer so that commands can
// read the defaults without loading sharp in the main process (start-up time).
/** The square picture's side in px when a render does not say (512, the papers' setting). */
export const DEFAULT_SIZE = 512;
/** The colour painted under a drawing when a render does not say (white, the papers' setting). */
export const DEFAULT_BACKGROUND = 'white';
/**
 * `auto`: librsvg, Chromium only for the few features librsvg draws differently (auto.ts).
 * The fastest choice that meets issue 11's fidelity goal (docs/rendering.md); librsvg alone
 * does not (textPath, feTile, lighting, …).
 */
export const DEFAULT_RENDERER = 'auto' as const;
