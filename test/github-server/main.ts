// The GitHub test server as a process, for examples and manual runs:
//   npm run github-test-server -- --port 3001 --token ghp_example --repo acme/infra \
//     --webhook-url http://127.0.0.1:8080/webhook --webhook-secret S
// Prints one ready line with its API URL, then serves until SIGINT or SIGTERM. Drive it with /_meta (see meta.ts).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startGitHubTestServer } from './index.ts';

const USAGE = `usage: github-test-server [--port N] [--host H] [--token T]... [--repo OWNER/NAME]... [--default-branch B]
                          [--webhook-url URL --webhook-secret S] [--app-key-file PATH]`;

class UsageError extends Error {
  override readonly name = 'UsageError' as const;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '3001' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string', multiple: true, default: [] },
      repo: { type: 'string', multiple: true, default: [] },
      'default-branch': { type: 'string', default: 'main' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'app-key-file': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, got ${values.port}`);
  const repos = values.repo.map((full) => {
    const [owner, name, ...rest] = full.split('/');
    if (owner === undefined || owner === '' || name === undefined || name === '' || rest.length > 0) throw new UsageError(`--repo must be OWNER/NAME, got ${full}`);
    return { owner, name };
  });
  const webhookUrl = values['webhook-url'];
  const webhookSecret = values['webhook-secret'];
  if ((webhookUrl === undefined) !== (webhookSecret === undefined)) throw new UsageError('--webhook-url and --webhook-secret go together');

  const gh = await startGitHubTestServer({ port, host: values.host });
  for (const token of values.token) gh.addToken(token);
  for (const { owner, name } of repos) {
    gh.createRepository(owner, name, { defaultBranch: values['default-branch'] });
    if (webhookUrl !== undefined && webhookSecret !== undefined) gh.addWebhook(owner, name, { url: webhookUrl, secret: webhookSecret });
  }
  let app = '';
  if (values['app-key-file'] !== undefined) {
    const { appId, installationId, privateKeyPem } = gh.createApp();
    writeFileSync(values['app-key-file'], privateKeyPem, { mode: 0o600 });
    app = ` app ${appId} installation ${installationId} key ${values['app-key-file']}`;
  }
  console.log(`GitHub test server ready: API ${gh.apiUrl} (also at ${gh.url}/), admin ${gh.url}/_meta${app}`);

  const stop = () => {
    gh.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`github-test-server: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) console.error(USAGE);
  process.exit(2);
});
