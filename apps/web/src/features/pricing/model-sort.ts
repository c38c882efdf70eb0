import type { ModelPricing } from '@tollgate/contracts';

export const MODEL_SORTS = [
  'intelligence',
  'speed',
  'input_price',
  'output_price',
  'context_window',
  'model',
] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];

/** Best first for ratings and context, cheapest first for prices, A–Z for names; deprecated models last. */
export function sortModels(models: readonly ModelPricing[], sort: ModelSort): ModelPricing[] {
  const compare = (a: ModelPricing, b: ModelPricing): number => {
    switch (sort) {
      case 'intelligence':
      case 'speed':
      case 'context_window':
        return b[sort] - a[sort];
      case 'input_price':
      case 'output_price':
        return a[sort] - b[sort];
      case 'model':
        return a.model.localeCompare(b.model);
    }
  };
  return [...models].sort(
    (a, b) => Number(a.deprecated) - Number(b.deprecated) || compare(a, b) || a.model.localeCompare(b.model),
  );
}

/** Case-insensitive match on the model or its provider. */
export function filterModels(models: readonly ModelPricing[], query: string): ModelPricing[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...models];
  return models.filter(
    (m) => m.model.toLowerCase().includes(needle) || m.provider.toLowerCase().includes(needle),
  );
}
