// Headless Chromium (Debian's `chromium`, installed by .ci/run) driven by puppeteer-core, for tests of web pages.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env['CHROMIUM'] ?? '/usr/bin/chromium',
    headless: true,
    userDataDir: mkdtempSync(join(tmpdir(), 'bosun-chromium-')),
    // Root in CI: Chromium's own sandbox needs an unprivileged user, the test machine is the sandbox here.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/**
 * Saves a screenshot of the page as NAME.png in $BOSUN_SCREENSHOTS (docs/images when the docs' pictures are
 * renewed: `BOSUN_SCREENSHOTS=docs/images node scripts/run-tests.mjs test/dashboard`); nothing otherwise.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env['BOSUN_SCREENSHOTS'];
  if (!dir) return;
  await page.setViewport({ width: 1280, height: 720 });
  await page.screenshot({ path: join(dir, `${name}.png`) as `${string}.png` });
}
