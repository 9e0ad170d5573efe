// Debian's Chromium, headless, for the browser tests of the web app (playwright-core drives it).
import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';

export const chromiumPath = process.env.CODIFY_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(profile: string): Promise<BrowserContext> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing: apt-get install chromium`);
  }
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
}
