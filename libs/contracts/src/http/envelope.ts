import { z } from 'zod';

/** The `/api` answer shape: `{success, message, data}` (SPEC §3, §7). */
export const envelopeSchema = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ success: z.boolean(), message: z.string(), data: data.optional() });

export type Envelope<T> = { success: boolean; message: string; data?: T };

export const ok = <T>(data: T, message = ''): Envelope<T> => ({ success: true, message, data });
export const fail = (message: string): Envelope<never> => ({ success: false, message });

/** A page of items, as every list call answers it. */
export const pageSchema = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    page: z.number().int().min(1),
    page_size: z.number().int().min(1),
    total: z.number().int().min(0),
    items: z.array(item),
  });

export type Page<T> = { page: number; page_size: number; total: number; items: T[] };

/**
 * new-api's `p`: pages count from 1, and 0 (what scripts written for one-api's pages from 0 send first)
 * is the first page, as new-api reads any `p` below 1.
 */
export const newApiPageParam = (max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(max)
    .transform((page) => Math.max(1, page));

/** Page query: `p` (new-api's name) or `page`, and `page_size` (or `size`), with a default size per list. */
export const pageQuerySchema = (defaultSize: number, maxSize = 1000) =>
  z
    .object({
      p: newApiPageParam().optional(),
      page: z.coerce.number().int().min(1).optional(),
      page_size: z.coerce.number().int().min(1).max(maxSize).optional(),
      size: z.coerce.number().int().min(1).max(maxSize).optional(),
    })
    .transform((q) => ({ page: q.p ?? q.page ?? 1, pageSize: q.page_size ?? q.size ?? defaultSize }));
