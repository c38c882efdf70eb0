import type { ModelPricing } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

export function ModelFlags({ model }: { model: ModelPricing }) {
  const { t } = useTranslation('pricing');
  return (
    <>
      {model.sota && (
        <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">
          {t('sota')}
        </span>
      )}
      {model.deprecated && (
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
          {t('deprecated')}
        </span>
      )}
    </>
  );
}
