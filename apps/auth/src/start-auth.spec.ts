import { setFlagsFromString } from 'node:v8';
import { loadConfig } from '@tollgate/platform';
import { startNestService, type Env, type ServiceRuntime } from '@tollgate/runtime';
import { NO_PRETENURING_FLAG } from '@tollgate/runtime/main';
import { startAuth } from './start-auth';

// The process's V8 flags are not this suite's to change (libs/runtime's young-call-state.spec.ts
// checks V8's behaviour in child processes); the service itself is not started here.
jest.mock('node:v8', () => ({ ...jest.requireActual<object>('node:v8'), setFlagsFromString: jest.fn() }));
jest.mock('@tollgate/platform', () => ({ loadConfig: jest.fn(() => ({})) }));
jest.mock('@tollgate/runtime', () => ({ startNestService: jest.fn(async () => ({})) }));
jest.mock('./config', () => ({ authConfigSchema: {} }));
jest.mock('./auth.module', () => ({ AuthModule: { register: jest.fn(() => ({})) } }));

describe('startAuth and V8 allocation-site pretenuring', () => {
  it('turns it off before the config, the module and the service are made', async () => {
    const order: string[] = [];
    jest.mocked(setFlagsFromString).mockImplementation((flags) => void order.push(flags));
    jest.mocked(loadConfig).mockImplementation(() => void order.push('config') as never);
    jest.mocked(startNestService).mockImplementation(async () => {
      order.push('service');
      return {} as never;
    });
    await startAuth({} as Env, {} as ServiceRuntime);
    expect(order).toEqual([NO_PRETENURING_FLAG, 'config', 'service']);
  });
});
