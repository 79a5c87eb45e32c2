// Where rubrica looks for Chromium when RUBRICA_CHROMIUM is not set. Its own file so that
// `rubrica doctor` (which serve runs in the background after "ready") can name it without
// importing launch.ts and with it all of playwright-core: evaluating that bundle held serve's
// event loop for ~3 s on a loaded machine, exactly when the first batch arrived (issue 38).
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
