import { pageQuerySchema } from './envelope';

describe('pageQuerySchema', () => {
  const query = pageQuerySchema(20);

  it('reads new-api p from 1, and p=0 (what one-api scripts send first) as the first page', () => {
    expect(query.parse({ p: '0' })).toEqual({ page: 1, pageSize: 20 });
    expect(query.parse({ p: '1' })).toEqual({ page: 1, pageSize: 20 });
    expect(query.parse({ p: '3', size: '5' })).toEqual({ page: 3, pageSize: 5 });
    expect(query.parse({})).toEqual({ page: 1, pageSize: 20 });
  });

  it('refuses a page below 0 or not a whole number', () => {
    expect(query.safeParse({ p: '-1' }).success).toBe(false);
    expect(query.safeParse({ p: '1.5' }).success).toBe(false);
    expect(query.safeParse({ p: 'x' }).success).toBe(false);
  });
});
