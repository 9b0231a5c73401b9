// Reads and decodes request bodies: a hard size limit, JSON or YAML, and clear 4xx answers for bad input.
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { maxRequestBodyBytes, requestEntityTooLarge } from '../limits/request-limits.ts';
import { decodeKubernetesProtobuf, ProtobufDecodeError, protobufKind, protobufMediaType, ProtobufUnknownKindError } from '../protobuf/decode.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import { checkJsonTextDepth, checkValueDepth, checkYamlTextDepth } from './nesting-depth.ts';

export function readBody(req: IncomingMessage, limit = maxRequestBodyBytes): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      req.resume();
      reject(requestEntityTooLarge(`limit is ${limit}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(requestEntityTooLarge(`limit is ${limit}`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (!failed) reject(error);
    });
  });
}

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
}

/**
 * Decodes a JSON or YAML body. A YAML stream with several documents is refused, as a real server does.
 * With `resource` given, Kubernetes protobuf is accepted too for the built-in kinds that have one
 * (kubectl create configmap/secret/namespace/job… send it); custom resources never accept it.
 */
export function decodeBody(raw: Buffer, type: string, resource?: ResourceType): unknown {
  const protobuf = resource !== undefined && !resource.custom && protobufKind(apiVersionOf(resource), resource.kind);
  if (type === protobufMediaType && protobuf) {
    const decoded = decodeProtobufBody(raw, resource);
    checkValueDepth(decoded, 'protobuf');
    return decoded;
  }
  const text = raw.toString('utf8');
  if (text.trim() === '') throw errors.badRequest('the request body is empty');
  if (type === 'application/json' || type.endsWith('+json')) {
    checkJsonTextDepth(text);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw errors.badRequest(`the body of the request could not be decoded as JSON: ${(error as Error).message}`);
    }
  }
  if (type === 'application/yaml' || type.endsWith('+yaml')) {
    checkYamlTextDepth(text);
    let decoded: unknown;
    try {
      decoded = parseYaml(text, { maxAliasCount: 100 }) as unknown;
    } catch (error) {
      throw errors.badRequest(`the body of the request could not be decoded as YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
    // Aliases can nest deeper than the text shows.
    checkValueDepth(decoded, 'YAML');
    return decoded;
  }
  const accepted = protobuf ? `application/json, application/yaml, ${protobufMediaType}` : 'application/json, application/yaml';
  throw errors.unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: ${accepted}`);
}

function decodeProtobufBody(raw: Buffer, resource: ResourceType): unknown {
  if (raw.length === 0) throw errors.badRequest('the request body is empty');
  try {
    return decodeKubernetesProtobuf(raw, { apiVersion: apiVersionOf(resource), kind: resource.kind });
  } catch (error) {
    if (error instanceof ProtobufUnknownKindError) throw errors.badRequest(error.message);
    if (error instanceof ProtobufDecodeError) throw errors.badRequest(`the body of the request could not be decoded as protobuf: ${error.message}`);
    throw error;
  }
}
