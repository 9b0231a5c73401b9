// sprig url.go: urlParse into a dict, urlJoin from one. getHostByName (network.go) is not supported.
import { GoFuncError, goFunc, isMap, mapGet, newMap, type FuncMap, type GoMap, type GoValue } from '../../value.ts';
import { strval } from './util.ts';

function urlParse(s: string): GoValue {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/(?:([^@/?#]*)@)?([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(s);
  if (m === null || /%(?![0-9a-fA-F]{2})/.test(s)) {
    const bad = /%(?![0-9a-fA-F]{2}).{0,2}/.exec(s)?.[0] ?? s;
    throw new GoFuncError(`unable to parse url: parse ${JSON.stringify(s)}: invalid URL escape ${JSON.stringify(bad)}`);
  }
  const d = newMap();
  const host = m[3] ?? '';
  d.scheme = m[1] ?? '';
  d.host = host;
  d.hostname = host.replace(/:\d*$/, '').replace(/^\[(.*)\]$/, '$1');
  d.path = decodeURIComponent(m[4] ?? '');
  d.query = m[5] ?? '';
  d.opaque = '';
  d.fragment = decodeURIComponent(m[6] ?? '');
  d.userinfo = m[2] ?? '';
  return d;
}

function escapePath(p: string): string {
  return encodeURI(p).replace(/[?#]/g, encodeURIComponent).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

function urlJoin(d: GoMap): string {
  const get = (k: string): string => {
    const v = mapGet(d, k);
    return v === undefined || v === null ? '' : strval(v);
  };
  let out = '';
  const scheme = get('scheme');
  if (scheme) out += scheme + ':';
  const host = get('host');
  const userinfo = get('userinfo');
  if (host || userinfo || scheme) out += '//';
  if (userinfo) out += userinfo + '@';
  out += host;
  const path = get('path');
  if (path && !path.startsWith('/') && host) out += '/';
  out += escapePath(path);
  const q = get('query');
  if (q) out += '?' + q;
  const f = get('fragment');
  if (f) out += '#' + encodeURIComponent(f);
  return out;
}

export const urlFunctions: FuncMap = {
  urlParse: goFunc({ params: ['string'], results: ['map[string]interface {}'] }, urlParse),
  urlJoin: goFunc({ params: ['map[string]interface {}'], results: ['string'] }, (d: GoValue) => (isMap(d) ? urlJoin(d) : '')),
  getHostByName: goFunc({ params: ['string'], results: ['string'] }, () => {
    throw new GoFuncError('getHostByName is not supported: templates have no network access in Bosun');
  }),
};
