// `bosun dashboard [--kubeconfig FILE] [--context C] [--port P]`: the web dashboard against any cluster, reading
// with that kubeconfig's identity. It prints a one-time login URL; the login page takes the kubeconfig's token.
import { Command } from 'commander';
import { createKubeClient, loadKubeConfig } from '../../client/create-client.ts';
import { startDashboard } from '../../dashboard/server.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import { dashboardViews } from '../dashboard-views.ts';
import { explainListen } from '../listen-errors.ts';
import { exitOnSignals } from '../shutdown.ts';

export const DEFAULT_DASHBOARD_PORT = 8090;

interface DashboardOptions {
  kubeconfig?: string;
  context?: string;
  port: number;
}

const port = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`not a port: ${value}`);
  return n;
};

export function dashboardCommand(): Command {
  return new Command('dashboard')
    .description('serve the web dashboard on loopback against the cluster of a kubeconfig')
    .option('--kubeconfig <file>', 'kubeconfig (default: $KUBECONFIG, ~/.kube/config, in-cluster)')
    .option('--context <name>', 'kubeconfig context')
    .option('--port <port>', 'loopback port (0 picks one)', port, DEFAULT_DASHBOARD_PORT)
    .action(async (options: DashboardOptions) => {
      const source = { ...(options.kubeconfig ? { kubeconfigPath: options.kubeconfig } : {}), ...(options.context ? { context: options.context } : {}) };
      try {
        const token = loadKubeConfig(source).getCurrentUser()?.token;
        const dashboard = await startDashboard({ client: createKubeClient({ ...source, userAgent: 'bosun-dashboard' }), views: dashboardViews(), apiToken: token, port: options.port });
        console.log(`dashboard: ${dashboard.loginUrl()}`);
        exitOnSignals('bosun dashboard', 'stopping', () => dashboard.close());
      } catch (error) {
        console.error(`bosun dashboard: ${(error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? explainListen(error, '127.0.0.1', options.port, '--port, or 0 for any free port') : messageOf(error)}`);
        process.exit(1);
      }
    });
}
