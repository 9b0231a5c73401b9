// Validation of webhook configurations, worded as kube-apiserver's admissionregistration validation words it
// (pkg/apis/admissionregistration/validation): what a real server refuses, this one refuses the same way.
import { ADMISSION_REVIEW_VERSIONS } from '../../apimachinery/admission-review.ts';
import { fieldError, toStatusCauses, type FieldError } from '../../apimachinery/field-error.ts';
import { fromLabelSelectorObject, LabelSelectorError, type LabelSelectorObject } from '../../apimachinery/label-selector.ts';
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import {
  FAILURE_POLICIES,
  MATCH_POLICIES,
  OPERATION_TYPES,
  REINVOCATION_POLICIES,
  SCOPE_TYPES,
  SIDE_EFFECT_CLASSES,
} from '../../apimachinery/webhook-configuration.ts';
import { compileMatchCondition, MatchConditionCompileError } from './match-conditions.ts';

const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const subdomainMessage =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** Go's sets.List(): the supported values sorted, as NotSupported errors list them. */
const sorted = (values: readonly string[]): string[] => [...values].sort();

/** `[]string{"a", "b"}`: how field errors render a string slice. */
function goStrings(values: unknown[]): string {
  return `[]string{${values.map((v) => JSON.stringify(typeof v === 'string' ? v : String(v))).join(', ')}}`;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

function validateFullyQualifiedName(path: string, name: unknown): FieldError[] {
  if (typeof name !== 'string' || name === '') return [fieldError.required(path)];
  if (name.length > 253) return [fieldError.invalid(path, name, 'must be no more than 253 characters')];
  if (!subdomain.test(name)) return [fieldError.invalid(path, name, subdomainMessage)];
  if (name.split('.').length < 3) return [fieldError.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateStringList(path: string, value: unknown, what: string): FieldError[] {
  const list = strings(value);
  if (value !== undefined && list === undefined) return [fieldError.invalid(path, value, 'must be a list of strings')];
  if (!list || list.length === 0) return [fieldError.required(path)];
  if (list.length > 1 && list.includes('*')) return [fieldError.invalidPrinted(path, goStrings(list), `if '*' is present, must not specify other ${what}`)];
  return [];
}

function validateResources(path: string, value: unknown): FieldError[] {
  const resources = strings(value);
  if (value !== undefined && resources === undefined) return [fieldError.invalid(path, value, 'must be a list of strings')];
  if (!resources || resources.length === 0) return [fieldError.required(path)];
  const out: FieldError[] = [];
  const wildcardSubresources = new Set<string>();
  const wildcardResources = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  resources.forEach((entry, i) => {
    if (entry === '') {
      out.push(fieldError.required(`${path}[${i}]`));
      return;
    }
    if (entry === '*/*') doubleWildcard = true;
    if (entry === '*') singleWildcard = true;
    const slash = entry.indexOf('/');
    if (slash < 0) {
      withoutSubresource = entry !== '*';
      return;
    }
    const res = entry.slice(0, slash);
    const sub = entry.slice(slash + 1);
    if (wildcardSubresources.has(res)) out.push(fieldError.invalid(`${path}[${i}]`, entry, `if '${res}/*' is present, must not specify ${entry}`));
    if (wildcardResources.has(sub)) out.push(fieldError.invalid(`${path}[${i}]`, entry, `if '*/${sub}' is present, must not specify ${entry}`));
    if (sub === '*') wildcardSubresources.add(res);
    if (res === '*') wildcardResources.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) out.push(fieldError.invalidPrinted(path, goStrings(resources), "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSubresource) {
    out.push(fieldError.invalidPrinted(path, goStrings(resources), "if '*' is present, must not specify other resources without subresources"));
  }
  return out;
}

function validateRule(path: string, rule: unknown): FieldError[] {
  if (!isPlainObject(rule)) return [fieldError.invalid(path, rule, 'must be an object')];
  const out: FieldError[] = [];
  const operations = strings(rule['operations']);
  if (!operations || operations.length === 0) out.push(fieldError.required(`${path}.operations`));
  else {
    if (operations.length > 1 && operations.includes('*')) {
      out.push(fieldError.invalidPrinted(`${path}.operations`, goStrings(operations), "if '*' is present, must not specify other operations"));
    }
    operations.forEach((op, i) => {
      if (!(OPERATION_TYPES as readonly string[]).includes(op)) out.push(fieldError.notSupported(`${path}.operations[${i}]`, op, sorted(OPERATION_TYPES)));
    });
  }
  out.push(...validateStringList(`${path}.apiGroups`, rule['apiGroups'], 'API groups'));
  const versions = strings(rule['apiVersions']);
  out.push(...validateStringList(`${path}.apiVersions`, rule['apiVersions'], 'API versions'));
  versions?.forEach((v, i) => {
    if (v === '') out.push(fieldError.required(`${path}.apiVersions[${i}]`));
  });
  out.push(...validateResources(`${path}.resources`, rule['resources']));
  const scope = rule['scope'];
  if (scope !== undefined && !(SCOPE_TYPES as readonly unknown[]).includes(scope)) out.push(fieldError.notSupported(`${path}.scope`, scope, sorted(SCOPE_TYPES)));
  return out;
}

function validateSelector(path: string, value: unknown): FieldError[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) return [fieldError.invalid(path, value, 'must be a label selector')];
  const out: FieldError[] = [];
  const expressions = value['matchExpressions'];
  if (Array.isArray(expressions)) {
    expressions.forEach((e, i) => {
      if (!isPlainObject(e)) return;
      const at = `${path}.matchExpressions[${i}]`;
      const values = Array.isArray(e['values']) ? e['values'] : [];
      if ((e['operator'] === 'In' || e['operator'] === 'NotIn') && values.length === 0) {
        out.push(fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      }
      if ((e['operator'] === 'Exists' || e['operator'] === 'DoesNotExist') && values.length > 0) {
        out.push(fieldError.forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
      if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(e['operator'] as string)) out.push(fieldError.invalid(`${at}.operator`, e['operator'], 'not a valid selector operator'));
    });
  }
  if (out.length === 0) {
    try {
      fromLabelSelectorObject(value as LabelSelectorObject);
    } catch (error) {
      if (!(error instanceof LabelSelectorError)) throw error;
      out.push(fieldError.invalid(path, value, error.message));
    }
  }
  return out;
}

function validateUrl(path: string, raw: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  // Go's url.Parse accepts what WHATWG URL refuses (e.g. a bare path): report scheme and host as Go would see them.
  const scheme = url ? url.protocol.replace(/:$/, '') : (/^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1] ?? '');
  const host = url ? url.host : '';
  const out: FieldError[] = [];
  if (scheme !== 'https') out.push(fieldError.invalid(path, scheme, `'https' is the only allowed URL scheme${form}`));
  if (host === '') out.push(fieldError.invalid(path, host, `host must be specified${form}`));
  if (url && (url.username !== '' || url.password !== '')) {
    out.push(fieldError.invalid(path, url.password ? `${url.username}:${url.password}` : url.username, 'user information is not permitted in the URL'));
  }
  if (url && url.hash.length > 1) out.push(fieldError.invalid(path, url.hash.slice(1), 'fragments are not permitted in the URL'));
  if (url && url.search.length > 1) out.push(fieldError.invalid(path, url.search.slice(1), 'query parameters are not permitted in the URL'));
  return out;
}

function validateService(path: string, service: Record<string, unknown>): FieldError[] {
  const out: FieldError[] = [];
  if (typeof service['name'] !== 'string' || service['name'] === '') out.push(fieldError.required(`${path}.name`, 'service name is required'));
  if (typeof service['namespace'] !== 'string' || service['namespace'] === '') out.push(fieldError.required(`${path}.namespace`, 'service namespace is required'));
  const port = service['port'];
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    out.push(fieldError.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  const urlPath = service['path'];
  if (typeof urlPath === 'string' && urlPath !== '' && urlPath !== '/') {
    if (urlPath === '//') out.push(fieldError.invalid(`${path}.path`, urlPath, 'segment[0] may not be empty'));
    else if (!urlPath.startsWith('/')) out.push(fieldError.invalid(`${path}.path`, urlPath, "must start with a '/'"));
  }
  return out;
}

function validateClientConfig(path: string, config: unknown): FieldError[] {
  if (!isPlainObject(config)) return [fieldError.required(path, 'exactly one of url or service is required')];
  const url = config['url'];
  const service = config['service'];
  const out: FieldError[] = [];
  if ((url === undefined) === (service === undefined)) out.push(fieldError.required(path, 'exactly one of url or service is required'));
  else if (url !== undefined) out.push(...(typeof url === 'string' ? validateUrl(`${path}.url`, url) : [fieldError.invalid(`${path}.url`, url, 'must be a string')]));
  else out.push(...(isPlainObject(service) ? validateService(`${path}.service`, service) : [fieldError.invalid(`${path}.service`, service, 'must be an object')]));
  const ca = config['caBundle'];
  // caBundle is []byte in Go: JSON carries it as base64.
  if (ca !== undefined && (typeof ca !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(ca) || ca.length % 4 !== 0)) {
    out.push(fieldError.invalid(`${path}.caBundle`, ca, 'illegal base64 data'));
  }
  return out;
}

function validateMatchConditions(path: string, value: unknown): FieldError[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [fieldError.invalid(path, value, 'must be a list')];
  const out: FieldError[] = [];
  if (value.length > 64) out.push(fieldError.tooMany(path, value.length, 64));
  const names = new Set<string>();
  value.forEach((condition, i) => {
    const at = `${path}[${i}]`;
    if (!isPlainObject(condition)) {
      out.push(fieldError.invalid(at, condition, 'must be an object'));
      return;
    }
    const name = condition['name'];
    if (typeof name !== 'string' || name === '') out.push(fieldError.required(`${at}.name`));
    else {
      const slash = name.indexOf('/');
      const local = slash < 0 ? name : name.slice(slash + 1);
      const prefix = slash < 0 ? undefined : name.slice(0, slash);
      if (local.length > 63 || !qualifiedNamePart.test(local) || (prefix !== undefined && !subdomain.test(prefix))) {
        out.push(
          fieldError.invalid(
            `${at}.name`,
            name,
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
          ),
        );
      }
      if (names.has(name)) out.push(fieldError.duplicate(`${at}.name`, name));
      names.add(name);
    }
    const expression = condition['expression'];
    if (typeof expression !== 'string' || expression === '') out.push(fieldError.required(`${at}.expression`));
    else {
      try {
        compileMatchCondition(expression);
      } catch (error) {
        if (!(error instanceof MatchConditionCompileError)) throw error;
        out.push(fieldError.invalid(`${at}.expression`, expression, `compilation failed: ${error.message}`));
      }
    }
  });
  return out;
}

function validateAdmissionReviewVersions(path: string, value: unknown): FieldError[] {
  const versions = strings(value);
  const accepted = ADMISSION_REVIEW_VERSIONS.join(', ');
  if (!versions || versions.length === 0) return [fieldError.required(path, `must specify one of ${accepted}`)];
  const out: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      out.push(fieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    if (v.length > 63 || !dns1035Label.test(v)) {
      out.push(
        fieldError.invalid(
          `${path}[${i}]`,
          v,
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        ),
      );
    }
  });
  if (!versions.some((v) => (ADMISSION_REVIEW_VERSIONS as readonly string[]).includes(v))) {
    out.push(fieldError.invalidPrinted(path, goStrings(versions), `must include at least one of ${accepted}`));
  }
  return out;
}

function validateWebhook(path: string, webhook: unknown, mutating: boolean): FieldError[] {
  if (!isPlainObject(webhook)) return [fieldError.invalid(path, webhook, 'must be an object')];
  const out = validateFullyQualifiedName(`${path}.name`, webhook['name']);
  const rules = webhook['rules'];
  if (rules !== undefined && !Array.isArray(rules)) out.push(fieldError.invalid(`${path}.rules`, rules, 'must be a list'));
  if (Array.isArray(rules)) rules.forEach((rule, i) => out.push(...validateRule(`${path}.rules[${i}]`, rule)));
  const failurePolicy = webhook['failurePolicy'];
  if (failurePolicy !== undefined && !(FAILURE_POLICIES as readonly unknown[]).includes(failurePolicy)) {
    out.push(fieldError.notSupported(`${path}.failurePolicy`, failurePolicy, sorted(FAILURE_POLICIES)));
  }
  const matchPolicy = webhook['matchPolicy'];
  if (matchPolicy !== undefined && !(MATCH_POLICIES as readonly unknown[]).includes(matchPolicy)) {
    out.push(fieldError.notSupported(`${path}.matchPolicy`, matchPolicy, sorted(MATCH_POLICIES)));
  }
  const sideEffects = webhook['sideEffects'];
  if (sideEffects === undefined || sideEffects === null) out.push(fieldError.required(`${path}.sideEffects`, `must specify one of ${SIDE_EFFECT_CLASSES.join(', ')}`));
  else if (!(SIDE_EFFECT_CLASSES as readonly unknown[]).includes(sideEffects)) out.push(fieldError.notSupported(`${path}.sideEffects`, sideEffects, sorted(SIDE_EFFECT_CLASSES)));
  const timeout = webhook['timeoutSeconds'];
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > 30)) {
    out.push(fieldError.invalid(`${path}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  out.push(...validateSelector(`${path}.namespaceSelector`, webhook['namespaceSelector']));
  out.push(...validateSelector(`${path}.objectSelector`, webhook['objectSelector']));
  out.push(...validateClientConfig(`${path}.clientConfig`, webhook['clientConfig']));
  out.push(...validateMatchConditions(`${path}.matchConditions`, webhook['matchConditions']));
  out.push(...validateAdmissionReviewVersions(`${path}.admissionReviewVersions`, webhook['admissionReviewVersions']));
  if (mutating) {
    const policy = webhook['reinvocationPolicy'];
    if (policy !== undefined && !(REINVOCATION_POLICIES as readonly unknown[]).includes(policy)) {
      out.push(fieldError.notSupported(`${path}.reinvocationPolicy`, policy, sorted(REINVOCATION_POLICIES)));
    }
  }
  return out;
}

/** The causes a (defaulted) ValidatingWebhookConfiguration or MutatingWebhookConfiguration is refused for. */
export function validateWebhookConfiguration(object: KubeObject, mutating: boolean): StatusCause[] {
  const webhooks = object['webhooks'];
  if (webhooks === undefined || webhooks === null) return [];
  if (!Array.isArray(webhooks)) return toStatusCauses([fieldError.invalid('webhooks', webhooks, 'must be a list')]);
  const out: FieldError[] = [];
  const names = new Set<string>();
  webhooks.forEach((webhook, i) => {
    out.push(...validateWebhook(`webhooks[${i}]`, webhook, mutating));
    const name = isPlainObject(webhook) ? webhook['name'] : undefined;
    if (typeof name === 'string' && name !== '') {
      if (names.has(name)) out.push(fieldError.duplicate(`webhooks[${i}].name`, name));
      names.add(name);
    }
  });
  return toStatusCauses(out);
}
