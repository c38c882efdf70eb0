import { seedModelThroughAdmin, type AdminCall } from './admin-seed';

describe('seedModelThroughAdmin', () => {
  it('prices the model, then adds its channel on the upstream for the default group', async () => {
    const calls: [string, string, unknown][] = [];
    const call: AdminCall = async (path, method, body) => {
      calls.push([path, method, body]);
      return { status: 200 };
    };
    await seedModelThroughAdmin(call, { model: 'm-1', upstreamUrl: 'http://127.0.0.1:9' });
    expect(calls.map(([path, method]) => `${method} ${path}`)).toEqual([
      'PUT /api/pricing/models/m-1',
      'POST /api/channel/',
    ]);
    expect(calls[1]![2]).toMatchObject({
      name: 'm-1',
      base_url: 'http://127.0.0.1:9',
      models: 'm-1',
      model_mapping: JSON.stringify({ 'm-1': 'gpt-4o-mini' }),
      group: 'default',
    });
  });

  it('stops at the first step the platform refuses, naming it and the answer', async () => {
    const call: AdminCall = async () => ({ status: 403, body: { success: false, message: 'no' } });
    await expect(
      seedModelThroughAdmin(call, { model: 'm-2', upstreamUrl: 'http://127.0.0.1:9' }),
    ).rejects.toThrow('pricing m-2 answered 403: {"success":false,"message":"no"}');
  });
});
