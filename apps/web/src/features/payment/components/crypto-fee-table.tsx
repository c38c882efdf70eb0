import { useTranslation } from 'react-i18next';
import { CRYPTO_NETWORK_FEES } from '../crypto-fees';

/** SPEC §9: what each network costs to send through, so the user can pick a cheap one. */
export function CryptoFeeTable() {
  const { t } = useTranslation('payment');
  return (
    <div className="rounded-lg border border-slate-200">
      <table className="w-full text-left text-sm">
        <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-700">
          {t('fees_title')}
        </caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="px-3 py-2 font-medium">{t('fees_network')}</th>
            <th className="px-3 py-2 font-medium">{t('fees_fee')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {CRYPTO_NETWORK_FEES.map((row) => (
            <tr key={row.id}>
              <td className="px-3 py-2 text-slate-800">{row.network}</td>
              <td className="px-3 py-2 text-slate-600">{t(`fee_${row.id}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="px-3 pb-3 text-xs text-slate-500">{t('fees_note')}</p>
    </div>
  );
}
