// The deploy item DAG example (examples/landscaper/deployitem-dag) applied with real kubectl to `bosun up`, watched
// in headless Chromium: the page draws the diamond with its four arrows, and the items turn green in
// dependency order without a reload.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'puppeteer-core';
import { bin, exited, freePort, startReadyWithOutput } from '../helpers/bosun-process.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

describe('the Landscaper view of the web dashboard on bosun up', () => {
  let up: ChildProcess;
  let output: string;
  let dataDir: string;
  let browser: Browser;
  let page: Page;
  let base: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bosun-dashboard-dag-'));
    const flags = ['up', '--data-dir', dataDir, '--port', String(await freePort()), '--metrics-port', '0', '--dashboard-port', '0', '--no-node', '--no-webhook-server', '--controllers', 'landscaper'];
    ({ child: up, output } = await startReadyWithOutput([bin, ...flags], 'bosun is ready'));
    browser = await launchBrowser();
    const login = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/)login\/\S+$/m.exec(output);
    assert.ok(login, `bosun up printed a dashboard login link: ${output}`);
    base = login[1]!;
    page = await browser.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(login[0].slice('dashboard: '.length));
  });
  after(async () => {
    await browser?.close();
    up?.kill('SIGTERM');
    if (up) await exited(up);
  });

  test('the deployitem-dag example: four items, four arrows, green in dependency order', { timeout: 120_000 }, async () => {
    await page.goto(`${base}#landscaper/default`);
    await page.waitForSelector('nav a.current[data-view="landscaper"]');
    await page.waitForSelector('#connection::-p-text(live)');
    // Every time the page is drawn, the items that are green, in the order they turned green.
    await page.evaluate(`
      window.greenOrder = [];
      new MutationObserver(() => {
        for (const item of document.querySelectorAll('.dag-item[data-state="succeeded"]')) {
          const name = item.querySelector('.name').textContent.replace(/^dag-|-[a-z0-9]{5}$/g, '');
          if (!window.greenOrder.includes(name)) window.greenOrder.push(name);
        }
      }).observe(document.getElementById('tree'), { childList: true, subtree: true });
    `);
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    const applied = await kubectl(['apply', '-f', 'examples/landscaper/deployitem-dag']);
    assert.equal(applied.code, 0, applied.stderr);

    await page.waitForFunction(`document.querySelectorAll('.dag-item[data-state="succeeded"]').length === 4`, { timeout: 90_000 });
    const order = (await page.evaluate('window.greenOrder')) as string[];
    assert.equal(order[0], 'database', `database first: ${order.join(', ')}`);
    assert.equal(order[3], 'frontend', `frontend last: ${order.join(', ')}`);
    assert.deepEqual([...order.slice(1, 3)].sort(), ['api', 'worker']);
    // The diamond: database → api, database → worker, api → frontend, worker → frontend.
    await page.waitForFunction(`(document.querySelector('.dag svg.edges path')?.getAttribute('d') ?? '').split('M').length - 1 === 4`);
    const columns = (await page.$$eval('.dag .layer', (layers) => layers.map((layer) => layer.querySelectorAll('.dag-item').length))) as number[];
    assert.deepEqual(columns, [1, 2, 1]);
    await screenshot(page, 'dashboard-landscaper-dag');
  });

  test('the interrupt button ends a stuck job; delete without uninstall removes the installation', { timeout: 120_000 }, async () => {
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    const applied = await kubectl(['apply', '-f', 'examples/landscaper/interrupt-and-delete-without-uninstall']);
    assert.equal(applied.code, 0, applied.stderr);
    const stuck = '[data-id="Installation/default/stuck"]';
    // A running job: progressing, or waiting once its wait for the deploy item is written (the phases one
    // reconcile passes through are written together, so 'progressing' may never show on its own).
    await page.waitForSelector(`${stuck}:is([data-state="progressing"], [data-state="waiting"])`, { timeout: 60_000 });
    // The page redraws on every change: the button is found and pressed in one step.
    const press = (action: string) => page.evaluate(`document.querySelector(${JSON.stringify(`${stuck} > .line button[data-action="${action}"]`)}).click()`);
    await press('interrupt');
    await page.waitForSelector(`${stuck}[data-state="failed"]`, { timeout: 60_000 });
    const failedItem = `${stuck} li[data-state="failed"][data-id^="DeployItem/"]`;
    await page.waitForSelector(failedItem);
    assert.match(await page.evaluate(`document.querySelector(${JSON.stringify(failedItem)}).textContent`) as string, /operation was interrupted/);
    await screenshot(page, 'dashboard-landscaper-interrupted');

    // The page names a node and an action; nothing else is accepted.
    const cookie = (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${base}api/views/landscaper/actions`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    assert.equal((await post({}, { namespace: 'default', node: 'Installation/default/stuck', action: 'interrupt' })).status, 403, 'without the page header');
    assert.equal((await post({ 'x-bosun-dashboard': 'action' }, { namespace: 'default', node: 'Secret/default/x', action: 'interrupt' })).status, 404, 'a node the view does not show');
    assert.equal((await post({ 'x-bosun-dashboard': 'action' }, { namespace: 'default', node: 'Installation/default/stuck', action: 'patch-anything' })).status, 404, 'an action the node does not offer');

    await press('delete-without-uninstall');
    await page.waitForSelector(stuck, { hidden: true, timeout: 60_000 });
    const left = await kubectl(['get', 'inst,exec,di', '-o', 'name']);
    assert.equal(left.stdout.split('\n').filter((l) => l.includes('stuck')).length, 0, left.stdout);
  });

  test('a template error and a dependsOn cycle show as red nodes with their messages', { timeout: 120_000 }, async () => {
    const installation = (name: string, template: string) => `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata:
  name: ${name}
  namespace: default
  annotations:
    landscaper.gardener.cloud/operation: reconcile
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
          deployExecutions:
            - name: default
              type: GoTemplate
              template: |
${template.split('\n').map((line) => `                ${line}`).join('\n')}
`;
    const mock = (name: string, dependsOn: string) =>
      `  - name: ${name}\n    type: landscaper.gardener.cloud/mock\n    dependsOn: [${dependsOn}]\n    config:\n      apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1\n      kind: ProviderConfiguration`;
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    const applied = await kubectl(['apply', '-f', '-'], [installation('broken-template', 'deployItems: {{ .imports.nothing.here }}'), installation('cycle', `deployItems:\n${mock('a', 'b')}\n${mock('b', 'a')}`)].join('---\n'));
    assert.equal(applied.code, 0, applied.stderr);
    const red = async (id: string, message: RegExp) => {
      const selector = `li[data-id="${id}"][data-state="failed"]`;
      await page.waitForSelector(selector, { timeout: 60_000 });
      const notes = (await page.evaluate(`[...document.querySelectorAll(${JSON.stringify(`${selector} > .note.tone-error`)})].map((n) => n.textContent).join(' | ')`)) as string;
      assert.match(notes, message, `${id} says why it failed`);
    };
    await red('Installation/default/broken-template', /template|nil|map has no entry|executing/i);
    await red('Installation/default/cycle', /form a cycle: (a -> b -> a|b -> a -> b)/);
    await screenshot(page, 'dashboard-landscaper-failures');
  });
});
