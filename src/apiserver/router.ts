// Routes one request: health probes, auth, discovery, OpenAPI, then resource verbs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, StatusError } from '../apimachinery/status-error.ts';
import type { WarningCarrier } from './admission/webhook-dispatcher.ts';
import { admitRequest, type RequestAuth } from './auth/request-auth.ts';
import type { UserInfo } from './auth/user-info.ts';
import { acceptedAggregatedVersion, aggregatedContentType, aggregatedDiscovery } from './discovery/aggregated-discovery.ts';
import { apiGroupDocument, apiGroupList, apiVersions, resourceList } from './discovery/legacy-discovery.ts';
import { openApiV2Document, openApiV2Protobuf, openApiV3Document, openApiV3Root } from './discovery/openapi.ts';
import { acceptsOpenApiV2Protobuf, openApiV2ProtobufContentType } from './discovery/openapi-v2-protobuf.ts';
import { serverVersion } from './discovery/version.ts';
import { metricsAggregatedGroup, metricsApiAnswer, metricsApiGroup } from './metrics/metrics-api.ts';
import type { HandlerContext } from './handlers/context.ts';
import { handleResource } from './handlers/resource-handler.ts';
import { parseRequestPath, requestUrl } from './http/request-info.ts';
import { sendJson, sendStatusError, sendText } from './http/respond.ts';
import { messageOf } from '../apimachinery/error-message.ts';

export interface RouterOptions {
  auth: RequestAuth;
  /** Called for every request as it arrives, in arrival order; `status` is filled in when the answer starts. */
  onRequest?: (entry: RequestLogEntry) => void;
  onError?: (error: unknown) => void;
}

export interface RequestLogEntry {
  method: string;
  url: string;
  status: number;
  userAgent: string | undefined;
  accept: string | undefined;
  contentType: string | undefined;
}

const probes = new Set(['/healthz', '/livez', '/readyz']);

export function createRouter(ctx: HandlerContext, options: RouterOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (options.onRequest) {
      const entry: RequestLogEntry = {
        method: req.method ?? '',
        url: req.url ?? '',
        status: 0,
        userAgent: req.headers['user-agent'],
        accept: req.headers['accept'],
        contentType: req.headers['content-type'],
      };
      options.onRequest(entry);
      // Known as soon as the head goes out: a client may act on the answer before 'finish' fires here.
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      res.writeHead = ((...args: unknown[]) => {
        entry.status = args[0] as number;
        return writeHead(...args);
      }) as typeof res.writeHead;
    }
    route(ctx, options, req, res).catch((error: unknown) => {
      if (error instanceof StatusError) {
        sendStatusError(res, error, (error as StatusError & WarningCarrier).admissionWarnings);
        return;
      }
      options.onError?.(error);
      sendStatusError(res, errors.internal(messageOf(error)));
    });
  };
}

async function route(ctx: HandlerContext, options: RouterOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = requestUrl(req.url);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (probes.has(path) || path.startsWith('/healthz/') || path.startsWith('/livez/') || path.startsWith('/readyz/')) {
    sendText(res, 200, 'ok');
    return;
  }
  const method = req.method ?? 'GET';
  const info = parseRequestPath(method, path, url.searchParams);
  const user = await admitRequest(options.auth, req, info, path);
  await serve(ctx, req, res, user, url, path, info);
}

async function serve(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse, user: UserInfo, url: URL, path: string, info: ReturnType<typeof parseRequestPath>): Promise<void> {
  const method = req.method ?? 'GET';
  const accept = req.headers['accept'];
  const metrics = await metricsApiAnswer(ctx, method, path, url.searchParams);
  if (metrics !== undefined) return sendJson(res, 200, metrics);
  if (method === 'GET') {
    if (path === '/version') return sendJson(res, 200, serverVersion);
    if (path === '/api' || path === '/apis') {
      const aggregated = acceptedAggregatedVersion(accept);
      if (aggregated) return sendJson(res, 200, withMetricsGroup(aggregatedDiscovery(ctx.registry, path === '/api', aggregated), path === '/apis', metricsAggregatedGroup), [], aggregatedContentType(aggregated));
      return sendJson(res, 200, path === '/api' ? apiVersions(req.headers.host ?? '') : withMetricsGroup(apiGroupList(ctx.registry), true, metricsApiGroup));
    }
    if (path === '/openapi/v2') {
      if (!acceptsOpenApiV2Protobuf(accept)) return sendJson(res, 200, openApiV2Document(ctx.registry));
      const body = openApiV2Protobuf(ctx.registry);
      res.writeHead(200, { 'Content-Type': openApiV2ProtobufContentType, 'Content-Length': String(body.length) });
      res.end(body);
      return;
    }
    if (path === '/openapi/v3') return sendJson(res, 200, openApiV3Root(ctx.registry));
    const v3 = /^\/openapi\/v3\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
    if (v3) {
      const doc = v3[1] ? openApiV3Document(ctx.registry, '', v3[1]) : openApiV3Document(ctx.registry, v3[2]!, v3[3]!);
      if (!doc) throw errors.pathNotFound();
      return sendJson(res, 200, doc);
    }
    const gv = /^\/(?:api\/(v1)|apis\/([^/]+)(?:\/([^/]+))?)$/.exec(path);
    if (gv) {
      const doc = gv[1] ? resourceList(ctx.registry, '', gv[1]) : gv[3] ? resourceList(ctx.registry, gv[2]!, gv[3]) : apiGroupDocument(ctx.registry, gv[2]!);
      if (!doc) throw errors.pathNotFound();
      return sendJson(res, 200, doc);
    }
  }
  if (!info || info.kind === 'nonresource') throw errors.pathNotFound();
  await handleResource(ctx, req, res, user, info, url.searchParams);
}

/** metrics.k8s.io is served built in (metrics-server's group, which kube-apiserver lists as an APIService). */
function withMetricsGroup(list: unknown, apis: boolean, group: unknown): unknown {
  if (!apis) return list;
  const doc = list as { groups?: unknown[]; items?: unknown[] };
  return doc.groups ? { ...doc, groups: [...doc.groups, group] } : { ...doc, items: [...(doc.items ?? []), group] };
}
