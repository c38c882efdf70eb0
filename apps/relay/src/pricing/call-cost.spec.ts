import { addUsageCost, callCost, costHeaders, costTerms, IN_DOLLARS, withUsageCost } from './call-cost';

const inDollars = (quota: number, usd: string) => ({ quota, usd, amount: usd, currency: 'USD' });
const inRubles = (rubPerUsd: string) => ({ currency: 'RUB' as const, rubPerUsd });

describe('callCost', () => {
  it('states quota in dollars exactly, without float arithmetic', () => {
    expect(callCost(0)).toEqual(inDollars(0, '0'));
    expect(callCost(1)).toEqual(inDollars(1, '0.000002'));
    expect(callCost(21)).toEqual(inDollars(21, '0.000042'));
    expect(callCost(500_000)).toEqual(inDollars(500_000, '1'));
    expect(callCost(1_234_567)).toEqual(inDollars(1_234_567, '2.469134'));
    expect(costHeaders(callCost(21))).toEqual({
      'x-tollgate-cost': '0.000042',
      'x-tollgate-cost-currency': 'USD',
      'x-tollgate-cost-quota': '21',
    });
  });

  it('states quota in rubles at the rate, exact to the millionth', () => {
    expect(callCost(21, inRubles('92.5'))).toEqual({
      quota: 21,
      usd: '0.000042',
      amount: '0.003885',
      currency: 'RUB',
    });
    expect(callCost(500_000, inRubles('81.7531')).amount).toBe('81.7531');
    expect(callCost(1_234_567, inRubles('100')).amount).toBe('246.9134');
    expect(callCost(0, inRubles('92.5')).amount).toBe('0');
    // Beyond a float's 15-16 significant digits: the largest safe quota at 99.999999 ₽/$.
    expect(callCost(Number.MAX_SAFE_INTEGER, inRubles('99.999999')).amount).toBe('1801439832933.799691');
    expect(costHeaders(callCost(21, inRubles('92.5')))).toEqual({
      'x-tollgate-cost': '0.003885',
      'x-tollgate-cost-currency': 'RUB',
      'x-tollgate-cost-quota': '21',
    });
  });

  it('rounds rubles half up to 6 decimals, whatever the rate’s own precision', () => {
    // 1 quota = 0.000002 $: at 0.25 ₽/$ exactly 0.0000005 ₽, which rounds up.
    expect(callCost(1, inRubles('0.25')).amount).toBe('0.000001');
    expect(callCost(1, inRubles('0.249999')).amount).toBe('0');
    expect(callCost(1, inRubles('0.249999999999')).amount).toBe('0');
    expect(callCost(3, inRubles('92.123456789012')).amount).toBe('0.000553');
  });
});

describe('costTerms', () => {
  it('tells rubles only at a known rate, and dollars otherwise', () => {
    expect(costTerms('RUB', '92.5')).toEqual(inRubles('92.5'));
    expect(costTerms('RUB', undefined)).toEqual(IN_DOLLARS);
    expect(costTerms('USD', '92.5')).toEqual(IN_DOLLARS);
  });
});

describe('withUsageCost', () => {
  const cost = callCost(21);

  it('adds cost, its currency and cost_quota to the answer’s own usage object, the rest byte for byte', () => {
    const text =
      '{"id":"x","choices":[{"message":{"content":"say \\"usage\\":{ here"}}],"usage": {"prompt_tokens":3,"completion_tokens":4}}';
    const out = withUsageCost(text, cost)!;
    expect(JSON.parse(out)).toEqual({
      ...(JSON.parse(text) as object),
      usage: { cost: 0.000042, cost_currency: 'USD', cost_quota: 21, prompt_tokens: 3, completion_tokens: 4 },
    });
    expect(out.replace('"cost":0.000042,"cost_currency":"USD","cost_quota":21,', '')).toBe(text);
  });

  it('fills an empty usage object and adds one where the answer has none', () => {
    expect(JSON.parse(withUsageCost('{"usage":{}}', cost)!)).toEqual({
      usage: { cost: 0.000042, cost_currency: 'USD', cost_quota: 21 },
    });
    expect(JSON.parse(withUsageCost('{"a":1}', cost)!)).toEqual({
      a: 1,
      usage: { cost: 0.000042, cost_currency: 'USD', cost_quota: 21 },
    });
    expect(JSON.parse(withUsageCost('{ }', cost)!)).toEqual({
      usage: { cost: 0.000042, cost_currency: 'USD', cost_quota: 21 },
    });
    expect(withUsageCost('[1,2]', cost)).toBeUndefined();
  });

  it('takes the last "usage" that opens an object, past later "usage" texts that do not', () => {
    const fields = '"cost":0.000042,"cost_currency":"USD","cost_quota":21';
    expect(withUsageCost('{"usage":{"a":1},"note":"usage","kind":"usage" }', cost)).toBe(
      `{"usage":{${fields},"a":1},"note":"usage","kind":"usage" }`,
    );
    expect(withUsageCost('{"choices":[{"usage":{"x":1}}],"usage" : \n { }}', cost)).toBe(
      `{"choices":[{"usage":{"x":1}}],"usage" : \n {${fields} }}`,
    );
    expect(withUsageCost('"usage"usage":{"b":2}', cost)).toBe(`"usage"usage":{${fields},"b":2}`);
    expect(withUsageCost('{"usage":1,"u":"usage"}', cost)).toBe(
      `{"usage":1,"u":"usage","usage":{${fields}}}`,
    );
  });

  it('adds the same fields to an answer held as an object', () => {
    expect(addUsageCost({ id: 'x', usage: { prompt_tokens: 1 } }, cost)).toEqual({
      id: 'x',
      usage: { prompt_tokens: 1, cost: 0.000042, cost_currency: 'USD', cost_quota: 21 },
    });
  });

  it('tells a ruble account its cost in rubles, as a JSON number', () => {
    const rubles = callCost(21, inRubles('92.5'));
    expect(JSON.parse(withUsageCost('{"usage":{"total_tokens":7}}', rubles)!)).toEqual({
      usage: { cost: 0.003885, cost_currency: 'RUB', cost_quota: 21, total_tokens: 7 },
    });
    expect(addUsageCost({ usage: {} }, rubles)).toEqual({
      usage: { cost: 0.003885, cost_currency: 'RUB', cost_quota: 21 },
    });
  });
});
