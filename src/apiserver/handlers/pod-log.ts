// GET pods/<name>/log: kube-apiserver's LogREST. The container is chosen (and checked) here, the log itself
// streams from the node's kubelet API, flushed as it comes; a kubelet refusal becomes a Status with its text.
import { request } from 'node:https';
import { StatusError } from '../../apimachinery/status-error.ts';
import { kubeletFailure, kubeletTarget } from './kubelet-proxy.ts';
import type { ResourceCall } from './resource-call.ts';

/** PodLogOptions the kubelet reads; container is in the path, insecureSkipTLSVerifyBackend is not honoured: the kubelet's certificate is always verified. */
const FORWARDED = ['follow', 'previous', 'tailLines', 'sinceSeconds', 'sinceTime', 'timestamps', 'limitBytes'];
const MAX_ERROR_BODY = 64 * 1024;

export async function handleLog(call: ResourceCall): Promise<void> {
  const { ctx, res, namespace, name, query } = call;
  const target = kubeletTarget(ctx, namespace, name, query.get('container'));
  if (target.unscheduled) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '0' });
    res.end();
    return;
  }
  const forwarded = new URLSearchParams();
  for (const key of FORWARDED) for (const value of query.getAll(key)) forwarded.append(key, value);
  const search = forwarded.size > 0 ? `?${forwarded.toString()}` : '';
  await new Promise<void>((resolve, reject) => {
    const upstream = request({ host: target.host, port: target.port, path: `${target.path('containerLogs')}${search}`, ...target.tls });
    // The client went away (kubectl logs -f interrupted): stop reading the kubelet.
    res.once('close', () => upstream.destroy());
    upstream.once('error', (error) => {
      if (res.headersSent) res.destroy();
      else reject(new StatusError(503, 'ServiceUnavailable', `error trying to reach the kubelet of pod ${name}: ${error.message}`));
      resolve();
    });
    upstream.once('response', (answer) => {
      if (answer.statusCode !== 200) {
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (body = (body + chunk).slice(0, MAX_ERROR_BODY)));
        answer.once('end', () => reject(kubeletFailure(answer.statusCode ?? 500, body)));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
      answer.pipe(res);
      answer.once('end', resolve);
      answer.once('error', () => resolve());
    });
    upstream.end();
  });
}
