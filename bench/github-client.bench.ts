// `npm run bench:github-client`: what terrakojo's GitHub client costs per call on the event loop it shares with the
// API server and the node agent. 600 check run creates, 4 at a time (the Workflow controller's workers), against
// the GitHub test server in this process, through: the client (OctokitGitHubClient: Octokit, its REST methods and
// request-pacing.ts), Octokit with @octokit/plugin-retry and @octokit/plugin-throttling (what the client used
// before, for the record), and bare fetch, the floor. Rounds alternate; medians of BENCH_ROUNDS (default 5).
// Printed per call: wall time and CPU time of this process (client and server together: the server's share is
// the same in all three).
import { Octokit } from '@octokit/core';
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';
import { githubEndpoints } from '../src/terrakojo/github/endpoints.ts';
import { OctokitGitHubClient } from '../src/terrakojo/github/octokit-client.ts';
import { startGitHubTestServer } from '../test/github-server/index.ts';

const CALLS = Number(process.env['BENCH_CALLS'] ?? 600);
const CONCURRENCY = 4;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const TOKEN = 'ghp_bench_github_client';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const gh = await startGitHubTestServer();
gh.addToken(TOKEN);
gh.createRepository('acme', 'infra', { defaultBranch: 'main' });
const sha = gh.commit('acme', 'infra', { branch: 'main', files: ['infra/app/main.tf'] });
const api = gh.url.replace(/\/+$/, '');

const client = new OctokitGitHubClient({ type: 'token', token: TOKEN }, { endpoints: githubEndpoints({ GITHUB_API_URL: gh.url }), writeIntervalMs: 0 });
const WithPlugins = Octokit.plugin(restEndpointMethods, retry, throttling);
const withPlugins = new WithPlugins({
  baseUrl: api,
  auth: TOKEN,
  retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
  throttle: { id: 'bench', onRateLimit: () => true, onSecondaryRateLimit: () => true, write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }) },
});
const headers = { authorization: `token ${TOKEN}`, accept: 'application/vnd.github+json', 'content-type': 'application/json', 'user-agent': 'bench' };

type Way = { name: string; create: (name: string) => Promise<unknown> };
const ways: Way[] = [
  { name: 'the client (request-pacing.ts)', create: (name) => client.createCheckRun('acme', 'infra', { name, headSha: sha, externalId: name }) },
  { name: 'Octokit + plugin-retry + plugin-throttling', create: (name) => withPlugins.rest.checks.create({ owner: 'acme', repo: 'infra', name, head_sha: sha, external_id: name, status: 'queued' }) },
  {
    name: 'bare fetch (floor)',
    create: async (name) => {
      const res = await fetch(`${api}/repos/acme/infra/check-runs`, { method: 'POST', headers, body: JSON.stringify({ name, head_sha: sha, external_id: name, status: 'queued' }) });
      if (res.status !== 201) throw new Error(`POST check-runs answered ${res.status}`);
      await res.arrayBuffer();
    },
  },
];

async function round(way: Way, r: number): Promise<{ wallMs: number; cpuMs: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) await way.create(`bench-${r}-${next++}`);
    }),
  );
  const used = process.cpuUsage(cpu);
  return { wallMs: (performance.now() - started) / CALLS, cpuMs: (used.user + used.system) / 1000 / CALLS };
}

console.log(`GitHub client benchmark (node ${process.version}): ${CALLS} check run creates, ${CONCURRENCY} at a time, ${ROUNDS} rounds after a warm-up`);
for (const way of ways) await round(way, -1);
const results = new Map<Way, { wallMs: number; cpuMs: number }[]>(ways.map((w) => [w, []]));
for (let r = 0; r < ROUNDS; r++) for (const way of ways) results.get(way)!.push(await round(way, r));
await gh.close();

const floor = results.get(ways[2]!)!;
const floorCpu = median(floor.map((x) => x.cpuMs));
for (const way of ways) {
  const xs = results.get(way)!;
  const cpu = median(xs.map((x) => x.cpuMs));
  console.log(`  ${way.name.padEnd(44)} ${median(xs.map((x) => x.wallMs)).toFixed(2)} ms a call, ${cpu.toFixed(2)} ms CPU a call (${(cpu / floorCpu).toFixed(2)}× the floor)`);
}
