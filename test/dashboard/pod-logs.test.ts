// A pod's log followed in the dashboard: `bosun up` with its node agent runs a pod that keeps writing; the page's
// Logs button shows lines written after it was opened, without a reload.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { bin, exited, freePort, startReadyWithOutput } from '../helpers/bosun-process.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

describe('pod logs in the web dashboard', () => {
  let up: ChildProcess;
  let output: string;
  let dataDir: string;
  let browser: Browser;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bosun-dashboard-logs-'));
    const flags = ['up', '--data-dir', dataDir, '--port', String(await freePort()), '--metrics-port', '0', '--dashboard-port', '0', '--no-webhook-server', '--controllers', 'workloads', '--container-runtime', 'host'];
    ({ child: up, output } = await startReadyWithOutput([bin, ...flags], 'bosun is ready'));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    up?.kill('SIGTERM');
    if (up) await exited(up);
  });

  test('the Logs button follows a running pod', { timeout: 120_000 }, async () => {
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'counter' }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'i=0; while true; do echo "line $i"; i=$((i+1)); sleep 0.2; done'] }] } };
    const created = await kubectl(['apply', '-f', '-'], JSON.stringify(pod));
    assert.equal(created.code, 0, created.stderr);
    const login = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/)login\/\S+$/m.exec(output);
    assert.ok(login, output);
    const page = await browser.newPage();
    await page.goto(login[0].slice('dashboard: '.length));
    await page.goto(`${login[1]}#workloads/default`);
    const node = '[data-id="Pod/default/counter"]';
    await page.waitForSelector(`${node}[data-state="progressing"]`, { timeout: 60_000 });
    await page.evaluate(`document.querySelector(${JSON.stringify(`${node} button[data-action="logs"]`)}).click()`);
    await page.waitForFunction(`/line \\d+/.test(document.querySelector('#panel pre')?.textContent ?? '')`);
    const first = Number(/line (\d+)\s*$/.exec((await page.$eval('#panel pre', (el) => el.textContent)) ?? '')?.[1]);
    // Followed: a line the container writes after the panel opened shows up.
    await page.waitForFunction(`document.querySelector('#panel pre').textContent.includes('line ${first + 3}\\n')`);
    await screenshot(page, 'dashboard-workloads-logs');
  });

  test('the Nodes view shows the node with its pods; a name opens its Events', { timeout: 120_000 }, async () => {
    const login = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/)login\/\S+$/m.exec(output);
    assert.ok(login, output);
    const page = await browser.newPage();
    await page.goto(login[0].slice('dashboard: '.length));
    await page.goto(`${login[1]}#nodes/default`);
    await page.waitForSelector('li[data-id^="Node//"][data-state="succeeded"] li[data-id="Pod/default/counter"]', { timeout: 60_000 });
    await page.evaluate(`document.querySelector('li[data-id="Pod/default/counter"] button.name').click()`);
    // What kubectl describe pod lists: the scheduler's and the node agent's Events about the pod.
    await page.waitForFunction(`/Scheduled/.test(document.querySelector('#panel pre')?.textContent ?? '') && /Started/.test(document.querySelector('#panel pre').textContent)`);
    await screenshot(page, 'dashboard-nodes-events');
  });
});
