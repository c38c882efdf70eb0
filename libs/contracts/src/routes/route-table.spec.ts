import { compileRouteTable, ROUTE_TABLE } from './route-table';

describe('route table', () => {
  const table = compileRouteTable();
  const owner = (path: string) => table.match(path)?.service;

  it.each([
    ['/api/user/login', 'auth'],
    ['/api/user/self', 'auth'],
    ['/api/user/', 'auth'],
    ['/api/user/42', 'auth'],
    ['/api/user/payment', 'billing'],
    ['/api/user/payment/logs?p=1', 'billing'],
    ['/api/user/aff_transfer', 'billing'],
    ['/api/user/aff', 'auth'],
    ['/api/reset_password?email=a@b.cd', 'auth'],
    ['/api/verification?email=a@b.cd', 'auth'],
    ['/api/oauth/github?code=x&state=y', 'auth'],
    ['/api/token/?p=1', 'auth'],
    ['/api/log/self/export', 'billing'],
    ['/api/statistics/self', 'billing'],
    ['/api/pricing', 'billing'],
    ['/api/exchange-rate', 'billing'],
    ['/api/promo/validate', 'billing'],
    ['/api/chat/7/messages', 'chat'],
    ['/api/channel/?p=1&id_sort=true', 'admin'],
    ['/api/option/', 'admin'],
    ['/api/status', 'admin'],
    ['/api/notice', 'admin'],
    ['/api/versions', 'admin'],
    ['/api/incident/3', 'admin'],
    ['/v1/chat/completions', 'relay'],
    ['/v1/models', 'relay'],
    ['/v1beta/models/gemini-2.5-pro:generateContent', 'relay'],
  ])('%s is owned by %s', (path, service) => {
    expect(owner(path)).toBe(service);
  });

  it('matches prefixes only at a segment boundary', () => {
    expect(owner('/api/username')).toBeUndefined();
    expect(owner('/api/user/paymentx')).toBe('auth');
    expect(owner('/v10/models')).toBeUndefined();
    expect(owner('/api')).toBeUndefined();
    expect(owner('/')).toBeUndefined();
  });

  it('reports the minimum role of admin-only prefixes', () => {
    expect(table.match('/api/channel/1')?.minRole).toBe(10);
    expect(table.match('/api/option/')?.minRole).toBe(100);
    expect(table.match('/api/status')?.minRole).toBeUndefined();
  });

  it('has no duplicate prefixes', () => {
    const prefixes = ROUTE_TABLE.map((e) => e.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});
