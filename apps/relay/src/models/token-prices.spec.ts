import { chargeQuota, toScaledInteger, type PriceSnapshot } from '@tollgate/contracts';
import { callCost, costTerms, IN_DOLLARS } from '../pricing/call-cost';
import { tokenPrices } from './token-prices';

const snapshot = (price: Partial<PriceSnapshot> = {}): PriceSnapshot => ({
  input: '2.5',
  output: '10',
  cached_input: '1.25',
  group_ratio: '0.8',
  ...price,
});

describe('tokenPrices', () => {
  it('is the price per token with the group ratio applied, exact to the last digit', () => {
    expect(tokenPrices(snapshot({ input: '0.000001', group_ratio: '0.000001' }), IN_DOLLARS).prompt).toBe(
      '0.000000000000000001',
    );
    expect(tokenPrices(snapshot(), IN_DOLLARS)).toEqual({
      prompt: '0.000002',
      completion: '0.000008',
      input_cache_read: '0.000001',
      currency: 'USD',
    });
    expect(tokenPrices(snapshot({ input: '0', group_ratio: '1' }), IN_DOLLARS).prompt).toBe('0');
  });

  it('prices cache writes only where the catalogue prices them apart from input', () => {
    expect(tokenPrices(snapshot({ cache_write: '3.125' }), IN_DOLLARS).input_cache_write).toBe('0.0000025');
    expect(tokenPrices(snapshot(), IN_DOLLARS)).not.toHaveProperty('input_cache_write');
  });

  it('is, times a million tokens, what the charge costs the caller in their currency', () => {
    const price = snapshot({ input: '0.15', output: '0.6', group_ratio: '1.3' });
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, cached_tokens: 0 };
    const rubles = costTerms('RUB', '101.37');
    const cost = callCost(chargeQuota(usage, price), rubles);
    const perToken = tokenPrices(price, rubles);
    const exact = (text: string) => toScaledInteger(text, 42);
    expect(cost.currency).toBe(perToken.currency);
    expect(perToken.prompt).toBe('0.00001976715');
    // 0.975 dollars at 101.37: no rounding anywhere, so the two agree to the last digit.
    expect(cost.amount).toBe('98.83575');
    expect((exact(perToken.prompt) + exact(perToken.completion)) * 1_000_000n).toBe(exact(cost.amount));
  });
});
