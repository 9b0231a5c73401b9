// GitHub's page-based pagination: per_page and page query parameters, a Link header with next/last/first/prev.
import { HttpError } from './http.ts';

export interface PageLimits {
  defaultPerPage: number;
  maxPerPage: number;
}

export const LIST_LIMITS: PageLimits = { defaultPerPage: 30, maxPerPage: 100 };

export interface Page<T> {
  items: T[];
  /** The page served, from 1. */
  page: number;
  /** The Link header, absent when everything fits on one page. */
  link: string | undefined;
}

export function paginate<T>(items: readonly T[], url: URL, limits: PageLimits): Page<T> {
  const perPage = Math.min(positiveInteger(url, 'per_page') ?? limits.defaultPerPage, limits.maxPerPage);
  const page = positiveInteger(url, 'page') ?? 1;
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const pageUrl = (n: number): string => {
    const target = new URL(url);
    target.searchParams.set('per_page', String(perPage));
    target.searchParams.set('page', String(n));
    return target.toString();
  };
  const links: string[] = [];
  if (page < lastPage) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(lastPage)}>; rel="last"`);
  if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(Math.min(page - 1, lastPage))}>; rel="prev"`);
  return { items: items.slice((page - 1) * perPage, page * perPage), page, link: links.length === 0 ? undefined : links.join(', ') };
}

function positiveInteger(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  // GitHub treats a nonsensical page number as the first page; a non-number is a validation error.
  if (!Number.isInteger(value)) throw new HttpError(422, `Invalid value for ${name}: ${raw}`);
  return Math.max(1, value);
}
