// For the walk-through tests: the dashboard, served in-process against the walk-through's cluster, shows its
// objects in headless Chromium (each selector appears on the view's page), and a screenshot is taken when asked.
import { createKubeClient } from '../../src/client/create-client.ts';
import { dashboardViews } from '../../src/cli/dashboard-views.ts';
import { startDashboard } from '../../src/dashboard/server.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';

export async function expectInDashboard(kubeconfigPath: string, view: string, namespace: string, selectors: string[], picture: string): Promise<void> {
  const client = createKubeClient({ kubeconfigPath, userAgent: 'bosun-dashboard-test' });
  const dashboard = await startDashboard({ client, views: dashboardViews(), apiToken: undefined, port: 0 });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(dashboard.loginUrl());
    await page.goto(`${dashboard.url}#${view}/${namespace}`);
    for (const selector of selectors) await page.waitForSelector(selector, { timeout: 30_000 });
    await screenshot(page, picture);
  } finally {
    await browser.close();
    await dashboard.close();
    await client.close();
  }
}
