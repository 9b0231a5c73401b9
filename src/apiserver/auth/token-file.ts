// kube-apiserver's --token-auth-file: a CSV of static bearer tokens, `token,user,uid[,"group1,group2"]` a line,
// read once at start. Its users are authenticated, as every authenticated user, in system:authenticated.
import { readFileSync } from 'node:fs';
import { tokensEqual } from './bearer-token.ts';
import { audienceAgnostic, type TokenAuthenticator } from './token-authenticator.ts';
import type { UserInfo } from './user-info.ts';

export class TokenFileError extends Error {
  override readonly name = 'TokenFileError';
}

/** RFC 4180 records: fields split on commas, double-quoted fields may hold commas and "" for a quote. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let started = false;
  const endField = () => {
    record.push(field);
    field = '';
    started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && !started) {
      quoted = true;
      started = true;
    } else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (record.length > 0 || started || field !== '') {
        endField();
        records.push(record);
      }
      record = [];
    } else if ((c === ' ' || c === '\t') && !started) {
      // Leading space is trimmed, as Go's csv.Reader with TrimLeadingSpace.
    } else {
      field += c;
      started = true;
    }
  }
  if (quoted) throw new TokenFileError('extraneous or missing " in quoted-field');
  if (record.length > 0 || started || field !== '') {
    endField();
    records.push(record);
  }
  return records;
}

/** The users of a token file, by token; throws TokenFileError with kube-apiserver's words for a bad one. */
export function readTokenFile(path: string): Map<string, UserInfo> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TokenFileError(`cannot read token file '${path}': ${(error as Error).message}`);
  }
  const users = new Map<string, UserInfo>();
  for (const record of csvRecords(text)) {
    if (record.length < 3) throw new TokenFileError(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, username, uid, groups] = record as [string, string, string, string | undefined];
    if (token === '') continue;
    const listed = groups === undefined ? [] : groups.split(',');
    users.set(token, { username, uid, groups: listed.includes('system:authenticated') ? listed : [...listed, 'system:authenticated'] });
  }
  return users;
}

export function tokenFileAuthenticator(path: string): TokenAuthenticator {
  const users = [...readTokenFile(path)];
  return audienceAgnostic((presented) => users.find(([token]) => tokensEqual(presented, token))?.[1]);
}
