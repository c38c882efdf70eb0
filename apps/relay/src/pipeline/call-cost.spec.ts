import { addUsageCost, callCost, costHeaders, withUsageCost } from './call-cost';

describe('callCost', () => {
  it('states quota in dollars exactly, without float arithmetic', () => {
    expect(callCost(0)).toEqual({ quota: 0, usd: '0' });
    expect(callCost(1)).toEqual({ quota: 1, usd: '0.000002' });
    expect(callCost(21)).toEqual({ quota: 21, usd: '0.000042' });
    expect(callCost(500_000)).toEqual({ quota: 500_000, usd: '1' });
    expect(callCost(1_234_567)).toEqual({ quota: 1_234_567, usd: '2.469134' });
    expect(costHeaders(callCost(21))).toEqual({
      'x-tollgate-cost': '0.000042',
      'x-tollgate-cost-quota': '21',
    });
  });
});

describe('withUsageCost', () => {
  const cost = callCost(21);

  it('adds cost and cost_quota to the answer’s own usage object, the rest byte for byte', () => {
    const text =
      '{"id":"x","choices":[{"message":{"content":"say \\"usage\\":{ here"}}],"usage": {"prompt_tokens":3,"completion_tokens":4}}';
    const out = withUsageCost(text, cost)!;
    expect(JSON.parse(out)).toEqual({
      ...(JSON.parse(text) as object),
      usage: { cost: 0.000042, cost_quota: 21, prompt_tokens: 3, completion_tokens: 4 },
    });
    expect(out.replace('"cost":0.000042,"cost_quota":21,', '')).toBe(text);
  });

  it('fills an empty usage object and adds one where the answer has none', () => {
    expect(JSON.parse(withUsageCost('{"usage":{}}', cost)!)).toEqual({
      usage: { cost: 0.000042, cost_quota: 21 },
    });
    expect(JSON.parse(withUsageCost('{"a":1}', cost)!)).toEqual({
      a: 1,
      usage: { cost: 0.000042, cost_quota: 21 },
    });
    expect(JSON.parse(withUsageCost('{ }', cost)!)).toEqual({ usage: { cost: 0.000042, cost_quota: 21 } });
    expect(withUsageCost('[1,2]', cost)).toBeUndefined();
  });

  it('adds the same fields to an answer held as an object', () => {
    expect(addUsageCost({ id: 'x', usage: { prompt_tokens: 1 } }, cost)).toEqual({
      id: 'x',
      usage: { prompt_tokens: 1, cost: 0.000042, cost_quota: 21 },
    });
  });
});
