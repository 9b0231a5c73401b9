// Headless Chromium (Debian's `chromium`, installed by .ci/run) driven by puppeteer-core, for tests of web pages.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env['CHROMIUM'] ?? '/usr/bin/chromium',
    headless: true,
    userDataDir: mkdtempSync(join(tmpdir(), 'bosun-chromium-')),
    // Root in CI: Chromium's own sandbox needs an unprivileged user, the test machine is the sandbox here.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}
