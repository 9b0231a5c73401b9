// Where the GitHub API is: GITHUB_API_URL (GitHub Enterprise Server, or a test server) and GITHUB_UPLOAD_URL, as
// upstream reads them. Upstream's Go client requires a trailing slash and Octokit breaks on one (it joins
// `${baseUrl}${path}` into "//repos"), so both spellings are accepted and stored without it.
import { GitHubEndpointError } from './errors.ts';

export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

export interface GitHubEndpoints {
  /** The REST base URL, without a trailing slash. */
  apiUrl: string;
  /** Upstream's upload base URL (defaults to the API URL). No terrakojo call uploads; it is checked so a typo fails early. */
  uploadUrl: string;
}

export function githubEndpoints(env: Record<string, string | undefined> = process.env): GitHubEndpoints {
  const api = env['GITHUB_API_URL']?.trim() || DEFAULT_GITHUB_API_URL;
  const apiUrl = baseUrl(api, 'GITHUB_API_URL');
  const upload = env['GITHUB_UPLOAD_URL']?.trim();
  return { apiUrl, uploadUrl: upload ? baseUrl(upload, 'GITHUB_UPLOAD_URL') : apiUrl };
}

/** url checked to be http(s), without trailing slashes; `what` names the setting in the error, which never echoes the URL. */
export function baseUrl(url: string, what: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GitHubEndpointError(`${what} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new GitHubEndpointError(`${what} must be an http or https URL, not ${parsed.protocol}`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new GitHubEndpointError(`${what} must be a plain base URL (no credentials, query or fragment)`);
  }
  return url.trim().replace(/\/+$/, '');
}
