// The web dashboard in headless Chromium against a real API server: its sign-in (a one-time link, the API
// token), and a view that follows the cluster live, without a reload.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { podsResource } from '../../src/apimachinery/builtin-resources.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { startDashboard, type RunningDashboard } from '../../src/dashboard/server.ts';
import { landscaperDashboardView } from '../../src/landscaper/tree/dashboard-view.ts';
import { workloadsDashboardView } from '../../src/workloads/dashboard-view.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { bin, exited, startReadyWithOutput } from '../helpers/bosun-process.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';

describe('the web dashboard in headless Chromium', () => {
  let server: TestServer;
  let client: KubeClient;
  let dashboard: RunningDashboard;
  let browser: Browser;

  before(async () => {
    server = await startTestServer();
    client = createKubeClient({ kubeconfig: server.kubeconfig });
    dashboard = await startDashboard({ client, views: [workloadsDashboardView, landscaperDashboardView], apiToken: server.token, port: 0 });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await dashboard?.close();
    await server?.close();
  });

  test('nothing is served without a session: the page sends to the login, the data answers 401', async () => {
    const page = await fetch(dashboard.url, { redirect: 'manual' });
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), '/login');
    for (const path of ['app.js', 'api/views', 'api/views/workloads/events']) assert.equal((await fetch(`${dashboard.url}${path}`)).status, 401, path);
  });

  test('a one-time login link signs in once, then is refused; a wrong token is refused', async () => {
    const login = dashboard.loginUrl();
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(login);
    assert.equal(page.url(), dashboard.url, 'redirected to a URL without the secret');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'bosun-dashboard');
    assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
    assert.equal(session?.sameSite, 'Strict');
    await context.close();

    const again = await fetch(login, { redirect: 'manual' });
    assert.equal(again.status, 403, 'the link works once');
    const wrong = await fetch(`${dashboard.url}login`, { method: 'POST', body: new URLSearchParams({ token: 'not-the-token' }), redirect: 'manual' });
    assert.equal(wrong.status, 401);
    const right = await fetch(`${dashboard.url}login`, { method: 'POST', body: new URLSearchParams({ token: server.token }), redirect: 'manual' });
    assert.equal(right.status, 303);
    assert.match(right.headers.get('set-cookie') ?? '', /^bosun-dashboard=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
  });

  test('the workloads view shows a new pod and its phase changes without a reload', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(dashboard.loginUrl());
    await page.waitForSelector('#connection::-p-text(live)');
    const reloads: string[] = [];
    page.on('framenavigated', (frame) => reloads.push(frame.url()));

    await client.create(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    const pod = '[data-id="Pod/default/web-1"]';
    await page.waitForSelector(`${pod}[data-state="waiting"]`);
    const current = await client.get(podsResource, 'web-1', { namespace: 'default' });
    await client.updateStatus(podsResource, { ...current, status: { phase: 'Running', startTime: new Date(Date.now() - 5000).toISOString() } });
    await page.waitForSelector(`${pod}[data-state="progressing"]`);
    assert.equal(await page.$eval(`${pod} .badge`, (el) => el.textContent), 'Running');
    // The duration ticks on the page's clock: it changes while nothing in the cluster does.
    const first = await page.$eval(`${pod} .clock`, (el) => el.textContent);
    await page.waitForFunction(`document.querySelector(${JSON.stringify(`${pod} .clock`)})?.textContent !== ${JSON.stringify(first)}`);
    assert.deepEqual(reloads, [], 'no navigation happened');
    await screenshot(page, 'dashboard-workloads');
    await context.close();
  });

  test('bosun dashboard --kubeconfig serves the same against any cluster, with its own one-time link', async () => {
    const { child, output } = await startReadyWithOutput([bin, 'dashboard', '--kubeconfig', server.kubeconfigFile, '--port', '0'], 'dashboard: ');
    try {
      const login = /dashboard: (http:\/\/127\.0\.0\.1:\d+\/)login\/\S+/.exec(output);
      assert.ok(login, output);
      const first = await fetch(login[0].slice('dashboard: '.length), { redirect: 'manual' });
      assert.equal(first.status, 303);
      const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
      const views = (await (await fetch(`${login[1]}api/views`, { headers: { cookie } })).json()) as { name: string }[];
      assert.deepEqual(views.map((v) => v.name).sort(), ['chaos', 'landscaper', 'nodes', 'terrakojo', 'workloads']);
      // The login page takes the kubeconfig user's token.
      const byToken = await fetch(`${login[1]}login`, { method: 'POST', body: new URLSearchParams({ token: server.token }), redirect: 'manual' });
      assert.equal(byToken.status, 303);
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  });
});
