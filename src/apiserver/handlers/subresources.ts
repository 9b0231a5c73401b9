// Subresources with their own semantics: pods/binding, pods/eviction and serviceaccounts/token (POST), pods/log, exec, attach and portforward (proxied to
// the node's kubelet), and */scale (GET, PUT, PATCH).
import { errors } from '../../apimachinery/status-error.ts';
import type { Verb } from '../http/request-info.ts';
import type { SubresourceInfo } from '../registry/resource-type.ts';
import { handleBinding } from './pod-binding.ts';
import { handleEviction } from './pod-eviction.ts';
import { handleExec } from './pod-exec.ts';
import { handleLog } from './pod-log.ts';
import type { ResourceCall } from './resource-call.ts';
import { handleScale } from './scale.ts';
import { handleTokenRequest } from './token-request.ts';

export async function handleSubresource(call: ResourceCall, sub: SubresourceInfo, verb: Verb): Promise<void> {
  if (!sub.verbs.includes(verb)) throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  switch (sub.name) {
    case 'binding':
      return handleBinding(call);
    case 'eviction':
      return handleEviction(call);
    case 'scale':
      return handleScale(call, verb);
    case 'log':
      return handleLog(call);
    case 'exec':
    case 'attach':
    case 'portforward':
      return handleExec();
    case 'token':
      return handleTokenRequest(call);
  }
}
