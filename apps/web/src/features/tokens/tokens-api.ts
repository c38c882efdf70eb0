import {
  TOKEN_PAGE_DEFAULT_SIZE,
  tokenGroupLimitsSchema,
  tokenKeySchema,
  tokenViewSchema,
  type TokenGroupLimits,
  type TokenStatus,
  type TokenView,
} from '@tollgate/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import type { TokenDraft } from './token-draft';

const tokenPageSchema = z.object({ items: z.array(tokenViewSchema), total: z.number().int() });
export type TokenPage = z.infer<typeof tokenPageSchema>;

/** How many keys a page of the list holds (SPEC §9: 100). */
export const TOKEN_PAGE_SIZE = TOKEN_PAGE_DEFAULT_SIZE;

/** One page (from 1) of the caller's keys; a keyword searches their names. */
export async function fetchTokens(keyword: string, page: number): Promise<TokenPage> {
  const query = { p: page, page_size: TOKEN_PAGE_SIZE };
  const data = keyword
    ? await api.data<unknown>('GET', '/token/search', { query: { ...query, keyword } })
    : await api.data<unknown>('GET', '/token/', { query });
  return tokenPageSchema.parse(data);
}

export async function createToken(draft: TokenDraft): Promise<TokenView> {
  return tokenViewSchema.parse(await api.data<unknown>('POST', '/token/', { body: draft }));
}

export async function updateToken(
  id: number,
  changes: Partial<TokenDraft> & { status?: TokenStatus },
): Promise<TokenView> {
  return tokenViewSchema.parse(await api.data<unknown>('PUT', '/token/', { body: { id, ...changes } }));
}

export async function deleteToken(id: number): Promise<void> {
  await api.send('DELETE', `/token/${id}`);
}

/** The whole key, for its owner's "copy" (lists show it masked). */
export async function fetchTokenKey(id: number): Promise<string> {
  return tokenKeySchema.parse(await api.data<unknown>('POST', `/token/${id}/key`)).key;
}

/** The caller's group and its limits, which bound their keys' own (a company group is not in /api/status). */
export async function fetchGroupLimits(): Promise<TokenGroupLimits> {
  return tokenGroupLimitsSchema.parse(await api.data<unknown>('GET', '/token/group_limits'));
}
