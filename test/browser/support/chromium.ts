import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/**
 * Flags for a headless Chromium in a container without network: no sandbox of its own (root),
 * and none of the background connections it would otherwise try and wait on.
 */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The Chromium to drive: `CHROMIUM_PATH`, or `chromium` on PATH (the Debian package, which
 * `pretest` and .ci/run install). playwright-core never downloads one, so without it the test
 * fails saying what to install rather than skipping.
 */
export function chromiumExecutable(): string {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, 'chromium'));
  const found = candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!found) {
    throw new Error(
      'The browser test needs Chromium: install the Debian package (apt-get install -y chromium; ' +
        '`npm test` does it as root through scripts/ensure-chromium.mjs) or set CHROMIUM_PATH.',
    );
  }
  return found;
}

/** A headless Chromium, closed by the caller. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutable(), headless: true, args: ARGS });
}
